"""Peak memory (RSS) of `riskboard serve --sim` while a whole game is played.

Starts `riskboard serve --sim --autoplay` (a bot plays the demo game on the virtual board
by touches through the emulated Pico and MockFactory button presses) with two phones'
worth of load: a spectator event stream and a status poll. Samples the server's VmRSS
every 100 ms and reads its VmHWM (the kernel's peak RSS) when the game is won.

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
    args = parser.parse_args(argv)
    chosen = args.variant or ["classic"]
    for variant in VARIANTS if "all" in chosen else chosen:
        measure(variant)


def measure(variant: str) -> None:
    """Run the server on `variant`'s demo, wait for the bot's game to end, print RSS."""
    players = "red,blue" if variant in ("two-player", "allied") else "red,blue,green"
    with tempfile.TemporaryDirectory() as data:
        config = Path(data) / "config.toml"
        config.write_text(CONFIG)
        port = free_port()
        env = dict(os.environ, RISKBOARD_HOST_PIN="246810")
        server = subprocess.Popen(
            [sys.executable, "-m", "pi_app", "serve", "--sim", "--autoplay", "--config",
             str(config), "--port", str(port), "--data", str(Path(data) / "d"),
             "--variant", variant, "--players", players],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        base = f"http://127.0.0.1:{port}"
        samples: list[int] = []
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
            while time.monotonic() - started < 180:
                samples.append(proc_kib(server.pid, "VmRSS"))
                state = get_json(base + "/api/state").get("state") or {}
                winner = state.get("winner")
                if winner:
                    break
                time.sleep(0.1)
            peak = proc_kib(server.pid, "VmHWM")
            stop.set()
        finally:
            server.terminate()
            server.wait(10)
        seconds = time.monotonic() - started
        print(f"serve --sim during a bot {variant} game "
              f"({'won by ' + winner if winner else 'unfinished'}"
              f", {seconds:.0f} s): RSS start={samples[0] / 1024:.1f} MiB "
              f"max sampled={max(samples) / 1024:.1f} MiB peak (VmHWM)={peak / 1024:.1f} MiB",
              flush=True)


if __name__ == "__main__":
    main()
