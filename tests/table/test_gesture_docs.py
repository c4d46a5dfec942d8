"""One truth in the documents: README's gesture table and pi_app/table/GESTURES.md's are the
same rows, and every row does on the board what it says (each row has a check below; a row
added to the documents without one fails)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pi_app.rules import (
    Attack,
    Blitz,
    ChooseDefence,
    Claim,
    EndAttack,
    EndTurn,
    Fortify,
    MoveIn,
    Place,
    TradeCards,
    load_map,
)
from pi_app.table.autoplay import next_gestures
from pi_app.table.gestures import Press, Selection, Touch
from pi_app.table.kinds import awaited

from .boardplay import BoardPlay
from .positions import attack_position, border_pair, dealt_game
from .test_loop import channel, make_core

ROOT = Path(__file__).resolve().parents[2]
BOARD = load_map()
CONFIRM, HOLD_CONFIRM = Press("confirm"), Press("confirm", long=True)
ROLL, HOLD_ROLL = Press("roll"), Press("roll", long=True)
END, HOLD_END = Press("end_phase"), Press("end_phase", long=True)


def gesture_rows(text: str, heading: str) -> list[tuple[str, str, str]]:
    """The (when, do this, it does) rows of the first table after `heading`, with a blank
    "When" carried down from the row above."""
    part = text[text.index(heading):]
    rows, when, started = [], "", False
    for line in part.splitlines():
        if not line.startswith("|"):
            if started:
                break
            continue
        started = True
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells[0] == "When" or (set(cells[0]) <= {"-"} and cells[0]):
            continue
        when = cells[0] or when
        rows.append((when, cells[1], cells[2]))
    return rows


README_ROWS = gesture_rows((ROOT / "README.md").read_text("utf-8"), "## Playing on the board")
GESTURES_ROWS = gesture_rows((ROOT / "pi_app/table/GESTURES.md").read_text("utf-8"),
                             "## The two-minute table")


def test_readme_and_gestures_md_teach_the_same_table():
    assert len(README_ROWS) > 15
    assert README_ROWS == GESTURES_ROWS


def test_both_say_undo_never_crosses_a_roll_or_a_card_draw():
    undo = [r for r in README_ROWS if r[1] == "**Undo**"]
    assert undo and "dice roll or a card draw" in undo[0][2]


# --- the checks, one per row --------------------------------------------------------------


def claiming_touch(claim_state):
    play = BoardPlay(claim_state)
    player = play.state.current_player
    assert play.do(Touch("alaska")).command == Claim(player, "alaska")
    assert play.state.armies["alaska"] == 1


def setup_touch():
    play = BoardPlay(dealt_game())
    player = play.state.current_player
    mine = play.state.territories_of(player)[0]
    assert play.do(Touch(mine)).command == Place(player, mine, 1)
    assert play.state.current_player == play.state.players[
        (play.state.players.index(player) + 1) % len(play.state.players)], "to the left"


def setup_confirm():
    assert BoardPlay(dealt_game()).do(CONFIRM).refusal is not None, "off by default"
    play = BoardPlay(dealt_game(setup_armies_per_turn=4))
    player = play.state.current_player
    mine = play.state.territories_of(player)[0]
    play.do(Touch(mine))
    assert play.do(CONFIRM).command == Place(player, mine, 3)


def reinforcing(reserve: int = 6) -> BoardPlay:
    state = attack_position(dealt_game())
    state.phase = "reinforce"
    state.reserves["red"] = reserve
    return BoardPlay(state)


def reinforce_touch():
    play = reinforcing()
    mine = play.state.territories_of("red")[0]
    assert play.do(Touch(mine)).command == Place("red", mine, 1)


def reinforce_confirm():
    play = reinforcing()
    mine = play.state.territories_of("red")[0]
    play.do(Touch(mine))
    assert play.do(CONFIRM).command == Place("red", mine, 5)


def cards_hold_confirm():
    play = reinforcing()
    owned = play.state.territories_of("red")[0]
    play.state.hands["red"] = ["wild-1", "wild-2", owned]
    command = play.do(HOLD_CONFIRM).command
    assert isinstance(command, TradeCards) and owned in command.cards


def aimed() -> tuple[BoardPlay, str, str]:
    play = BoardPlay(attack_position(dealt_game()))
    source, target = border_pair(play.state)
    play.do(Touch(source))
    play.do(Touch(target))
    return play, source, target


def attack_aim():
    play, source, target = aimed()
    assert play.selection == Selection(source=source, target=target)


def attack_lit_source():
    play = reinforcing(reserve=2)
    source, target = border_pair(play.state)
    play.do(Touch(source))
    play.do(CONFIRM)  # the last territory reinforced stays lit as the source
    assert play.state.phase == "attack" and play.selection.source == source
    play.do(Touch(source))
    assert play.selection.source == source
    play.do(Touch(target))
    assert play.selection == Selection(source=source, target=target)


def attack_roll():
    play, source, target = aimed()
    assert play.do(ROLL).command == Attack("red", source, target, 3)
    play.do(ROLL)  # the defender's answer
    if play.state.owner[target] != "red" and play.state.armies[source] > 1:
        assert isinstance(play.do(Touch(target)).command, Attack), "the aim stayed"
    play2, source2, target2 = aimed()
    assert play2.do(Touch(target2)).command == Attack("red", source2, target2, 3)


def attack_fewer_dice():
    play, source, _target = aimed()
    for dice in (2, 1, 3):
        play.do(Touch(source))
        assert play.selection.dice == dice


def attack_blitz():
    play, source, target = aimed()
    assert play.do(HOLD_ROLL).command == Blitz("red", source, target, 1)


def defending() -> BoardPlay:
    play, _source, _target = aimed()
    play.do(ROLL)
    assert play.state.pending["kind"] == "defend"
    return play


def defender_roll():
    play = defending()
    defender = play.state.pending["player"]
    assert play.do(ROLL).command == ChooseDefence(defender, 2)


def defender_fewer():
    play = defending()
    defender, attacked = play.state.pending["player"], play.state.pending["to"]
    play.do(Touch(attacked))
    assert play.do(ROLL).command == ChooseDefence(defender, 1)


def conquered() -> tuple[BoardPlay, str, str]:
    play, source, target = aimed()
    play.state.armies[source], play.state.armies[target] = 20, 1
    while play.state.owner[target] != "red":
        play.do(ROLL)
    assert play.state.pending["kind"] == "move_in"
    return play, source, target


def conquest_confirm():
    play, _s, _t = conquered()
    most = play.state.pending["max"]
    assert play.do(CONFIRM).command == MoveIn("red", most)


def conquest_touches():
    play, source, target = conquered()
    high = play.state.pending["max"]
    play.do(Touch(source))
    play.do(Touch(source))
    play.do(Touch(target))
    assert play.do(CONFIRM).command == MoveIn("red", high - 1)


def conquest_hold_confirm():
    play, _s, _t = conquered()
    least = play.state.pending["min"]
    assert play.do(HOLD_CONFIRM).command == MoveIn("red", least)


def end_phase():
    play, _s, _t = aimed()
    assert play.do(END).command == EndAttack("red")
    assert play.state.phase == "fortify"


def hold_end_phase():
    play, _s, _t = aimed()
    assert play.do(HOLD_END).command == EndTurn("red")


def fortifying() -> tuple[BoardPlay, str, str]:
    state = attack_position(dealt_game())
    state.phase = "fortify"
    source = next(t for t in state.territories_of("red")
                  if any(state.owner[n] == "red" for n in BOARD.neighbours[t]))
    dest = next(n for n in BOARD.neighbours[source] if state.owner[n] == "red")
    play = BoardPlay(state)
    play.do(Touch(source))
    play.do(Touch(dest))
    return play, source, dest


def fortify_pick():
    play, source, dest = fortifying()
    assert play.selection == Selection(source=source, target=dest, count=1)


def fortify_more_fewer():
    play, source, dest = fortifying()
    play.do(Touch(dest))
    play.do(Touch(dest))
    play.do(Touch(source))
    assert play.selection.count == 2


def fortify_confirm():
    play, source, dest = fortifying()
    play.do(Touch(dest))
    assert play.do(CONFIRM).command == Fortify("red", source, dest, 2)
    play, source, dest = fortifying()
    assert play.do(HOLD_CONFIRM).command == Fortify("red", source, dest, 4)


def fortify_end_phase():
    play, _s, _d = fortifying()
    assert play.do(END).command == EndTurn("red")


def undo(tmp_path):
    core = make_core(tmp_path)
    player = core.state.current_player
    mine = core.state.territories_of(player)[0]
    armies = core.state.armies[mine]
    core.on_sensor(channel(mine), "press", None)
    core.on_control("undo", "press")  # the turn passed: the next player's Undo, not theirs
    assert core.state.armies[mine] == armies + 1
    assert core.publisher.snapshot.refusal["code"] == "undo_not_yours"
    # play (with the bot's gestures); the player on the move takes back a move of their own
    # that rolled nothing, and nothing that rolled dice
    took_back = rolled = False
    for _ in range(3000):
        for gesture in next_gestures(core.state, core.selection):
            core.on_input(gesture)
            entries = [e for e in core.journal.load(core.session.game_id).entries
                       if not e.undone]
            last = entries[-1]
            mover = awaited(core.state)
            if not core.selection.empty or mover != [last.command.get("player")]:
                continue
            if not last.draws and not took_back:
                core.on_control("undo", "press")
                after = [e for e in core.journal.load(core.session.game_id).entries
                         if not e.undone]
                assert after[-1].seq < last.seq, "the mover's own move was not taken back"
                took_back = True
                break
            if last.draws and took_back:
                core.on_control("undo", "press")
                assert core.publisher.snapshot.refusal["code"] == "undo_across_roll"
                rolled = True
                break
        if rolled:
            break
    else:
        pytest.fail("no own move was taken back, or nothing was rolled by the mover")


CHECKS = {
    ("Claiming", "touch an empty territory"): claiming_touch,
    ("Setup placing", "touch your territory"): setup_touch,
    ("Setup placing", "**Confirm**"): setup_confirm,
    ("Reinforcing", "touch your territory"): reinforce_touch,
    ("Reinforcing", "then **Confirm**"): reinforce_confirm,
    ("Cards", "hold **Confirm**"): cards_hold_confirm,
    ("Attack", "touch your territory, then an enemy neighbour"): attack_aim,
    ("Attack", "touch the lit source again"): attack_lit_source,
    ("Attack", "**Roll** (or touch the target again)"): attack_roll,
    ("Attack", "touch your source again, once aimed"): attack_fewer_dice,
    ("Attack", "hold **Roll**"): attack_blitz,
    ("Defender (when asked)", "**Roll**"): defender_roll,
    ("Defender (when asked)", "touch the attacked territory first"): defender_fewer,
    ("After a conquest", "**Confirm**"): conquest_confirm,
    ("After a conquest", "touch the conquered territory / your old one"): conquest_touches,
    ("After a conquest", "hold **Confirm**"): conquest_hold_confirm,
    ("Ending the attack", "**End phase**"): end_phase,
    ("Ending the attack", "hold **End phase**"): hold_end_phase,
    ("Fortify", "touch from, then to"): fortify_pick,
    ("Fortify", "touch *to* again / *from* again"): fortify_more_fewer,
    ("Fortify", "**Confirm** / hold **Confirm**"): fortify_confirm,
    ("Fortify", "**End phase**"): fortify_end_phase,
    ("Any time", "**Undo**"): undo,
}


def test_every_row_has_a_check_and_every_check_a_row():
    assert {(when, do) for when, do, _does in README_ROWS} == set(CHECKS)


@pytest.mark.slow
@pytest.mark.parametrize("row", README_ROWS, ids=lambda r: re.sub(r"\W+", "-", f"{r[0]} {r[1]}"))
def test_each_gesture_row_does_what_it_says(row, request):
    check = CHECKS[(row[0], row[1])]
    names = check.__code__.co_varnames[:check.__code__.co_argcount]
    check(*(request.getfixturevalue(n) for n in names))


def _said_after_a_computer_moves(text: str) -> str:
    """The paragraph of a document that says what the table does after a computer moves."""
    start = text.index("After a computer moves")
    return " ".join(text[start:text.index("\n\n", start)].split())


@pytest.mark.parametrize("doc", ["README.md", "pi_app/table/GESTURES.md"])
def test_what_the_table_does_after_a_computer_moves_is_said_with_the_pages_words(doc):
    """Issue 23.1: the documents tell a table what to do after a computer moves, and their
    example is the sentence the pages say over en.json: since issue 32.2 one step for all
    the computer's placements, added up per territory (`holding.placed`)."""
    import json

    words = json.loads((ROOT / "pi_app/web/i18n/en.json").read_text("utf-8"))
    said = _said_after_a_computer_moves((ROOT / doc).read_text("utf-8"))
    blue = words["log.computer.who"].format(player=words["colour.blue"])
    join = words["list.separator"].join
    parts = join(words["computer.placed_part"].format(territory=words[f"territory.{t}"], n=n)
                 for t, n in (("yakutsk", 3), ("irkutsk", 2)))
    did = words["computer.placed"].format(player=blue, n=5, parts=parts)
    board = join(words["computer.board_part"].format(n=n, owner=words["colour.blue"],
                                                     territory=words[f"territory.{t}"])
                 for t, n in (("yakutsk", 6), ("irkutsk", 4)))
    assert f'("{words["computer.hold"].format(did=did, board=board)}")' in said
    # what to do, and what a touch meanwhile gets
    assert "press **Confirm**" in said and "refused with that same sentence" in said
