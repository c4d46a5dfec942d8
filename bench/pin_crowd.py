"""Benchmark: how many host PINs a crowd of addresses gets judged (issue 21.3).

Serves the app of `riskboard serve --sim` (the real table, default PIN limits: 5 wrong a
minute per address, 30 at the whole table) with waitress on 127.0.0.1, and lets a crowd of
IPv4 loopback source addresses (127.1.x.y) guess as fast as a few threads can for
`--seconds`. One attempt in ten carries the right PIN from a new address, as a guesser who
had hit it would. Reports every attempt, the wrong PINs judged (403), the right PINs
accepted (200), and both per minute. Aim: judged wrong PINs <= 30 a minute (+30 at the
start), right PINs from new devices accepted only while the table-wide limit has a token
(a judged attempt), never because the address is new.

Run: .venv/bin/python -m bench.pin_crowd [--seconds 30] [--addresses 300] [--threads 6]
"""

from __future__ import annotations

import argparse
import http.client
import itertools
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

from hardware.supervised import Backoff
from pi_app.config import Config
from pi_app.table.loop import NewGameSpec
from pi_app.table.rig import build_rig
from pi_app.web import create_app
from pi_app.web.serve import start_background

PIN = "13572468"


def main(argv: list[str] | None = None) -> None:
    """Run the crowd against a served table and print the counts."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--addresses", type=int, default=300)
    parser.add_argument("--threads", type=int, default=6)
    args = parser.parse_args(argv)
    data = Path(tempfile.mkdtemp()) / "data"
    rig = build_rig(Config(), sim=True, data_dir=data, backoff=lambda: Backoff(0.01, 0.05),
                    demo=NewGameSpec("classic", ("red", "blue", "green"), {"setup": "deal"}))
    rig.start()
    app = create_app(rig.service, host_pin=PIN, data_dir=data)
    server = start_background(app)
    counts: Counter[tuple[str, int]] = Counter()
    lock = threading.Lock()
    numbers = itertools.count()
    stop = time.monotonic() + args.seconds

    def guess() -> None:
        while time.monotonic() < stop:
            n = next(numbers)
            right = n % 10 == 9
            source = f"127.1.{(n % args.addresses) // 250}.{1 + (n % args.addresses) % 250}"
            pin = PIN if right else f"{10_000_000 + n:08d}"
            conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60,
                                              source_address=(source, 0))
            try:
                conn.request("GET", "/api/host/check", headers={"X-Host-Pin": pin})
                status = conn.getresponse().status
            finally:
                conn.close()
            with lock:
                counts["right" if right else "wrong", status] += 1

    started = time.monotonic()
    threads = [threading.Thread(target=guess) for _ in range(args.threads)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    minutes = (time.monotonic() - started) / 60
    server.stop()
    rig.stop()
    total = sum(counts.values())
    print(f"{total} attempts in {minutes * 60:.1f} s from {args.addresses} addresses "
          f"({total / minutes:.0f} a minute)")
    for key in sorted(counts):
        print(f"  {key[0]:5s} PIN -> {key[1]}: {counts[key]}")
    judged = counts["wrong", 403]
    print(f"wrong PINs judged: {judged}: a burst of 30, then {max(0, judged - 30) / minutes:.1f}"
          " a minute (limit: 30 a minute, whatever the number of addresses)")
    print(f"right PINs from new addresses accepted: {counts['right', 200]} of "
          f"{counts['right', 200] + counts['right', 429]}")


if __name__ == "__main__":
    main()
