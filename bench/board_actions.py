"""Benchmark (not a test): how many touches and presses the board asks for, before and after
issue 13. Scripted players follow README's gesture table through the board's gesture
language and the rules (`interpret`, then the command applied and the selection settled, as
the table loop does), counting every touch and press, refused ones included (a refused
touch is a touch the player made; they then do what the refusal says).

"before" runs the same scripts on the gesture module of main before issue 13 (commit
7098b5a, read with `git show`; skipped when git or the commit is not there), "after" on
today's. Lines: per claim, per setup army (and with the house rule of 5 armies per setup
turn), per first roll, per later roll (after a defended roll), per defence answer, per blitz,
per move-in, per fortify and per typical turn (reinforce on the border, one blitz that
conquers, the move-in, end the turn). Aims (issue 13): an attack in at most 3 actions, a
later roll in 1, a typical turn in at most 6; each line ends OK or MISS.

Run: `.venv/bin/python -m bench.board_actions`."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any

from pi_app.dice import SeededSource
from pi_app.rules import GameState, HouseRules, apply, load_map, new_game
from pi_app.table import gestures as today

BOARD = load_map()
BEFORE_COMMIT = "7098b5a"
ROOT = Path(__file__).resolve().parents[1]


def old_gestures() -> ModuleType | None:
    """The gesture module as it was before issue 13, or None without git or that commit."""
    try:
        source = subprocess.run(["git", "show", f"{BEFORE_COMMIT}:pi_app/table/gestures.py"],
                                cwd=ROOT, capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    path = Path(tempfile.mkdtemp()) / "gestures_before_13.py"
    path.write_text(source, "utf-8")
    spec = importlib.util.spec_from_file_location("gestures_before_13", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


class Table:
    """The board path without hardware: a gesture module, the rules, the kept selection."""

    def __init__(self, g: ModuleType, state: GameState, seed: int = 11) -> None:
        self.g = g
        self.state = state
        self.rng = SeededSource(seed)
        self.selection: Any = g.EMPTY
        self.actions = 0

    def act(self, event: Any) -> Any:
        """One touch or press: count it, interpret it, apply its command."""
        self.actions += 1
        decision = self.g.interpret(self.state, self.selection, event)
        if decision.refusal is not None:
            return decision
        if decision.command is not None:
            trial = self.state.copy()
            self.state = apply(trial, decision.command, self.rng).state
            self.selection = self.g.settle(self.state, decision.selection)
        else:
            self.selection = decision.selection
        return decision

    def touch(self, territory: str) -> Any:
        return self.act(self.g.Touch(territory))

    def press(self, button: str, long: bool = False) -> Any:
        return self.act(self.g.Press(button, long))

    # --- what a README reader does --------------------------------------------------------
    def aim(self, source: str, target: str) -> None:
        """"Touch your territory, then an enemy neighbour"; if the neighbour is refused
        (the selection was dropped), do both again."""
        self.touch(source)
        if self.touch(target).refusal is not None:
            self.touch(source)
            self.touch(target)

    def roll(self, source: str, target: str) -> None:
        """"Roll"; if Roll is refused (the aim was lost), aim again and Roll."""
        if self.press("roll").refusal is not None:
            self.aim(source, target)
            self.press("roll")


def position(players: tuple[str, ...] = ("red", "blue", "green"), seed: int = 3) -> GameState:
    """red's reinforce phase after a deal: red has 5 armies per territory, the others 2,
    and 3 armies to place."""
    state = new_game("classic", list(players), HouseRules(setup="deal"), SeededSource(seed)).state
    state.phase, state.turn, state.current_player, state.pending = "reinforce", 1, "red", None
    for t, owner in state.owner.items():
        state.armies[t] = 5 if owner == "red" else 2
    for p in state.reserves:
        state.reserves[p] = 0
    state.reserves["red"] = 3
    return state


def border(state: GameState) -> tuple[str, str]:
    """A red territory and an enemy neighbour of it."""
    for t in sorted(state.territories_of("red")):
        for n in sorted(BOARD.neighbours[t]):
            if state.owner[n] != "red":
                return t, n
    raise AssertionError("no border")


def per_claim(g: ModuleType) -> float:
    table = Table(g, new_game("classic", ["red", "blue", "green"], HouseRules(),
                              SeededSource(5)).state)
    claims = 0
    while table.state.phase == "claim":
        table.touch(next(t for t, o in sorted(table.state.owner.items()) if o is None))
        claims += 1
    return table.actions / claims


def per_setup_army(g: ModuleType, per_turn: int = 1) -> float:
    rules = HouseRules(setup="deal", setup_armies_per_turn=per_turn) if per_turn > 1 \
        else HouseRules(setup="deal")
    table = Table(g, new_game("classic", ["red", "blue", "green"], rules, SeededSource(5)).state)
    armies = sum(table.state.reserves.values())
    while table.state.phase == "setup_place":
        player = table.state.current_player
        table.touch(sorted(table.state.territories_of(player))[0])
        if per_turn > 1 and table.state.current_player == player:
            table.press("confirm")  # the rest of this setup turn there
    return table.actions / armies


def reinforced(g: ModuleType) -> tuple[Table, str, str]:
    """Reinforced by the README: touch the border territory, Confirm (the rest there)."""
    table = Table(g, position())
    source, target = border(table.state)
    table.touch(source)
    table.press("confirm")
    assert table.state.phase == "attack"
    table.actions = 0
    return table, source, target


def first_roll(g: ModuleType) -> int:
    table, source, target = reinforced(g)
    table.aim(source, target)
    table.roll(source, target)
    assert table.state.pending and table.state.pending["kind"] == "defend"
    return table.actions


def later_roll_and_defence(g: ModuleType) -> tuple[int, int]:
    table, source, target = reinforced(g)
    table.state.armies[target] = 8  # a roll does not take it
    table.aim(source, target)
    table.roll(source, target)
    table.actions = 0
    table.press("roll")  # the defender answers
    defence = table.actions
    assert table.state.pending is None and table.state.owner[target] != "red"
    table.actions = 0
    table.roll(source, target)
    return table.actions, defence


def blitz(g: ModuleType) -> int:
    table, source, target = reinforced(g)
    table.aim(source, target)
    table.press("roll", long=True)
    return table.actions


def conquest(g: ModuleType) -> tuple[Table, str, str]:
    table, source, target = reinforced(g)
    table.state.armies[source] = 30
    table.aim(source, target)
    table.press("roll", long=True)
    assert table.state.owner[target] == "red" and table.state.pending is not None
    table.actions = 0
    return table, source, target


def move_in(g: ModuleType) -> int:
    table, _source, _target = conquest(g)
    table.press("confirm")
    assert table.state.pending is None
    return table.actions


def fortify(g: ModuleType) -> int:
    table, _source, _target = reinforced(g)
    table.press("end_phase")
    table.actions = 0
    state = table.state
    source = next(t for t in sorted(state.territories_of("red"))
                  if any(state.owner[n] == "red" for n in BOARD.neighbours[t]))
    dest = next(n for n in sorted(BOARD.neighbours[source]) if state.owner[n] == "red")
    table.touch(source)
    table.touch(dest)
    table.press("confirm")
    assert table.state.current_player != "red"
    return table.actions


def typical_turn(g: ModuleType, source_first: bool = False) -> int:
    """Reinforce on the border (touch, Confirm), blitz a neighbour from there, the move-in,
    end the turn (hold End phase). The territory just reinforced is lit as the source, so
    the enemy neighbour is touched at once (README's lit-source row); `source_first`: the
    player touches the source anyway (README's attack row), and does what a refusal says."""
    table = Table(g, position())
    source, target = border(table.state)
    table.state.armies[source] = 30
    table.touch(source)
    table.press("confirm")
    if source_first or table.touch(target).refusal is not None:
        table.aim(source, target)
    table.press("roll", long=True)
    assert table.state.owner[target] == "red"
    table.press("confirm")
    table.press("end_phase", long=True)
    assert table.state.current_player != "red"
    return table.actions


def line(name: str, before: float | None, after: float, aim: float, note: str = "") -> str:
    """One report line: before, after, a note, the aim and OK/MISS."""
    was = "n/a" if before is None else f"{before:g}"
    verdict = "OK" if after <= aim else "MISS"
    note = f" ({note})" if note else ""
    return f"board actions {name}: before {was}, after {after:g}{note} (aim <= {aim:g}) {verdict}"


def main() -> None:
    """Play every script on the gestures before and after issue 13 and print the lines."""
    old = old_gestures()

    def both(fn: Any) -> tuple[Any, Any]:
        return (fn(old) if old is not None else None), fn(today)

    def fig(value: Any) -> Any:
        return None if value is None else round(value, 2)

    before, after = both(per_claim)
    print(line("per claim", fig(before), fig(after), 1))
    before, after = both(per_setup_army)
    quick = per_setup_army(today, 5)
    print(line("per setup army", fig(before), fig(after), 1,
               f"{quick:.2f} with the house rule of 5 per setup turn"))
    before, after = both(first_roll)
    print(line("first roll (aim, Roll)", before, after, 3))
    before, after = both(later_roll_and_defence)
    print(line("later roll (after a defended roll)", before and before[0], after[0], 1))
    print(line("defence answer", before and before[1], after[1], 1))
    before, after = both(blitz)
    print(line("blitz (aim, hold Roll)", before, after, 3))
    before, after = both(move_in)
    print(line("move-in", before, after, 1))
    before, after = both(fortify)
    print(line("fortify (from, to, Confirm)", before, after, 3))
    before, after = both(typical_turn)
    careful = both(lambda g: typical_turn(g, source_first=True))
    was = "n/a" if careful[0] is None else careful[0]
    print(line("typical turn", before, after, 6,
               f"touching the lit source first: before {was}, after {careful[1]}"))


if __name__ == "__main__":
    main()
