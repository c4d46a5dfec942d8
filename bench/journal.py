"""Benchmark: validated commands applied per second with the journal on (each one committed
and fsynced before it is acknowledged; aim >= 100/s, a table needs a few per second), the
rules alone with fair dice (aim >= 5,000/s), and the resume of a game of 500, 2,000 and
8,000 commands, timed from opening the journal file (as a service start does) to the game
in play: aim < 200 ms at 8,000, and linear (the cost per command at 8,000 at most 1.5x the
cost at 500). The session keeps a snapshot of the state every `SNAPSHOT_EVERY` commands, so
these sizes resume from a snapshot at their last command; the worst case, the latest
snapshot `SNAPSHOT_EVERY - 1` commands back, is measured too (8,000 + 499). An undo of the
last command of the 8,000-command game replays from the latest snapshot before it (499
commands back): aim < 200 ms CPU like a resume, with the full replay undo did before
snapshots printed beside it. The table does more than the session on both: at start it
publishes the game's recent log (the events of its last `RECENT_ENTRIES` journal entries,
what a phone's reset shows), and after an undo it publishes that log again without the
undone lines; both are timed at 8,000 commands through `TableCore` (aim < 200 ms CPU each),
and the start at its worst too: 8,000 + `RECENT_ENTRIES - 1` commands, whose log reaches
back past the latest snapshot (`SNAPSHOT_EVERY + RECENT_ENTRIES - 1` commands replayed).
Every line ends OK or MISS against its aim.

Resume times are judged as CPU time of this process (wall time is printed beside it): the
machine is shared, and wall time would measure the neighbours' load rather than the resume.

Commands come from a random-legal-move choice over a classic 4-player game with fair dice;
they are chosen first, so the timed loop is only validate + apply + journal. The journals
to resume are written with every command in one transaction (quick to build; the rows are
the same).
"""

from __future__ import annotations

import os
import random
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from pi_app.dice import FairDice
from pi_app.journal import Journal
from pi_app.rules import Command, HouseRules, apply, legal_commands, new_game
from pi_app.session import SNAPSHOT_EVERY, GameSession, replay_state
from pi_app.table.loop import RECENT_ENTRIES, TableCore, Wiring

PLAYERS = ["red", "blue", "green", "yellow"]
COMMANDS = 2000
RESUME_SIZES = (500, 2000, 8000)
RESUME_AIM_MS = 200.0  # at the largest size
LINEAR_AIM = 1.5  # per-command cost at the largest size / at the smallest
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


def write_game(folder: Path, commands: list[Command]) -> tuple[Path, GameSession]:
    """Journal one game of these commands (in one transaction) as resume-<count>.db."""
    path = folder / f"resume-{len(commands)}.db"
    with Journal(path) as journal:
        session = GameSession.new(journal, "classic", PLAYERS, None, FairDice(SEED))
        with journal.atomic():
            for command in commands:
                session.submit(command)
    return path, session


def resume_ms(folder: Path, commands: list[Command], runs: int = 5) -> tuple[float, float]:
    """Median (CPU ms, wall ms) from opening a journal holding one game of these commands
    to the game resumed."""
    path, session = write_game(folder, commands)
    game_id = session.game_id
    cpu, wall = [], []
    for _ in range(runs):
        started, started_cpu = time.perf_counter(), time.process_time()
        with Journal(path) as journal:
            resumed = GameSession.resume(journal, game_id)
            cpu.append(time.process_time() - started_cpu)
            wall.append(time.perf_counter() - started)
    assert resumed.state == session.state
    return statistics.median(cpu) * 1000, statistics.median(wall) * 1000


def undo_ms(folder: Path, size: int, runs: int = 5) -> tuple[float, float, float]:
    """Median (CPU ms, wall ms) of undoing the last command of the `size`-command game
    `resume_ms` journaled (each run on a fresh copy of its journal, resumed first), and the
    median CPU ms of replaying that game's kept rows from the start (the undo before
    snapshots)."""
    source = folder / f"resume-{size}.db"
    cpu, wall, full = [], [], []
    for run in range(runs):
        path = folder / f"undo-{size}-{run}.db"
        shutil.copyfile(source, path)
        with Journal(path) as journal:
            (game_id,) = journal.game_ids("running")
            session = GameSession.resume(journal, game_id)
            started, started_cpu = time.perf_counter(), time.process_time()
            session.undo(1, override=True)
            cpu.append(time.process_time() - started_cpu)
            wall.append(time.perf_counter() - started)
            record = journal.load(game_id)
            started_cpu = time.process_time()
            replayed = replay_state(record)
            full.append(time.process_time() - started_cpu)
        assert replayed == session.state
    return (statistics.median(cpu) * 1000, statistics.median(wall) * 1000,
            statistics.median(full) * 1000)


