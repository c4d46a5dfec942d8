"""Benchmark: validated commands applied per second with the journal on (each one committed
and fsynced before it is acknowledged; aim >= 100/s, a table needs a few per second), the
rules alone with fair dice (aim >= 5,000/s), and resume time of a 2,000-command journal
(aim < 300 ms). Every line ends OK or MISS against its aim.

Commands come from a random-legal-move choice over a classic 4-player game with fair dice;
they are chosen first, so the timed loop is only validate + apply + journal.
"""

from __future__ import annotations

import os
import random
import statistics
import tempfile
import time
from pathlib import Path

from pi_app.dice import FairDice
from pi_app.journal import Journal
from pi_app.rules import Command, HouseRules, apply, legal_commands, new_game
from pi_app.session import GameSession

PLAYERS = ["red", "blue", "green", "yellow"]
COMMANDS = 2000
SEED = bytes(32)


def pick_commands(count: int, chooser_seed: int) -> list[Command]:
    """Play `count` random legal commands without a journal and return them."""
    chooser = random.Random(chooser_seed)
    dice = FairDice(SEED)
    state = new_game("classic", PLAYERS, HouseRules(), dice).state
    commands: list[Command] = []
    while len(commands) < count:
        pending = state.pending
        options = legal_commands(state, pending["player"] if pending else state.current_player)
        if not options:
            break
        commands.append(options[chooser.randrange(len(options))])
        state = apply(state, commands[-1], dice).state
    return commands


def fsync_ms(folder: Path, rounds: int = 200) -> float:
    """Median time of one small write + fsync in `folder` (what the disk charges per commit)."""
    times = []
    with open(folder / "fsync.probe", "wb") as f:
        for _ in range(rounds):
            start = time.perf_counter()
            f.write(b"x" * 128)
            f.flush()
            os.fsync(f.fileno())
            times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    """Print commands/s with the journal on (and rules alone), and the resume time."""
    commands = pick_commands(COMMANDS, 3)
    dice = FairDice(SEED)
    state = new_game("classic", PLAYERS, HouseRules(), dice).state
    start = time.perf_counter()
    for command in commands:
        state = apply(state, command, dice).state
    rules_only = time.perf_counter() - start
    with tempfile.TemporaryDirectory(dir=Path.home()) as name:
        folder = Path(name)
        with Journal(folder / "bench.db") as journal:
            session = GameSession.new(journal, "classic", PLAYERS, None, FairDice(SEED))
            start = time.perf_counter()
            for command in commands:
                session.submit(command)
            journaled = time.perf_counter() - start
            settings = journal.settings()
            game_id = session.game_id
        resumes = []
        for _ in range(7):
            with Journal(folder / "bench.db") as journal:
                start = time.perf_counter()
                resumed = GameSession.resume(journal, game_id)
                resumes.append(time.perf_counter() - start)
        assert resumed.state == session.state
        probe = fsync_ms(folder)
    n = len(commands)
    journal_rate, rules_rate = n / journaled, n / rules_only
    resume_ms = statistics.median(resumes) * 1000
    print(f"journal on (journal_mode={settings['journal_mode']}, "
          f"synchronous={settings['synchronous']}, disk under {Path.home()}): "
          f"{journal_rate:.0f} commands/s ({journaled / n * 1000:.2f} ms per command; "
          f"one write+fsync on this disk: {probe:.2f} ms; aim >= 100/s) "
          f"{'OK' if journal_rate >= 100 else 'MISS'}")
    print(f"rules alone (no journal, fair dice): {rules_rate:.0f} commands/s (aim >= 5,000) "
          f"{'OK' if rules_rate >= 5000 else 'MISS'}")
    print(f"resume of a {n}-command journal: median {resume_ms:.0f} ms, "
          f"best {min(resumes) * 1000:.0f} ms (aim < 300 ms) "
          f"{'OK' if resume_ms < 300 else 'MISS'}")


if __name__ == "__main__":
    main()
