"""`riskboard serve`: run the table (loop, lights, link, buttons) and its web pages.

Reads the TOML config (`--config`, else $RISKBOARD_CONFIG, else /etc/riskboard/config.toml
when it exists, else defaults); `--port` and `--data` override the web port and the data
folder. `--sim` runs on the virtual board: the emulated Pico over a pty, the in-memory LED
strip and MockFactory buttons, starting a demo 3-player Classic game if none is running;
`--sim --autoplay` also lets a bot play it by touches and presses (a demo, and the
memory benchmark's workload); `--variant` and `--players` choose the demo game (any
variant: classic, mission, capital, two-player, allied, strike), and the bot goes on to
play each new game the host starts.
Prints the host PIN and the URL, tells systemd when it is ready and pings its watchdog from
the table loop, and shuts everything down cleanly on SIGTERM / SIGINT.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import threading
from pathlib import Path
from typing import Any

HOST_PIN_FILE = "host-pin"
HOST_PIN_ENV = "RISKBOARD_HOST_PIN"

log = logging.getLogger("riskboard.serve")


def register(subparsers: Any) -> None:
    """Add the `serve` subcommand."""
    parser = subparsers.add_parser(
        "serve", help="run the table and its status pages",
        description="Run the smart table: sensors, lights, dice, rules and the web pages.")
    parser.add_argument("--config", type=Path, help="TOML config file")
    parser.add_argument("--sim", action="store_true",
                        help="run on the virtual board (emulated Pico, in-memory LEDs)")
    parser.add_argument("--port", type=int, help="web port (overrides web.port)")
    parser.add_argument("--host", help="web address to listen on (overrides web.host)")
    parser.add_argument("--data", type=Path, help="data folder (overrides storage.data_dir)")
    parser.add_argument("--autoplay", action="store_true",
                        help="with --sim: a bot plays the game by touches and button presses")
    parser.add_argument("--variant", help="with --sim: the demo game's variant (classic, "
                        "mission, capital, two-player, allied, strike)")
    parser.add_argument("--players", help="with --sim: the demo game's colours, comma "
                        "separated (default: red,blue,green; two-player games: red,blue)")
    parser.set_defaults(func=run)


def config_path(arg: Path | None) -> Path | None:
    """The config file to read: --config, $RISKBOARD_CONFIG, the system file if present."""
    from pi_app.config import DEFAULT_CONFIG_PATH, config_path_from_env

    if arg is not None:
        return arg
    env = config_path_from_env()
    if env is not None:
        return env
    return DEFAULT_CONFIG_PATH if DEFAULT_CONFIG_PATH.is_file() else None


def host_pin(data_dir: Path) -> str:
    """The host PIN: $RISKBOARD_HOST_PIN, else the one kept in the data folder (made once,
    so a restart mid-game keeps the host logged in), made by the web's `new_host_pin`."""
    pin = os.environ.get(HOST_PIN_ENV, "").strip()
    if pin:
        return pin
    path = data_dir / HOST_PIN_FILE
    if path.is_file():
        kept = path.read_text(encoding="utf-8").strip()
        if len(kept) >= 6:
            return kept
    from pi_app.web.seats import new_host_pin

    pin = new_host_pin()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(pin + "\n")
    return pin


def seat_running_game(app: Any, rig: Any) -> None:
    """Give every player of a resumed or demo game a seat token if none was issued yet
    (the host page issues them for games it starts), so phones can join at once."""
    state = rig.loop.publisher.snapshot.state
    seats = app.extensions["riskboard"].seats
    if state is not None and set(seats.tokens()) != set(state.players):
        seats.issue_all(list(state.players))


def demo_spec(variant: str | None, players: str | None) -> Any:
    """The demo game of `--sim` from `--variant` / `--players` (None: the default demo)."""
    from pi_app.table.loop import NewGameSpec
    from pi_app.table.sim import DEMO_GAME

    if variant is None and players is None:
        return None
    chosen = variant or DEMO_GAME.variant
    if players:
        seats = tuple(p.strip() for p in players.split(",") if p.strip())
    else:
        seats = ("red", "blue") if chosen in ("two-player", "allied") else DEMO_GAME.players
    rules = dict(DEMO_GAME.house_rules) if chosen == "classic" else {}
    return NewGameSpec(chosen, seats, rules)


def start_autoplay(rig: Any) -> threading.Thread:
    """Let a bot play the running game on the virtual board (touches and button presses),
    and every game the host starts after it."""
    from pi_app.table.autoplay import SimHands, play

    def autoplay() -> None:
        publisher = rig.loop.publisher
        while rig.loop.running:
            game = publisher.snapshot.game_id
            try:
                report = play(SimHands(rig))
                log.info("event=serve.autoplay_done winner=%s moves=%d seconds=%.1f",
                         report.winner, report.moves, report.seconds)
            except Exception:
                log.exception("event=serve.autoplay_failed")
            while rig.loop.running and publisher.snapshot.game_id == game:
                publisher.wait_for(publisher.snapshot.revision, 1.0)  # the host's next game

    thread = threading.Thread(target=autoplay, name="autoplay", daemon=True)
    thread.start()
    return thread


def run(args: argparse.Namespace) -> int:
    """Start the table and serve the web app until SIGTERM / SIGINT."""
    from pi_app.config import ConfigError, load_config
    from pi_app.systemd_notify import Notifier

    try:
        config = load_config(config_path(args.config))
    except ConfigError as exc:
        print(f"riskboard: {exc}", file=sys.stderr)
        return 2
    logging.basicConfig(level=getattr(logging, config.log.level.upper()),
                        format="%(asctime)s %(levelname)s %(name)s %(message)s")
    data_dir = (args.data or config.storage.data_dir).expanduser().resolve()
    port = args.port if args.port is not None else config.web.port
    host = args.host or config.web.host
    data_dir.mkdir(parents=True, exist_ok=True)
    notifier = Notifier.from_environment()
    heartbeat = notifier.heartbeat()
    from pi_app.table.rig import build_rig
    from pi_app.web import create_app
    from pi_app.web.serve import serve_app

    try:
        demo = demo_spec(args.variant, args.players) if args.sim else None
        rig = build_rig(config, sim=args.sim, data_dir=data_dir, heartbeat=heartbeat.beat,
                        demo=demo)
        rig.start()
    except Exception as exc:
        print(f"riskboard: cannot start the table: {exc}", file=sys.stderr)
        log.exception("event=serve.start_failed")
        return 1
    try:
        pin = host_pin(data_dir)
        app = create_app(rig.service, host_pin=pin, data_dir=data_dir)
        seat_running_game(app, rig)
        shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
        mode = "virtual board" if args.sim else f"board {rig.profile.name}"
        print(f"riskboard: serving on http://{shown}:{port}/ ({mode}, data in {data_dir})",
              flush=True)
        print(f"riskboard: host page http://{shown}:{port}/host  host PIN {pin}", flush=True)
        notifier.ready(f"serving on port {port}")
        if args.autoplay and args.sim:
            start_autoplay(rig)
        serve_app(app, host=host, port=port)
    finally:
        notifier.stopping("shutting down")
        rig.stop()
        log.info("event=serve.stopped")
    return 0
