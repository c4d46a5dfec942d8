"""Benchmark (not a test): a miswired board brought up from outside, over the documented
HTTP routes only, as a maker practising on the virtual board would (issue 33).

For classic-42 and classic-42-nfc, miswired by each seed given (`pi_app.table.miswired`),
it starts `riskboard serve --sim` in a child process and drives it with the maker of
tests/bringup/http_maker.py: the bring-up API for the phone, `/api/virtual/touch` (a
territory touched, held down and let go, tokens and markers on any reader),
`/api/virtual/button` and, for the reader the Pico does not hear, `/api/virtual/replug`,
reading the LEDs from `/api/virtual/board`. After the saved profile is live, `riskboard
doctor` (run against the service, as a maker would) must say the board matches, and every
territory must light in its owner's colour. Prints per board: the maker's touches, holds,
taps and presses per step, the runs held again (let go a beat late), the cable moves, the
wall time, and the aims: one touch per territory for sensors, one hold per run of LEDs,
every token and marker enrolled, doctor's board line ok, every territory lit right.

Run: `.venv/bin/python -m bench.bringup_public [SEED ...]` (default seed 7).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

PROFILES = ("classic-42", "classic-42-nfc")
FAST = 0.2  # the bring-up page's fastest LED pace


def doctor_board_line(config: Path, port: int) -> str:
    """`riskboard doctor`'s board line, asked of the running service."""
    done = subprocess.run([sys.executable, "-m", "pi_app", "doctor", "--config", str(config),
                           "--port", str(port)], capture_output=True, text=True, timeout=120)
    lines = [line for line in done.stdout.splitlines() if line.split()[1:2] == ["board"]]
    return lines[0] if lines else f"no board line (exit {done.returncode})"


def one(profile: str, seed: int) -> dict:
    """One whole bring-up of `profile` miswired by `seed`; its figures."""
    from hardware.profiles import load_profile
    from pi_app.bringup.core import facts_from_rules
    from pi_app.table.miswired import miswired
    from tests.bringup.http_maker import (
        HttpHands,
        HttpPhone,
        SeenBoard,
        replug_silent_readers,
        served,
    )
    from tests.bringup.table_maker import TableMaker, wait_for
    from tests.bringup.test_bringup_miswired import runs
    from tests.bringup.test_practice_board import nearest

    folder = Path(tempfile.mkdtemp(prefix="bench-bu-public-"))
    truth = miswired(load_profile(profile), seed)
    with served(folder, profile, seed) as http:
        phone = HttpPhone(http)
        started = time.monotonic()
        phone.start(FAST)
        moved = replug_silent_readers(http, phone)
        seen = SeenBoard.read(http)
        maker = TableMaker(seen, None, phone, hands=HttpHands(http, seen))
        maker.whole()
        phone.save()
        seconds = time.monotonic() - started
        wait_for(lambda: http.get("/api/status")["link"]["connected"], what="the link")
        state = http.get("/api/state")["state"]
        lit = http.get("/api/virtual/board")["leds"]
        wrong = [t for t, owner in state["owner"].items()
                 if {nearest(lit[i], state["players"]) for i, o in enumerate(seen.owners)
                     if o == t} != {owner}]
        port = int(http.base.rsplit(":", 1)[1])
        doctor = doctor_board_line(folder / "config.toml", port)
    by_step = maker.counts.by_step
    return {"profile": profile, "seed": seed, "seconds": round(seconds, 1), "moved": moved,
            "by_step": by_step, "retries": maker.counts.retries,
            "territories": len(facts_from_rules().territories),
            "runs": runs(list(truth.owners)),
            "tags": (len(truth.tokens), sum(map(len, truth.markers.values())))
            if truth.nfc else (0, 0),
            "wrong_lights": wrong, "doctor": doctor}


def report(r: dict) -> None:
    """Print one board's figures and its aims."""
    by = r["by_step"]
    print(f"{r['profile']} seed {r['seed']}: {r['seconds']} s; cables moved {r['moved']}; "
          f"runs held again {r['retries']}")
    for step, counts in by.items():
        print(f"  {step}: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    sensors = by.get("sensors", {}).get("touches", 0)
    holds = by.get("leds", {}).get("touches", 0) - r["retries"]
    tokens = by.get("tokens", {}).get("touches", 0)
    markers = by.get("markers", {}).get("touches", 0)
    checks = (("sensor touches", f"{sensors} for {r['territories']}",
               sensors == r["territories"]),
              ("LED holds (less those held again)", f"{holds} for {r['runs']} runs",
               holds == r["runs"]),
              ("tokens and markers enrolled", f"{tokens}+{markers} of {r['tags'][0]}+"
               f"{r['tags'][1]}", (tokens, markers) == r["tags"]),
              ("territories lit in their owner's colour",
               f"{r['territories'] - len(r['wrong_lights'])} of {r['territories']}",
               not r["wrong_lights"]),
              ("doctor", " ".join(r["doctor"].split()), r["doctor"].startswith("ok")))
    for what, got, ok in checks:
        print(f"  aim {what}: {got} {'OK' if ok else 'MISS'}")


def main(argv: list[str] | None = None) -> None:
    """Bring each board up from outside once per seed and print what it took."""
    seeds = [int(s) for s in (argv if argv is not None else sys.argv[1:])] or [7]
    for seed in seeds:
        for profile in PROFILES:
            report(one(profile, seed))


if __name__ == "__main__":
    main()
