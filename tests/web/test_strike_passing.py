"""A RISK Strike seat's passing choice through the phone's door (docs/RULES.md §7,
"Passing"): a standing setting, so a phone may send it out of turn; journaled before it is
accepted; public in every view; a value the table does not offer is refused with a stable
code and changes nothing. The real table loop behind the real web app."""

from __future__ import annotations

from pi_app.table.loop import NewGameSpec
from pi_app.table_api import Viewer

from .real_table import reach

STRIKE = NewGameSpec("strike", ("red", "blue", "green"), {"reaction_seconds": 0})


def _idle_seat(state) -> str:
    return next(p for p in state.players if p != state.current_player)


def test_a_phone_chooses_its_passing_out_of_turn_and_the_journal_keeps_it(tables):
    table = reach(tables, STRIKE, lambda s: s.phase == "draw" and s.window is None)
    player = _idle_seat(table.state())
    before = table.mark()
    res = table.command(player, {"type": "strike_choose_passing", "choice": "every"})
    assert res.status_code == 200, res.get_json()
    assert table.mark()[0] == before[0] + 1  # one more journal entry
    entry = table.loop.call(lambda core: core.journal.load(core.session.game_id).entries[-1])
    assert entry.command == {"type": "strike_choose_passing", "player": player,
                             "choice": "every"}
    # public: another seat's view and the table view carry it; the seat's own view says it
    other = next(p for p in table.state().players if p != player)
    for viewer in (Viewer("player", other), Viewer("public")):
        assert table.app.extensions["riskboard"].table.view(viewer)["passing"] == {
            player: "every"}
    own = table.app.extensions["riskboard"].table.view(Viewer("player", player))
    assert own["passing_choice"] == {"choice": "every", "choices": ["result", "every"]}


def test_a_passing_choice_the_table_does_not_offer_is_refused_and_changes_nothing(tables):
    table = reach(tables, STRIKE, lambda s: s.phase == "draw" and s.window is None)
    player = _idle_seat(table.state())
    before = table.mark()
    res = table.command(player, {"type": "strike_choose_passing", "choice": "sometimes"})
    body = res.get_json()
    assert res.status_code == 409 and body["error"]["code"] == "bad_passing", body
    assert table.mark() == before and table.state().passing == {}


def test_a_seat_that_never_chose_has_the_default_in_its_own_view(tables):
    table = reach(tables, STRIKE, lambda s: s.phase == "draw" and s.window is None)
    player = _idle_seat(table.state())
    own = table.app.extensions["riskboard"].table.view(Viewer("player", player))
    assert own["passing_choice"] == {"choice": "result", "choices": ["result", "every"]}
