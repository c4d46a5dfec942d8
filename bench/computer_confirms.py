"""Confirms the table presses to copy the computer seats' moves (issue 32.2).

A four-player Classic game at a simulated table: the in-process `TableCore` on the
classic-42 button board with a hand clock; red and blue are humans deciding like
`SimpleBot` on their phones, green (hard) and yellow (normal) are computer seats. Whenever
the table holds a computer's step (Confirm would release it: `ComputerPlay.hold()`), the
humans copy it and press Confirm. Counted per game: every Confirm (those of the claims and
setup placements apart: the setup has no turns), the computer seats' turns, the Confirms
pressed while no page shows a held step (silent: the table waits, the pages say nothing),
and the steps whose pieces the table never asked for (a hold a human's move dropped before
any Confirm).

A page shows a hold when the table publishes `computers.holding` and its page logic says
it: a hold that lists its `moves` is rendered from the table's awaited object (issue 32);
one without (before issue 32.2) only while the game waits for that hold's own seat
(`variants.js` `computerHold`).

Aim: at most 2 Confirms per computer turn and no silent hold.
`--trust` also plays with the host's "trust the lights" (one Confirm per computer turn).

Run: ``.venv/bin/python -m bench.computer_confirms [--games 3] [--trust]``.
"""

from __future__ import annotations

import argparse
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hardware.profiles import load_profile
from pi_app.computer.simple_bot import SimpleBot
from pi_app.dice import FairDice
from pi_app.journal import Journal
from pi_app.table.loop import TableCore, Wiring, awaited
from pi_app.table_api import Viewer

PLAYERS = ("red", "blue", "green", "yellow")
COMPUTERS = {"green": "hard", "yellow": "normal"}
SETUP_PHASES = ("claim", "setup_place")
AIM_PER_TURN = 2.0
MAX_STEPS = 40000


class HandClock:
    """The table's clock, moved by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Tally:
    """What one game (or all of them) cost the table."""

    games: int = 0
    computer_turns: int = 0
    confirms: int = 0
    setup_confirms: int = 0
    silent: int = 0
    never_asked: int = 0

    def add(self, other: Tally) -> None:
        """Sum another tally into this one."""
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))

    @property
    def per_turn(self) -> float:
        """Confirms per computer turn (the setup's apart)."""
        return (self.confirms - self.setup_confirms) / max(1, self.computer_turns)


def page_shows_hold(snapshot: Any) -> bool:
    """Whether a page shows the computer's held step now (see the module docstring)."""
    computers = snapshot.computers or {}
    holding = computers.get("holding")
    state = snapshot.state
    if not holding or computers.get("paused") or snapshot.paused or state.winner:
        return False
    if "moves" in holding:
        return bool(holding["moves"])
    waits = [state.pending["player"]] if state.pending else [state.current_player]
    return holding["player"] in waits


def play_one(seed: int, setup: str, trust: bool, folder: Path) -> Tally:
    """One game to its end (or `MAX_STEPS`); the tally of its Confirms."""
    clock = HandClock()
    core = TableCore(Journal(folder / f"journal-{seed}-{setup}.sqlite"),
                     Wiring.from_profile(load_profile("classic-42")), clock=clock,
                     dice=lambda: FairDice(bytes([seed]) * 32))
    core.start(None)
    core.host_action("new_game", {"variant": "classic", "players": list(PLAYERS),
                                  "house_rules": {"setup": setup},
                                  "computers": dict(COMPUTERS)})
    if trust:
        core.host_action("computer", {"trust_lights": True})
    bot, tally = SimpleBot(), Tally(games=1)
    seen = core.publisher.snapshot.revision
    for _ in range(MAX_STEPS):
        state = core.state
        if state.winner is not None:
            break
        due = core.computer.deadline(clock.now)
        if due is not None and due <= clock.now:
            core.tick()
        elif core.computer.hold() is not None:  # the table waits for the humans' copy
            hold = core.computer.hold()
            tally.confirms += 1
            tally.setup_confirms += getattr(hold, "stage", state.phase) in SETUP_PHASES
            tally.silent += not page_shows_hold(core.publisher.snapshot)
            core.on_control("confirm", "press")
        else:
            player = awaited(state)[0]
            assert player not in COMPUTERS, "the game waits on a computer that does not act"
            tally.never_asked += core.computers.hold is not None
            core.submit(bot.choose(state, player).to_dict(), Viewer("player", player))
        clock.now += 0.01
        for _rev, events in core.publisher.updates_since(seen):
            tally.computer_turns += sum(1 for e in events if e["type"] == "turn_started"
                                        and e.get("player") in COMPUTERS)
        seen = core.publisher.snapshot.revision
    core.journal.close()
    return tally


def run(games: int, trust: bool) -> list[str]:
    """Play `games` games with each setup; the report lines."""
    lines = []
    with tempfile.TemporaryDirectory() as tmp:
        for setup in ("deal", "claim"):
            total = Tally()
            for seed in range(1, games + 1):
                total.add(play_one(seed, setup, trust, Path(tmp)))
            ok = total.per_turn <= AIM_PER_TURN and total.silent == 0
            lines.append(
                f"{setup:<5} setup{', trust the lights' if trust else ''}: "
                f"{total.per_turn:.2f} Confirms per computer turn "
                f"({total.confirms - total.setup_confirms} in {total.computer_turns} turns), "
                f"{total.setup_confirms / total.games:.1f} per game in the setup; "
                f"{total.silent} silent, {total.never_asked} steps never asked "
                f"({total.games} games; aim <= {AIM_PER_TURN:.0f} per turn, 0 silent)  "
                f"{'OK' if ok else 'MISS'}")
    return lines


def main(argv: list[str] | None = None) -> None:
    """Print the report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="games per setup (default 3)")
    parser.add_argument("--trust", action="store_true", help="also with trust the lights")
    args = parser.parse_args(argv)
    for line in run(args.games, False):
        print(line, flush=True)
    if args.trust:
        for line in run(args.games, True):
            print(line, flush=True)


if __name__ == "__main__":
    main()
