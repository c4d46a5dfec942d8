"""Peak memory (RSS) of `riskboard serve --sim` while a bot plays a game; aim < 80 MiB.

Starts `riskboard serve --sim --autoplay` (a bot plays the demo game on the virtual board
by touches through the emulated Pico and MockFactory button presses) with two phones'
worth of load: a spectator event stream and a 10 Hz state poll. Samples the server's VmRSS
every 100 ms and reads its VmHWM (the kernel's peak RSS) at the end.

The bot's games vary in length (a Classic game between crude bots can stall for hundreds of
turns), so a run ends when the game is won OR after `--updates` table updates (touches,
presses and commands: the table's revision) OR `--seconds`, whichever comes first, and
the line says which: "won by ..." or "capped at N updates, game unfinished". Growth is
reported per 1,000 updates after the first 200 (start-up and the first frames excluded).
The dice are seeded (`--dice-seed`) so runs are comparable; timing still varies the game.
(The aim: a Pi Zero 2 W has 512 MB, and the service's unit caps it far below that.)

Run: ``.venv/bin/python -m bench.serve_memory`` (the Classic demo), or with
``--variant strike --variant two-player ...`` (any variant; `all` for every one) to play
those demo games instead, one server each.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

CONFIG = "[buttons]\nhold_time = 0.1\n[log]\nlevel = \"warning\"\n"
AIM_MIB = 80.0
UPDATES = 3000
SECONDS = 170.0
WARMUP_UPDATES = 200


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def proc_kib(pid: int, key: str) -> int:
    """A `/proc/<pid>/status` memory line (VmRSS, VmHWM) in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1])
    return 0


def get_json(url: str) -> dict:
    """GET a JSON document."""
    with urllib.request.urlopen(url, timeout=5) as answer:
        return json.load(answer)


VARIANTS = ("classic", "mission", "capital", "two-player", "allied", "strike")


def main(argv: list[str] | None = None) -> None:
    """Measure each chosen variant's demo game (default: Classic)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", action="append", choices=(*VARIANTS, "all"),
                        help="variant of the demo game (repeatable; default classic)")
    parser.add_argument("--updates", type=int, default=UPDATES,
                        help=f"stop after this many table updates (default {UPDATES})")
    parser.add_argument("--seconds", type=float, default=SECONDS,
                        help=f"stop after this long (default {SECONDS:g})")
    parser.add_argument("--dice-seed", default="bench", help="the demo's fixed dice seed")
    args = parser.parse_args(argv)
    chosen = args.variant or ["classic"]
    for variant in VARIANTS if "all" in chosen else chosen:
        measure(variant, args.updates, args.seconds, args.dice_seed)


def measure(variant: str, updates: int = UPDATES, seconds_cap: float = SECONDS,
            dice_seed: str = "bench") -> None:
    """Run the server on `variant`'s demo until the game ends or a cap; print RSS."""
    players = "red,blue" if variant in ("two-player", "allied") else "red,blue,green"
    with tempfile.TemporaryDirectory() as data:
        config = Path(data) / "config.toml"
        config.write_text(CONFIG)
        port = free_port()
        env = dict(os.environ, RISKBOARD_HOST_PIN="246810")
        server = subprocess.Popen(
            [sys.executable, "-m", "pi_app", "serve", "--sim", "--autoplay", "--config",
             str(config), "--port", str(port), "--data", str(Path(data) / "d"),
             "--variant", variant, "--players", players, "--dice-seed", dice_seed],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        base = f"http://127.0.0.1:{port}"
        samples: list[int] = []
        warm: tuple[int, int] | None = None  # (revision, RSS KiB) once warmed up
        revision, turn = 0, None
        started = time.monotonic()
        try:
            while True:
                try:
                    get_json(base + "/api/status")
                    break
                except OSError:
                    if time.monotonic() - started > 30 or server.poll() is not None:
                        raise RuntimeError("riskboard serve --sim did not start") from None
                    time.sleep(0.1)
            stop = threading.Event()

            def stream() -> None:
                with urllib.request.urlopen(base + "/api/events", timeout=120) as answer:
                    while not stop.is_set() and answer.readline():
                        pass

            threading.Thread(target=stream, daemon=True).start()
            winner = None
            while time.monotonic() - started < seconds_cap and revision < updates:
                samples.append(proc_kib(server.pid, "VmRSS"))
                state = get_json(base + "/api/state").get("state") or {}
                revision, turn = int(state.get("seq") or 0), state.get("turn")
                if warm is None and revision >= WARMUP_UPDATES:
                    warm = (revision, samples[-1])
                winner = state.get("winner")
                if winner:
                    break
                time.sleep(0.1)
            last = proc_kib(server.pid, "VmRSS")
            peak = proc_kib(server.pid, "VmHWM")
            stop.set()
        finally:
            server.terminate()
            server.wait(10)
        seconds = time.monotonic() - started
        if winner:
            how = f"won by {winner}"
        elif revision >= updates:
            how = f"capped at {updates} updates, game unfinished"
        else:
            how = f"capped at {seconds_cap:g} s, game unfinished"
        growth = ""
        if warm is not None and revision > warm[0]:
            per = (last - warm[1]) / 1024 / (revision - warm[0]) * 1000
            growth = f" growth={per:+.2f} MiB/1000 updates"
        print(f"serve --sim, bot {variant} game ({how}; {revision} updates, turn {turn}, "
              f"{seconds:.0f} s): RSS start={samples[0] / 1024:.1f} MiB "
              f"max sampled={max(samples) / 1024:.1f} MiB peak (VmHWM)={peak / 1024:.1f} MiB"
              f"{growth} (aim < {AIM_MIB:g} MiB) {'OK' if peak / 1024 < AIM_MIB else 'MISS'}",
              flush=True)


if __name__ == "__main__":
    main()
