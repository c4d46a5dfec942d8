"""A phone acts only for its own seat, and only when that seat may act now (issue 12.1).

The real table (a `TableLoop` and the `LocalTableService` over it, a recording stand-in for
the emulated Pico) behind the real web app: at every kind of decision of every variant,
each seat that may not act now sends both a command and a virtual-board touch with its own
token; each is a 403 `not_your_turn` with a sentence naming whose move it is, and nothing
changes (no journal entry, no new revision, no sensor touched). The seat that may act is
then accepted.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from pi_app.computer.simple_bot import SimpleBot
from pi_app.computer.strike_bot import StrikeBot
from pi_app.rules import is_strike
from pi_app.table.loop import NewGameSpec, awaited
from pi_app.table.seat_rights import seat_refusal

from .real_table import Table, reach


def whose(colours: list[str]) -> str:
    names = [f"{c}'s" for c in colours]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def assert_only_the_awaited_seat_acts(table: Table, territory: str | None = None) -> None:
    """Every other seat's command and touch is a 403 that changes nothing; then the awaited
    seat's own move (the bot's) is accepted."""
    state = table.state()
    waiting = awaited(state)
    assert waiting, "the position must wait for someone"
    bot: Any = StrikeBot() if is_strike(state) else SimpleBot()
    move = bot.choose(state, waiting[0]).to_dict()
    where = territory or move.get("territory") or move.get("to") or move.get("from") \
        or state_territory(state, waiting[0])
    others = [p for p in state.players if p not in waiting and seat_refusal(state, p)]
    assert others, "some seat must be out of turn here"
    before, touched = table.mark(), list(table.emulator.touched)
    for player in others:
        sentence = f"It is {whose(waiting)} move; your phone can only act for {player}."
        for res in (table.command(player, {**move, "player": player}),
                    table.touch(player, where)):
            body = res.get_json()
            assert (res.status_code, body["error"]["code"]) == (403, "not_your_turn"), body
            assert body["error"]["message"] == sentence
        assert table.mark() == before and table.emulator.touched == touched
    res = table.command(waiting[0], move)
    assert res.status_code == 200, res.get_json()
    assert table.mark()[0] == before[0] + 1


def state_territory(state: Any, player: str) -> str:
    if is_strike(state):
        return "alaska"
    return state.territories_of(player)[0]


def pending(kind: str) -> Callable[[Any], bool]:
    return lambda s: s.pending is not None and s.pending["kind"] == kind


CLASSIC = NewGameSpec("classic", ("red", "blue", "green"), {"setup": "deal"})


def test_the_issue_case_red_cannot_place_during_blues_setup_turn(tables):
    table = reach(tables, CLASSIC,
                  lambda s: s.phase == "setup_place" and s.current_player == "blue")
    congo_owner = table.state().owner["congo"]
    blue_land = "congo" if congo_owner == "blue" else table.state().territories_of("blue")[0]
    before = table.state()
    res = table.touch("red", blue_land)
    assert res.status_code == 403
    assert res.get_json()["error"] == {
        "code": "not_your_turn",
        "message": "It is blue's move; your phone can only act for red."}
    after = table.state()
    assert after.armies == before.armies and after.reserves == before.reserves
    assert after.current_player == "blue" and table.emulator.touched == []
    # blue's own phone places there (the touch is blue's, straight on the table's thread)
    assert table.touch("blue", blue_land).status_code == 200
    assert table.state().armies[blue_land] == before.armies[blue_land] + 1


@pytest.mark.slow
@pytest.mark.parametrize("position", ["setup_place", "reinforce", "attack", "defend",
                                      "move_in", "fortify"])
def test_classic_every_decision_is_the_awaited_seats(tables, position):
    table = tables(CLASSIC)
    done = {"setup_place": lambda s: s.phase == "setup_place",
            "reinforce": lambda s: s.phase == "reinforce" and s.pending is None,
            "attack": lambda s: s.phase == "attack" and s.pending is None,
            "defend": pending("defend"),
            "move_in": pending("move_in"),
            "fortify": lambda s: s.phase == "fortify"}[position]
    if position in ("defend", "move_in"):
        table.bot_until(lambda s: s.phase == "attack" and s.pending is None)
        table.attack_until(position)
    elif position == "fortify":
        table.bot_until(lambda s: s.phase == "attack" and s.pending is None)
        table.play(table.state().current_player, {"type": "end_attack"})
    else:
        table.bot_until(done)
    assert done(table.state())
    assert_only_the_awaited_seat_acts(table)


def test_the_defender_alone_chooses_the_defence_dice_even_on_a_button_board(tables):
    table = reach(tables, CLASSIC,
                  lambda s: s.phase == "attack" and s.pending is None)
    table.attack_until("defend")
    state = table.state()
    attacker, defender = state.pending["attacker"], state.pending["player"]
    assert attacker == state.current_player != defender
    res = table.command(attacker, {"type": "choose_defence", "dice": 1})
    assert res.status_code == 403
    assert res.get_json()["error"]["message"] == (
        f"It is {defender}'s move; your phone can only act for {attacker}.")
    # the attacker touching the attacked territory on the virtual board cannot defend
    assert table.touch(attacker, state.pending["to"]).status_code == 403
    assert table.state().pending == state.pending


def test_trade_down_is_the_eliminating_players_alone(tables):
    table = reach(tables, CLASSIC,
                  lambda s: s.phase == "attack" and s.pending is None)
    state = table.state()
    player = state.current_player
    # the rules' own trade-down decision, as an elimination with 6+ cards leaves it
    table.loop.call(lambda core: core.session.state.__setattr__(
        "pending", {"kind": "trade_down", "player": player, "reserve": 0}))
    for other in (p for p in state.players if p != player):
        res = table.command(other, {"type": "trade_cards", "cards": ["a", "b", "c"]})
        assert (res.status_code, res.get_json()["error"]["code"]) == (403, "not_your_turn")
        assert table.touch(other, state.territories_of(player)[0]).status_code == 403


def test_capital_any_seat_picks_its_own_hq_and_a_touch_is_that_seats(tables):
    table = reach(tables, NewGameSpec("capital", ("red", "blue", "green"), {"setup": "deal"}),
                  lambda s: s.phase == "hq_pick")
    state = table.state()
    last = state.players[-1]
    assert state.current_player != last  # on a button board the touch was the first seat's
    theirs = state.territories_of(last)[1]
    assert table.touch(last, theirs).status_code == 200
    picked = table.loop.call(lambda core: dict(core.state.hq))
    assert picked == {last: theirs}
    # a pick by command for another seat is refused as before (not_your_seat)
    res = table.command(last, {"type": "pick_hq", "player": state.players[0],
                               "territory": state.territories_of(state.players[0])[0]})
    assert (res.status_code, res.get_json()["error"]["code"]) == (403, "not_your_seat")


@pytest.mark.slow
def test_capital_after_the_reveal_only_the_awaited_seat_acts(tables):
    table = reach(tables, NewGameSpec("capital", ("red", "blue", "green"), {"setup": "deal"}),
                  lambda s: s.hq_revealed and s.phase in ("setup_place", "reinforce"))
    assert_only_the_awaited_seat_acts(table)


@pytest.mark.parametrize("position", ["setup_place", "attack", "defend"])
def test_two_player_neutral_army_decisions(tables, position):
    table = tables(NewGameSpec("two-player", ("red", "blue"), {}))
    if position == "setup_place":
        table.bot_until(lambda s: s.phase == "setup_place")
    else:
        table.bot_until(lambda s: s.phase == "attack" and s.pending is None)
    if position == "defend":
        table.attack_until("defend")
    assert_only_the_awaited_seat_acts(table)


def test_allied_phase_only_the_commander_acts(tables):
    table = reach(tables, NewGameSpec("allied", ("red", "blue"), {}),
                  lambda s: s.phase == "allied" and s.pending is None)
    assert_only_the_awaited_seat_acts(table)


def test_secret_mission_decisions(tables):
    table = reach(tables, NewGameSpec("mission", ("red", "blue", "green"), {"setup": "deal"}),
                  lambda s: s.phase == "attack" and s.pending is None)
    assert_only_the_awaited_seat_acts(table)


STRIKE = NewGameSpec("strike", ("red", "blue", "green"), {"reaction_seconds": 0})


def test_strike_decider_decisions(tables):
    table = reach(tables, STRIKE,
                  lambda s: s.window is None and s.phase == "draw")
    assert_only_the_awaited_seat_acts(table)


def test_strike_reaction_window_only_its_eligible_players_who_have_not_passed(tables):
    table = reach(tables, STRIKE, lambda s: s.window is not None
                  and len(s.window["eligible"]) < len(s.players))
    state = table.state()
    window = state.window
    outsider = next(p for p in state.players if p not in window["eligible"])
    before = table.mark()
    res = table.command(outsider, {"type": "strike_pass"})
    assert (res.status_code, res.get_json()["error"]["code"]) == (403, "not_your_turn")
    assert table.touch(outsider, "alaska").status_code == 403
    assert table.mark() == before
    # an eligible player's touch is their own pass, and then they may do nothing more
    inside = next(p for p in window["eligible"] if p not in window["passed"])
    assert table.touch(inside, "alaska").status_code == 200
    after = table.state()
    if after.window is not None and after.window["id"] == window["id"]:
        assert inside in after.window["passed"]
        if seat_refusal(after, inside):
            assert table.touch(inside, "alaska").status_code == 403


def test_strike_a_player_with_a_tactic_to_play_acts_by_phone_not_by_touch(tables):
    """In a reaction window a player who has passed may still play a tactics card (by
    command), but a touch on the board answers only what the game waits for."""
    from pi_app.rules.strike import available_commands, waiting_for

    def extra(s):
        return [p for p in s.players if p not in waiting_for(s) and available_commands(s, p)]

    table = reach(tables, STRIKE, lambda s: bool(extra(s)))
    state = table.state()
    player = extra(state)[0]
    before = table.mark()
    res = table.touch(player, "alaska")
    assert (res.status_code, res.get_json()["error"]["code"]) == (403, "not_your_turn")
    assert table.mark() == before
    assert seat_refusal(state, player) is None  # its phone may still play the card
