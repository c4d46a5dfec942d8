"""Idle CPU of `riskboard serve --sim`: a table nobody touches; and what one touch costs.

Starts `riskboard serve --sim` (the demo Classic game, dealt, waiting in its setup: the
current player's territories swell every 4 s, the phase LED breathes) in a temporary data
folder, waits for its link to the emulated Pico, lets it settle, then reads the CPU time of
each of its threads (/proc/<pid>/task/*/schedstat, bench._served) over `--seconds` (60). The
emulated Pico's thread ("pico-emulator") is left out: a real table has a real Pico. As on a Pi, the
service runs under a watchdog (`StandInSystemd`: $NOTIFY_SOCKET and WatchdogSec=30, as
deploy/riskboard.service sets), so its table loop beats it as it does there. The
first line is the rest as a share of one core, OK or MISS against the aim (≤ 0.3 %: a Pi
Zero 2 W or 3B+ left on all evening stays cool), with the threads that used it.

Then `--touches` (40) touches through the emulated Pico (POST /api/virtual/touch as the
host: each places one army of the player on the move in the setup, journaled, and passes
the turn, whose pulse then swells on the next player's territories), one every
`TOUCH_EVERY_S`, so each touch's lights are drawn in full before the next. The second line
is the CPU one touch costs the table's threads (link, loop, painter: sensor frame → journal
→ LED frames of its effect), beyond their idle rate (measured before the touches and again,
for half as long, after them); the web threads that answered the bench's requests are
counted apart. Aim: ≤ 10 ms, so a touch every two seconds (a busy table) adds at most
half a percent of a core to an idle one.

Last, the bench places the setup's remaining armies and watches the table idle again for
`--seconds` during the first turn (the current player's territories swell every 4 s; the
phase LED no longer breathes): what most of an evening's idle minutes look like.

Run: ``.venv/bin/python -m bench.idle_cpu [--seconds 60] [--touches 40]``.
"""

from __future__ import annotations

import argparse
import os
import socket
import tempfile
import threading
import time
from pathlib import Path

from bench._served import EMULATOR_THREAD, ServedSim, cpu_between, thread_cpu
from pi_app.table.lights import TURN_PULSE_S

AIM_PERCENT = 0.3
AIM_TOUCH_MS = 10.0
SECONDS = 60.0
SETTLE_S = 5.0
TOUCHES = 40
TOUCH_EVERY_S = 1.5
SETUP_TOUCHES = 200  # more than any setup has left: touched until the first turn
TABLE_THREADS = ("bridge-link", "table-loop", "table-painter")
WATCHDOG_S = 30  # deploy/riskboard.service: WatchdogSec=30


class StandInSystemd:
    """A notify socket standing in for systemd's, as a context manager: sets NOTIFY_SOCKET
    and WATCHDOG_USEC in this process's environment (the service started inside inherits
    them), reads every datagram (a full socket would block the service) and counts the
    WATCHDOG=1 pings in `pings`."""

    def __init__(self) -> None:
        self.pings = 0
        self._folder = tempfile.TemporaryDirectory(prefix="riskboard-notify-")
        self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self._saved: dict[str, str | None] = {}

    def __enter__(self) -> StandInSystemd:
        path = str(Path(self._folder.name) / "notify")
        self._socket.bind(path)
        threading.Thread(target=self._read, name="notify", daemon=True).start()
        for key, value in (("NOTIFY_SOCKET", path),
                           ("WATCHDOG_USEC", str(WATCHDOG_S * 1_000_000))):
            self._saved[key] = os.environ.get(key)
            os.environ[key] = value
        return self

    def __exit__(self, *exc: object) -> None:
        for key, value in self._saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        self._socket.close()
        self._folder.cleanup()

    def _read(self) -> None:
        while True:
            try:
                message = self._socket.recv(4096)
            except OSError:
                return
            if b"WATCHDOG=1" in message.split(b"\n"):
                self.pings += 1


def table_and_web(used: dict[str, float]) -> tuple[float, float]:
    """CPU seconds of the table's threads, and of every other thread but the emulator's
    (the web server's, the main thread's)."""
    table = sum(s for name, s in used.items() if name in TABLE_THREADS)
    rest = sum(s for name, s in used.items()
               if name not in TABLE_THREADS and name != EMULATOR_THREAD)
    return table, rest


def by_thread(used: dict[str, float]) -> str:
    """`used` as 'name ms, ...', the busiest first."""
    return ", ".join(f"{name} {s * 1000:.0f}" for name, s in
                     sorted(used.items(), key=lambda item: -item[1]) if s >= 0.0005)


