"""Benchmark (issue 21.5): what a spectator resuming the public stream from event 0 costs
the table's thread in a game of 8,000 commands.

A stream that resumes from an old seq asks the service for the updates it missed
(`LocalTableService.updates_since`); those the publisher no longer holds in memory are
asked of the table core on the loop thread (`TableCore.journal_events`), which is what is
timed here, as CPU time of this process (the machine is shared: wall time, printed
beside it, measures the neighbours too). Before issue 21.5 the core rebuilt the events of
every missed journal entry by replaying the game from its start (no snapshot lies before
entry 1); now it serves only what the session keeps in memory (its last `LOG_KEPT`
entries, no replay) and the rest reaches the reader as the view's state, the snapshot.
Aim: < 20 ms CPU at 8,000 commands (a table touch is answered in well under 100 ms).

The game is played at the table from its start in this process (a new game, then every
command submitted and published like a phone's, in one journal transaction to be quick),
so the publisher's log starts at the game's first entry, as it does for a table that
started the game itself and ran through a long evening.

    .venv/bin/python bench/stream_resume.py [commands]
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from journal import PLAYERS, SEED, pick_commands

from pi_app.dice import FairDice
from pi_app.journal import Journal
from pi_app.table.loop import NewGameSpec, TableCore, Wiring

AIM_MS = 20.0


def played_table(folder: Path, commands: int) -> TableCore:
    """A table core that started a classic game and played `commands` commands."""
    core = TableCore(Journal(folder / "stream.sqlite"), Wiring({}), dice=lambda: FairDice(SEED))
    core.start(NewGameSpec("classic", tuple(PLAYERS), {}))
    picked = pick_commands(commands, chooser_seed=11)
    assert core.session is not None
    with core.journal.atomic():
        for command in picked:
            _seq, events = core.session.submit(command)
            core.publish([e.to_dict() for e in events], state_changed=True)
    return core


def resume_cost(core: TableCore, runs: int = 5) -> tuple[float, float, int]:
    """Median (CPU ms, wall ms) the core spends on a reader that saw seq 0, and how many
    events it serves."""
    span = core.publisher.journal_span(0)
    assert span is not None, "the publisher still holds every update: nothing to rebuild"
    _revision, first, last = span
    cpu, wall = [], []
    served = 0
    for _ in range(runs):
        started, started_cpu = time.perf_counter(), time.process_time()
        served = len(core.journal_events(first, last))
        cpu.append(time.process_time() - started_cpu)
        wall.append(time.perf_counter() - started)
    return statistics.median(cpu) * 1000, statistics.median(wall) * 1000, served


def main() -> None:
    """Print the cost at the given size (default 8,000 commands) and OK or MISS."""
    size = int(sys.argv[1]) if len(sys.argv) > 1 else 8000
    with tempfile.TemporaryDirectory() as folder:
        core = played_table(Path(folder), size)
        cpu, wall, served = resume_cost(core)
        core.journal.close()
    verdict = "OK" if cpu < AIM_MS else "MISS"
    print(f"resume from event 0 at {size} commands: {cpu:.1f} ms CPU ({wall:.1f} ms wall) "
          f"on the table's thread, {served} events served; aim < {AIM_MS:.0f} ms: {verdict}")


if __name__ == "__main__":
    main()
