"""Who may take back what (docs/RULES.md §8.1, issue 21.1 and 21.2), in every variant.

Every Undo that is not the host's passes `pi_app.table.undo_rights`: a seat's phone
(`seat_input`, the virtual board with a seat token) or a board button that cannot tell
who pressed it. A seat takes back only its own last command while it is still its move;
the board's Undo acts for the one seat awaited by the same rule; the host takes back
anything. A computer seat's board input is refused like its commands (21.2).

The positions come from playing the variants' own bots through the phones' door until
the game stands where the case needs it; each refusal case reverts another seat's
command on the code before this check.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from web.conftest import attack_needing_defence

from pi_app.computer.simple_bot import SimpleBot
from pi_app.computer.strike_bot import StrikeBot
from pi_app.table.gestures import Press, Touch
from pi_app.table.kinds import awaited, kind_of
from pi_app.table.loop import NewGameSpec, TableCore
from pi_app.table_api import CommandRejected, Viewer

from .test_variants import make_core

UNDO = Press("undo")
BOARD_VARIANTS = {
    "classic": NewGameSpec("classic", ("red", "blue", "green"), {"setup": "deal"}),
    "mission": NewGameSpec("mission", ("red", "blue", "green"), {"setup": "deal"}),
    "capital": NewGameSpec("capital", ("red", "blue", "green"), {"setup": "deal"}),
    "two-player": NewGameSpec("two-player", ("red", "blue")),
    "allied": NewGameSpec("allied", ("red", "blue")),
}
STRIKE = NewGameSpec("strike", ("red", "blue", "green"), {"reaction_seconds": 0})
EVERY_VARIANT = {**BOARD_VARIANTS, "strike": STRIKE}


def last_entry(core: TableCore) -> Any:
    return [e for e in core.journal.load(core.session.game_id).entries if not e.undone][-1]


def step(core: TableCore) -> None:
    """One command of the variant's bot for the first seat the game awaits."""
    # a Strike bot passing one window at a time: its windows keep asking several seats
    bot: Any = (StrikeBot(waivers=False) if kind_of(core.state).name == "strike"
                else SimpleBot())
    player = awaited(core.state)[0]
    core.submit(bot.choose(core.state, player).to_dict(), Viewer("player", player))


def play_until(core: TableCore, done: Callable[[TableCore], bool], limit: int = 3000) -> None:
    for _ in range(limit):
        if done(core):
            return
        step(core)
    raise AssertionError(f"never reached the position (phase {core.state.phase})")


def undoable(core: TableCore) -> bool:
    """The last command drew nothing (the session would take it back for anyone)."""
    entry = last_entry(core)
    return entry.seq > 0 and not entry.draws


def another_seat_on_the_move(core: TableCore) -> bool:
    """One seat is awaited, and the last command (no dice) was another seat's."""
    waiting = awaited(core.state)
    last = last_entry(core).command.get("player")
    return (undoable(core) and len(waiting) == 1 and last in core.state.players
            and last != waiting[0] and core.session.status == "running")


def own_move_still(core: TableCore) -> bool:
    """The seat awaited alone made the last command (no dice, no card drawn: a Strike draw
    is the host's to take back, `undo_across_draw`) and may go on."""
    waiting = awaited(core.state)
    last = last_entry(core).command
    return (undoable(core) and len(waiting) == 1 and last.get("player") == waiting[0]
            and last["type"] != "strike_draw")


def last_seq(core: TableCore) -> int:
    """The seq of the game's last command still in force."""
    return last_entry(core).seq


def assert_nothing_taken_back(core: TableCore, seq: int) -> None:
    assert last_seq(core) == seq, "another seat's command was taken back"
    assert core.publisher.snapshot.refusal["code"] == "undo_not_yours"


# --- a seat never takes back another seat's command --------------------------------------

@pytest.mark.parametrize("variant", EVERY_VARIANT)
def test_a_seat_cannot_take_back_another_seats_command(tmp_path, variant):
    core = make_core(tmp_path, EVERY_VARIANT[variant])
    play_until(core, another_seat_on_the_move)
    seq, mover = last_seq(core), awaited(core.state)[0]
    core.seat_input(UNDO, mover)
    assert_nothing_taken_back(core, seq)


@pytest.mark.parametrize("variant", EVERY_VARIANT)
def test_the_boards_undo_cannot_take_back_another_seats_command(tmp_path, variant):
    core = make_core(tmp_path, EVERY_VARIANT[variant])
    play_until(core, another_seat_on_the_move)
    seq = last_seq(core)
    core.on_control("undo", "press")
    assert_nothing_taken_back(core, seq)