def table_ms(folder: Path, size: int, runs: int = 5) -> tuple[float, float]:
    """Median CPU ms of a table start over the `size`-command game `resume_ms` journaled
    (resume, lights and the first published update with its log), and of the table's undo
    of its last command (the session's undo, the log republished), each run on a fresh
    copy of the journal."""
    source = folder / f"resume-{size}.db"
    start_cpu, undo_cpu = [], []
    for run in range(runs):
        path = folder / f"table-{size}-{run}.db"
        shutil.copyfile(source, path)
        started = time.process_time()
        core = TableCore(Journal(path), Wiring({}))
        core.start()
        start_cpu.append(time.process_time() - started)
        started = time.process_time()
        core.host_action("undo", {"override": True})
        undo_cpu.append(time.process_time() - started)
        core.journal.close()
    return statistics.median(start_cpu) * 1000, statistics.median(undo_cpu) * 1000


def main() -> None:
    """Print commands/s with the journal on (and rules alone), and the resume times."""
    worst = max(RESUME_SIZES) + SNAPSHOT_EVERY - 1
    picked = pick_commands(worst, 3)
    commands = picked[:COMMANDS]
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
        probe = fsync_ms(folder)
        resumes = {size: resume_ms(folder, picked[:size]) for size in (*RESUME_SIZES, worst)}
        undo_cpu, undo_wall, full_replay = undo_ms(folder, max(RESUME_SIZES))
        table_start, table_undo = table_ms(folder, max(RESUME_SIZES))
        table_worst = max(RESUME_SIZES) + RECENT_ENTRIES - 1
        write_game(folder, picked[:table_worst])
        table_worst_start, _undo = table_ms(folder, table_worst)
    n = len(commands)
    journal_rate, rules_rate = n / journaled, n / rules_only
    print(f"journal on (journal_mode={settings['journal_mode']}, "
          f"synchronous={settings['synchronous']}, disk under {Path.home()}): "
          f"{journal_rate:.0f} commands/s ({journaled / n * 1000:.2f} ms per command; "
          f"one write+fsync on this disk: {probe:.2f} ms; aim >= 100/s) "
          f"{'OK' if journal_rate >= 100 else 'MISS'}")
    print(f"rules alone (no journal, fair dice): {rules_rate:.0f} commands/s (aim >= 5,000) "
          f"{'OK' if rules_rate >= 5000 else 'MISS'}")
    small, large = min(RESUME_SIZES), max(RESUME_SIZES)
    for size, (ms, wall) in resumes.items():
        what = (f" (worst case: latest snapshot {SNAPSHOT_EVERY - 1} commands back)"
                if size == worst else "")
        print(f"resume of a {size}-command game{what}, opening the journal included: median "
              f"{ms:.0f} ms CPU ({ms / size * 1000:.1f} us per command; wall {wall:.0f} ms; "
              f"aim < {RESUME_AIM_MS:.0f} ms) {'OK' if ms < RESUME_AIM_MS else 'MISS'}")
    growth = (resumes[large][0] / large) / (resumes[small][0] / small)
    print(f"resume cost per command, {large} vs {small} commands: {growth:.2f}x "
          f"(aim <= {LINEAR_AIM}x, linear) {'OK' if growth <= LINEAR_AIM else 'MISS'}")
    print(f"undo of the last command of a {large}-command game (latest snapshot "
          f"{SNAPSHOT_EVERY - 1} commands back): median {undo_cpu:.0f} ms CPU (wall "
          f"{undo_wall:.0f} ms; a full replay, as undo did before: {full_replay:.0f} ms CPU; "
          f"aim < {RESUME_AIM_MS:.0f} ms) {'OK' if undo_cpu < RESUME_AIM_MS else 'MISS'}")
    print(f"table start over a {large}-command game (resume and its recent log published): "
          f"median {table_start:.0f} ms CPU (aim < {RESUME_AIM_MS:.0f} ms) "
          f"{'OK' if table_start < RESUME_AIM_MS else 'MISS'}")
    print(f"table start over a {table_worst}-command game (worst case: its log reaches back "
          f"past the latest snapshot, {SNAPSHOT_EVERY + RECENT_ENTRIES - 1} commands "
          f"replayed): median {table_worst_start:.0f} ms CPU (aim < {RESUME_AIM_MS:.0f} ms) "
          f"{'OK' if table_worst_start < RESUME_AIM_MS else 'MISS'}")
    print(f"table undo of the last command of a {large}-command game (the session's undo and "
          f"the log republished without it): median {table_undo:.0f} ms CPU "
          f"(aim < {RESUME_AIM_MS:.0f} ms) {'OK' if table_undo < RESUME_AIM_MS else 'MISS'}")


if __name__ == "__main__":
    main()