def measure_idle(service: ServedSim, seconds: float) -> dict[str, float]:
    """CPU seconds per thread name over `seconds` of a table left alone."""
    before = thread_cpu(service.pid)
    time.sleep(seconds)
    return cpu_between(before, thread_cpu(service.pid))


def touch_once(service: ServedSim) -> bool:
    """Touch a territory of the player on the move (setup: one army placed); False once
    the setup is over."""
    state = service.get("/api/state")["state"]
    if state["phase"] != "setup_place":
        return False
    mine = sorted(t for t, owner in state["owner"].items() if owner == state["current_player"])
    service.post("/api/virtual/touch", {"territory": mine[0]})
    return True


def measure_touches(service: ServedSim, touches: int) -> tuple[int, float, dict[str, float]]:
    """Touch `touches` times, one every `TOUCH_EVERY_S`; (touches made, seconds, CPU
    seconds per thread name meanwhile)."""
    before = thread_cpu(service.pid)
    started = time.monotonic()
    made = 0
    for n in range(touches):
        next_at = started + (n + 1) * TOUCH_EVERY_S
        if not touch_once(service):
            break
        made += 1
        time.sleep(max(0.0, next_at - time.monotonic()))
    seconds = time.monotonic() - started
    return made, seconds, cpu_between(before, thread_cpu(service.pid))


def main(argv: list[str] | None = None) -> None:
    """Print the idle share of a core and the CPU cost of a touch."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=SECONDS,
                        help=f"how long the idle table is watched (default {SECONDS:g})")
    parser.add_argument("--touches", type=int, default=TOUCHES,
                        help=f"touches for the cost of one (default {TOUCHES})")
    args = parser.parse_args(argv)
    with StandInSystemd() as systemd, ServedSim() as service:
        time.sleep(SETTLE_S)  # the start's pulse and warm-up are over
        pings = systemd.pings
        idle = measure_idle(service, args.seconds)
        pings = systemd.pings - pings
        table, rest = table_and_web(idle)
        percent = (table + rest) / args.seconds * 100
        print(f"serve --sim idle in the demo's setup, {args.seconds:g} s, the emulated Pico's "
              f"{idle.get(EMULATOR_THREAD, 0.0) * 1000:.0f} ms left out: "
              f"{percent:.3f} % of a core (ms by thread: {by_thread(idle)}; the watchdog "
              f"pinged {pings} times, WatchdogSec={WATCHDOG_S}) "
              f"(aim ≤ {AIM_PERCENT:g} %) {'OK' if percent <= AIM_PERCENT else 'MISS'}",
              flush=True)
        made, seconds, busy = measure_touches(service, args.touches)
        busy_table, busy_rest = table_and_web(busy)
        if not made:
            print("touch -> LED: no touch could be made (the demo is past its setup) MISS")
            return
        time.sleep(TURN_PULSE_S)  # the last touch's pulse ends
        after = measure_idle(service, args.seconds / 2)  # the idle rate again, after them
        after_table, after_rest = table_and_web(after)
        idle_table = (table + after_table) / (args.seconds * 1.5)
        idle_rest = (rest + after_rest) / (args.seconds * 1.5)
        per_table = (busy_table - idle_table * seconds) / made * 1000
        per_rest = (busy_rest - idle_rest * seconds) / made * 1000
        print(f"touch -> journaled Place -> LED effect drawn: {per_table:.2f} ms CPU per touch "
              f"in the table's threads (link, loop, painter) beyond their idle rate, "
              f"{per_rest:.2f} ms in the web threads answering the bench's requests "
              f"(n={made}, one every {TOUCH_EVERY_S:g} s) (aim ≤ {AIM_TOUCH_MS:g} ms) "
              f"{'OK' if per_table <= AIM_TOUCH_MS else 'MISS'}", flush=True)
        for _ in range(SETUP_TOUCHES):  # the rest of the setup: the first turn begins
            if not touch_once(service):
                break
            time.sleep(0.2)
        time.sleep(SETTLE_S)
        turn = measure_idle(service, args.seconds)
        in_turn = sum(table_and_web(turn)) / args.seconds * 100
        print(f"serve --sim idle during the first turn (past the setup), {args.seconds:g} s: "
              f"{in_turn:.3f} % of a core (ms by thread: {by_thread(turn)}) "
              f"(aim ≤ {AIM_PERCENT:g} %) {'OK' if in_turn <= AIM_PERCENT else 'MISS'}",
              flush=True)


if __name__ == "__main__":
    main()