@pytest.mark.parametrize("variant", BOARD_VARIANTS)
def test_a_defender_asked_for_dice_cannot_take_back_the_attack(tmp_path, variant):
    core = make_core(tmp_path, BOARD_VARIANTS[variant])
    play_until(core, lambda c: attack_needing_defence(c.state) is not None)
    source, target = attack_needing_defence(core.state)
    attacker = core.state.current_player
    core.submit({"type": "attack", "player": attacker, "source": source, "target": target,
                 "dice": 1}, Viewer("player", attacker))
    defender = core.state.pending["player"]
    assert core.state.pending["kind"] == "defend" and defender != attacker
    seq = last_seq(core)
    core.seat_input(UNDO, defender)
    assert_nothing_taken_back(core, seq)
    core.on_control("undo", "press")
    assert_nothing_taken_back(core, seq)
    assert core.state.pending is not None and core.state.pending["kind"] == "defend"


def test_no_seat_takes_back_another_seats_secret_hq_pick(tmp_path):
    core = make_core(tmp_path, BOARD_VARIANTS["capital"])
    play_until(core, lambda c: c.state.phase == "hq_pick")
    picker = awaited(core.state)[0]
    step(core)  # the first seat picks its HQ
    assert last_entry(core).command["player"] == picker and core.state.phase == "hq_pick"
    seq = last_seq(core)
    for other in awaited(core.state):
        core.seat_input(UNDO, other)
        assert_nothing_taken_back(core, seq)
    core.on_control("undo", "press")  # the board cannot tell whose finger it is
    assert_nothing_taken_back(core, seq)
    assert picker in core.state.hq


def test_in_a_strike_reaction_window_no_seat_takes_back_anothers_pass(tmp_path):
    core = make_core(tmp_path, STRIKE)
    play_until(core, lambda c: c.state.window is not None
               and len(awaited(c.state)) > 1
               and last_entry(c).command["type"] == "strike_pass")
    passer = last_entry(core).command["player"]
    seq = last_seq(core)
    others = [p for p in awaited(core.state) if p != passer]
    assert others
    for other in others:
        core.seat_input(UNDO, other)
        assert_nothing_taken_back(core, seq)
    core.on_control("undo", "press")
    assert_nothing_taken_back(core, seq)


# --- what may be taken back ----------------------------------------------------------------

@pytest.mark.parametrize("variant", EVERY_VARIANT)
def test_a_seat_takes_back_its_own_command_while_it_is_still_its_move(tmp_path, variant):
    core = make_core(tmp_path, EVERY_VARIANT[variant])
    play_until(core, own_move_still)
    mover, seq = awaited(core.state)[0], last_seq(core)
    core.seat_input(UNDO, mover)
    assert last_seq(core) < seq
    assert core.publisher.snapshot.refusal is None


@pytest.mark.parametrize("variant", EVERY_VARIANT)
def test_the_boards_undo_takes_back_the_movers_own_command(tmp_path, variant):
    core = make_core(tmp_path, EVERY_VARIANT[variant])
    play_until(core, own_move_still)
    seq = last_seq(core)
    core.on_control("undo", "press")
    assert last_seq(core) < seq
    assert core.publisher.snapshot.refusal is None


@pytest.mark.parametrize("variant", EVERY_VARIANT)
def test_the_host_takes_back_any_seats_command(tmp_path, variant):
    core = make_core(tmp_path, EVERY_VARIANT[variant])
    play_until(core, another_seat_on_the_move)
    seq = last_seq(core)
    assert core.host_action("undo", {})["undone"] == [seq]


# --- 21.2: a computer seat's old token drives nothing ---------------------------------------

@pytest.mark.parametrize("variant", EVERY_VARIANT)
def test_a_computer_seats_board_input_is_refused_like_its_commands(tmp_path, variant):
    spec = EVERY_VARIANT[variant]
    core = make_core(tmp_path, spec)
    seat = spec.players[1]
    core.host_action("computer", {"seats": {seat: "easy"}, "paused": True})
    seq = last_seq(core)
    territory = next(iter(core.state.players and sorted(core.wiring.channel_territory.values())))
    for event in (Touch(territory), Press("confirm"), UNDO):
        with pytest.raises(CommandRejected) as refused:
            core.seat_input(event, seat)
        assert refused.value.code == "computer_seat" and refused.value.status == 403
    assert last_seq(core) == seq


def test_a_computer_seats_hq_pick_cannot_be_made_with_its_old_token(tmp_path):
    core = make_core(tmp_path, BOARD_VARIANTS["capital"])
    play_until(core, lambda c: c.state.phase == "hq_pick")
    core.host_action("computer", {"seats": {"blue": "easy"}, "paused": True})
    land = core.state.territories_of("blue")[0]
    with pytest.raises(CommandRejected) as refused:
        core.seat_input(Touch(land), "blue")
    assert refused.value.code == "computer_seat"
    with pytest.raises(CommandRejected):
        core.seat_input(Press("confirm", long=True), "blue")
    assert "blue" not in core.state.hq
