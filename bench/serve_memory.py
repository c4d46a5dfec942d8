"""Peak memory (RSS) of `riskboard serve --sim` while a bot plays a game; aim < 80 MiB.

Starts `riskboard serve --sim --autoplay` (every seat a computer player: each decision
announced, journaled and lit on the virtual board) with two phones' worth of load: a
spectator event stream and a 10 Hz state poll. Samples the server's VmRSS
every 100 ms and reads its VmHWM (the kernel's peak RSS) at the end.

The bot's games vary in length (from 20 turns to a stalemate of hundreds), so the workload
is fixed instead: `--updates` table updates (touches, presses and commands: the table's
revision summed over games). When a game is won before that, the bench starts the next one
as the host would (POST /api/host/new_game) and the bot plays on; `--one-game` stops at the
first win instead. `--seconds` caps the time; the line says how the run ended and how many
games it spanned. Growth is reported per 1,000 updates after the first 200 (start-up
excluded). The dice are seeded (`--dice-seed`); timing still varies the games.
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
HOST_PIN = "246810"


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


def new_game(base: str, variant: str, players: list[str]) -> None:
    """Start the next game as the host page does (the serve bot plays every new game)."""
    rules = {"setup": "deal"} if variant == "classic" else {}
    body = json.dumps({"variant": variant, "players": players, "house_rules": rules}).encode()
    request = urllib.request.Request(base + "/api/host/new_game", data=body, method="POST",
                                     headers={"Content-Type": "application/json",
                                              "X-Host-Pin": HOST_PIN})
    with urllib.request.urlopen(request, timeout=10) as answer:
        answer.read()


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
    parser.add_argument("--one-game", action="store_true",
                        help="stop when the first game is won")
    args = parser.parse_args(argv)
    chosen = args.variant or ["classic"]
    for variant in VARIANTS if "all" in chosen else chosen:
        measure(variant, args.updates, args.seconds, args.dice_seed, args.one_game)


def measure(variant: str, updates: int = UPDATES, seconds_cap: float = SECONDS,
            dice_seed: str = "bench", one_game: bool = False) -> None:
    """Run the server on `variant`'s demo until the game ends or a cap; print RSS."""
    players = "red,blue" if variant in ("two-player", "allied") else "red,blue,green"
    with tempfile.TemporaryDirectory() as data:
        config = Path(data) / "config.toml"
        config.write_text(CONFIG)
        port = free_port()
        env = dict(os.environ, RISKBOARD_HOST_PIN=HOST_PIN)
        server = subprocess.Popen(
            [sys.executable, "-m", "pi_app", "serve", "--sim", "--autoplay", "--config",
             str(config), "--port", str(port), "--data", str(Path(data) / "d"),
             "--variant", variant, "--players", players, "--dice-seed", dice_seed],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        base = f"http://127.0.0.1:{port}"
        samples: list[int] = []
        warm: tuple[int, int] | None = None  # (revision, RSS KiB) once warmed up
        revision, turn = 0, None  # the revision rises over every game of the process
        winners: list[tuple[int, str]] = []
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
            while time.monotonic() - started < seconds_cap and revision < updates:
                samples.append(proc_kib(server.pid, "VmRSS"))
                state = get_json(base + "/api/state").get("state") or {}
                revision, turn = int(state.get("seq") or 0), state.get("turn")
                if warm is None and revision >= WARMUP_UPDATES:
                    warm = (revision, samples[-1])
                if state.get("winner") and state.get("game_id") not in [w[0] for w in
                                                                        winners]:
                    winners.append((state.get("game_id"), state["winner"]))
                    if one_game:
                        break
                    new_game(base, variant, players.split(","))
                time.sleep(0.1)
            total = revision
            last = proc_kib(server.pid, "VmRSS")
            peak = proc_kib(server.pid, "VmHWM")
            stop.set()
        finally:
            server.terminate()
            server.wait(10)
        seconds = time.monotonic() - started
        if one_game and winners:
            how = f"one game, won by {winners[0][1]}"
        else:
            cap = f"{updates} updates" if total >= updates else f"{seconds_cap:g} s"
            how = (f"capped at {cap}; {len(winners)} game(s) won, the last one at turn {turn}"
                   " unfinished")
        growth = ""
        if warm is not None and total > warm[0]:
            per = (last - warm[1]) / 1024 / (total - warm[0]) * 1000
            growth = f" growth={per:+.2f} MiB/1000 updates"
        print(f"serve --sim, bot {variant} games ({how}; {total} updates, "
              f"{seconds:.0f} s): RSS start={samples[0] / 1024:.1f} MiB "
              f"max sampled={max(samples) / 1024:.1f} MiB peak (VmHWM)={peak / 1024:.1f} MiB"
              f"{growth} (aim < {AIM_MIB:g} MiB) {'OK' if peak / 1024 < AIM_MIB else 'MISS'}",
              flush=True)


if __name__ == "__main__":
    main()
