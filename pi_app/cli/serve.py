"""`riskboard serve`: run the table (loop, lights, link, buttons) and its web pages.

Reads the TOML config (`--config`, else $RISKBOARD_CONFIG, else /etc/riskboard/config.toml
when it exists, else defaults); `--port` and `--data` override the web port and the data
folder. `--sim` runs on the virtual board: the emulated Pico over a pty, the in-memory LED
strip and MockFactory buttons, starting a demo 3-player Classic game if none is running;
`--sim --autoplay` makes every seat a computer player (`pi_app.computer`; a demo, and the
memory benchmark's workload); `--sim --miswired SEED` wires the virtual board otherwise
than the profile (`pi_app.table.miswired`); `--variant` and `--players` choose the demo game (any
variant: classic, mission, capital, two-player, allied, strike), and the computers go on to
play each new game the host starts.
Binds the web port before anything else (a port in use, or not this machine's, is one
sentence and exit code 3, `pi_app.web_port`), prints the host PIN and the URL, tells systemd
READY once the port accepts connections and the table runs, pings its watchdog from the
table loop, and shuts everything down cleanly on SIGTERM / SIGINT.

Private files: the journal holds the dice seed until the game ends, so serve runs with
umask 077: a data folder it creates is 0700, and the journal (with SQLite's -wal and -shm,
which copy its mode), seat tokens and the host PIN are 0600. An existing journal that is
readable by others is tightened to 0600 at start.

Seat QR links use `web.public_url` when set, else the address the host page was opened with
(it must name this machine), looked at each time a seat's code is made. The console's
"phones join at" line is `http://<this machine's
address on the network of its default route>:<port>` when listening on every address
(0.0.0.0: its IPv4 address; `::`: its IPv6 one, as those listeners are IPv6 only), else the
address it listens on; never the Host header a browser sent. The console shows the same
network address beside a loopback one of the listener's family (`[::1]` for `::`).
A `RISKBOARD_HOST_PIN` shorter than `MIN_HOST_PIN` characters stops serve with a sentence
(exit 2) before anything starts.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

HOST_PIN_FILE = "host-pin"
HOST_PIN_ENV = "RISKBOARD_HOST_PIN"
MIN_HOST_PIN = 6
PRIVATE_UMASK = 0o077
JOURNAL_FILES = ("journal.sqlite", "journal.sqlite-wal", "journal.sqlite-shm")

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
                        help="with --sim: every seat is a computer player (it plays the "
                        "game, and every game the host starts, by itself)")
    parser.add_argument("--variant", help="with --sim: the demo game's variant (classic, "
                        "mission, capital, two-player, allied, strike)")
    parser.add_argument("--players", help="with --sim: the demo game's colours, comma "
                        "separated (default: red,blue,green; two-player games: red,blue)")
    parser.add_argument("--setup", choices=("claim", "deal"),
                        help="with --sim: how the demo's territories are shared (claim: "
                        "players touch empty territories in turn; default: dealt)")
    parser.add_argument("--dice-seed", help="with --sim: a fixed dice seed for every game "
                        "(64 hex digits, or any text, hashed), so a bot game repeats exactly "
                        "(benchmarks); the dice are then not secret")
    parser.add_argument("--miswired", type=_seed, metavar="SEED",
                        help="with --sim: wire the virtual board otherwise than the profile "
                        "(a number picks the wiring; overrides board.miswired), to practise "
                        "a bring-up")
    parser.set_defaults(func=run)


def _seed(text: str) -> int:
    try:
        seed = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a whole number, got {text!r}") from None
    if not 1 <= seed < 2**31:
        raise argparse.ArgumentTypeError(f"a number from 1 to {2**31 - 1}, got {seed}")
    return seed


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


class HostPinTooShort(ValueError):
    """$RISKBOARD_HOST_PIN is set but too short to guard the host page."""


def check_host_pin_env() -> None:
    """Raise `HostPinTooShort` (with the sentence to print) for a short $RISKBOARD_HOST_PIN."""
    pin = os.environ.get(HOST_PIN_ENV, "").strip()
    if pin and len(pin) < MIN_HOST_PIN:
        raise HostPinTooShort(
            f"{HOST_PIN_ENV} must have at least {MIN_HOST_PIN} characters (it has "
            f"{len(pin)}); set a longer one, or unset it and serve makes one for you")


def private_data_dir(data_dir: Path) -> None:
    """Set umask 077 for this process, create `data_dir` (0700 when new) and tighten an
    existing journal that others could read to 0600."""
    from pi_app.storage import make_data_dir

    os.umask(PRIVATE_UMASK)
    make_data_dir(data_dir)  # fsyncs each new level's parent: a power cut cannot take it
    for name in JOURNAL_FILES:
        path = data_dir / name
        try:
            mode = path.stat().st_mode & 0o777
            if mode & 0o077:
                path.chmod(mode & 0o700)
                log.warning("event=serve.journal_tightened file=%s mode_was=%o", path, mode)
        except FileNotFoundError:
            continue
        except OSError as exc:  # not ours to change: say so, do not stop the table
            log.warning("event=serve.journal_mode_unchanged file=%s error=%r", path, exc)


WILDCARDS = ("0.0.0.0", "::", "")  # listen on every address (of IPv4, of IPv6, of both)


def _families(host: str) -> tuple[int, ...]:
    """The address families a listener on `host` answers: `::` is IPv6 only (the
    listeners are IPV6_V6ONLY, `pi_app.web_port`), 0.0.0.0 IPv4 only, "" both."""
    import socket

    if host == "::":
        return (socket.AF_INET6,)
    if host == "0.0.0.0":
        return (socket.AF_INET,)
    return (socket.AF_INET, socket.AF_INET6)


def lan_address(families: tuple[int, ...] | None = None) -> str | None:
    """This machine's address on the network of its default route (no packet is sent:
    connecting a UDP socket only picks the route), of the first of `families` (default:
    IPv4, then IPv6) that has one, or None without a route."""
    import socket

    probes: dict[int, str] = {socket.AF_INET: "192.0.2.1", socket.AF_INET6: "2001:db8::1"}
    for family in families or (socket.AF_INET, socket.AF_INET6):
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as s:
                s.connect((probes[family], 9))
                address = str(s.getsockname()[0])
        except OSError:
            continue
        if address and not address.startswith(("0.", "127.")) and address != "::1":
            return address
    return None


def _url(address: str, port: int) -> str:
    """`http://<address>[:<port>]`, an IPv6 address in brackets."""
    if ":" in address:
        address = f"[{address}]"
    return f"http://{address}" + ("" if port == 80 else f":{port}")


def local_address(host: str) -> str:
    """An address of this machine that the listener on `host` answers at from here:
    loopback of the listener's family for a wildcard, else `host` itself."""
    if host == "::":
        return "::1"
    return "127.0.0.1" if host in WILDCARDS else host


def shown_urls(host: str, port: int) -> list[str]:
    """The addresses serve prints for a person to open: the local one, and for a
    listener on every address also this machine's address on the network (the one phones
    are sent to), in the listener's family."""
    urls = [_url(local_address(host), port)]
    if host in WILDCARDS:
        address = lan_address(_families(host))
        if address is not None:
            urls.append(_url(address, port))
    return urls


def public_url(configured: str, host: str, port: int) -> str:
    """The address phones use for seat links (see the module docstring)."""
    if configured:
        return configured.rstrip("/")
    address = host
    if host in WILDCARDS:
        address = lan_address(_families(host)) or local_address(host)
    return _url(address, port)


def warm_up() -> None:
    """Load, after READY, what the first host visit needs but start-up did not (the QR
    code maker), so that visit does not wait for it."""
    try:
        import segno  # noqa: F401
    except Exception:  # a warm-up that fails only makes the first QR code slower
        log.exception("event=serve.warm_up_failed")


def adopt_journaled_seats(app: Any, service: Any, data_dir: Path) -> None:
    """Give the web the seats the journal holds, and journal later changes, as
    `create_app` does for a table it is given up front (the web was built around a
    `StartingTable`, before the journal was open)."""
    from pi_app.web.seats import SeatTokens

    context = app.extensions["riskboard"]
    journaled = getattr(service, "seat_tokens", None)
    store = getattr(service, "store_seat_tokens", None)
    if journaled is None:
        return
    context.seats = SeatTokens(data_dir, on_change=context.tickets.clear,
                               journaled=journaled(), store=store)
    context.tickets.clear()


def seat_running_game(app: Any, rig: Any) -> None:
    """Give every player of a resumed or demo game a seat token if none was issued yet
    (the host page issues them for games it starts), so phones can join at once."""
    state = rig.loop.publisher.snapshot.state
    seats = app.extensions["riskboard"].seats
    if state is not None and set(seats.tokens()) != set(state.players):
        seats.issue_all(list(state.players))


def demo_spec(variant: str | None, players: str | None, setup: str | None = None) -> Any:
    """The demo game of `--sim` from `--variant` / `--players` / `--setup` (None: the
    default demo)."""
    from pi_app.rules import GAMES
    from pi_app.table.loop import NewGameSpec
    from pi_app.table.sim import DEMO_GAME

    if variant is None and players is None and setup is None:
        return None
    chosen = variant or DEMO_GAME.variant
    game = GAMES.get(chosen)  # None: the table refuses the name when it starts the game
    if players:
        seats = tuple(p.strip() for p in players.split(",") if p.strip())
    else:  # the demo's seats, as many as the game takes
        seats = DEMO_GAME.players[:game.player_limits[1] if game else None]
    rules = dict(DEMO_GAME.house_rules) if chosen == DEMO_GAME.variant else {}
    if setup is not None and not (game and game.card_game):
        rules["setup"] = setup
    return NewGameSpec(chosen, seats, rules)


def fixed_dice(seed: str | None) -> Any:
    """A maker of FairDice all seeded with `seed` (64 hex digits are the seed itself, any
    other text is hashed), or None for the default fresh secret seed per game."""
    if seed is None:
        return None
    import hashlib

    from pi_app.dice import FairDice

    try:
        raw = bytes.fromhex(seed) if len(seed) == 64 else b""
    except ValueError:
        raw = b""
    raw = raw or hashlib.sha256(seed.encode("utf-8")).digest()
    return lambda: FairDice(raw)


AUTOPLAY_LEVEL = "normal"
AUTOPLAY_PACE_S = 0.05  # each computer step waits this long for "the humans" (nobody here)


def start_autoplay(rig: Any) -> threading.Thread:
    """Every seat of the running game is a computer player (issue 16), and of every game
    the host starts after it: it plays at the table's pace through the table's own path,
    its steps announced and lit, going on after `AUTOPLAY_PACE_S` without Confirm."""

    def everyone_a_computer(core: Any) -> tuple[int, int]:
        state = core.state
        core.host_action("computer", {"seats": dict.fromkeys(state.players, AUTOPLAY_LEVEL),
                                      "confirm_after_s": AUTOPLAY_PACE_S, "paused": False})
        return core.session.last_seq, state.turn

    def autoplay() -> None:
        publisher = rig.loop.publisher
        while rig.loop.running:
            snapshot = publisher.snapshot
            game = snapshot.game_id
            if snapshot.state is not None and snapshot.status == "running" \
                    and snapshot.state.winner is None:
                started = time.monotonic()
                try:
                    first, _turn = rig.loop.call(everyone_a_computer)
                except Exception:
                    log.exception("event=serve.autoplay_failed")
                    first = 0
                while rig.loop.running and publisher.snapshot.game_id == game \
                        and publisher.snapshot.state is not None \
                        and publisher.snapshot.state.winner is None:
                    publisher.wait_for(publisher.snapshot.revision, 1.0)
                final = publisher.snapshot
                if final.game_id == game and final.state is not None:
                    moves = rig.loop.call(lambda core: core.session.last_seq) - first
                    log.info("event=serve.autoplay_done winner=%s moves=%d seconds=%.1f",
                             final.state.winner, moves, time.monotonic() - started)
            while rig.loop.running and publisher.snapshot.game_id == game:
                publisher.wait_for(publisher.snapshot.revision, 1.0)  # the host's next game

    thread = threading.Thread(target=autoplay, name="autoplay", daemon=True)
    thread.start()
    return thread


def run(args: argparse.Namespace) -> int:
    """Start the table and serve the web app until SIGTERM / SIGINT.

    Order: the config, the web port (bound first: a port in use is a sentence and exit
    code `EXIT_PORT_UNAVAILABLE` before anything else starts), the data folder, the web app
    (answering pages at once), the table behind it; READY goes to systemd only once the
    port accepts connections and the table runs."""
    started = time.monotonic()
    from pi_app.config import ConfigError, load_config
    from pi_app.systemd_notify import Notifier
    from pi_app.web_port import EXIT_PORT_UNAVAILABLE, PortUnavailable, bound_port, open_listeners

    config_file = config_path(args.config)
    try:
        config = load_config(config_file)
    except ConfigError as exc:
        print(f"riskboard: {exc}", file=sys.stderr)
        return 2
    logging.basicConfig(level=getattr(logging, config.log.level.upper()),
                        format="%(asctime)s %(levelname)s %(name)s %(message)s")
    data_dir = (args.data or config.storage.data_dir).expanduser().resolve()
    port = args.port if args.port is not None else config.web.port
    host = args.host or config.web.host
    try:
        check_host_pin_env()
    except HostPinTooShort as exc:
        print(f"riskboard: {exc}", file=sys.stderr)
        return 2
    if args.dice_seed is not None and not args.sim:
        print("riskboard: --dice-seed is for the virtual board only (--sim): real games "
              "keep their dice secret", file=sys.stderr)
        return 2
    miswired = getattr(args, "miswired", None)
    if miswired is not None:
        if not args.sim:
            print("riskboard: --miswired is for the virtual board only (--sim): a real "
                  "board is wired the way it is", file=sys.stderr)
            return 2
        import dataclasses

        config = dataclasses.replace(
            config, board=dataclasses.replace(config.board, miswired=miswired))
    try:
        listeners = open_listeners(host, port)
    except PortUnavailable as exc:
        print(f"riskboard: cannot serve the web pages: {exc}", file=sys.stderr)
        log.error("event=serve.port_unavailable host=%s port=%s", host, port)
        return EXIT_PORT_UNAVAILABLE
    port = bound_port(listeners)
    try:
        return _serve(args, config, config_file, data_dir, host, port, listeners, Notifier,
                      started)
    finally:
        for sock in listeners:
            sock.close()


def _serve(args: argparse.Namespace, config: Any, config_file: Path | None, data_dir: Path,
           host: str, port: int, listeners: list[Any], notifier_class: Any,
           started: float) -> int:
    """Run the web app on the bound `listeners` and the table behind it (see `run`).

    The pages answer first: the app is served from a thread around a `StartingTable`
    while this thread starts the table (rules, journal, link, LEDs, buttons, the demo
    game); API calls made meanwhile wait for it. READY goes to systemd once the table is
    attached. SIGTERM / SIGINT, even during the start, stop the web first (every stream
    ends), then the table."""
    stop = threading.Event()
    previous = _catch_stop_signals(stop)
    try:
        try:
            private_data_dir(data_dir)
        except OSError as exc:
            print(f"riskboard: cannot use the data folder {data_dir}: {exc.strerror or exc}; "
                  "choose another with --data or storage.data_dir", file=sys.stderr)
            return 1
        notifier = notifier_class.from_environment()
        heartbeat = notifier.heartbeat()
        pin = host_pin(data_dir)
        phones = public_url(config.web.public_url, host, port)
        from pi_app.table.starting import StartingTable
        from pi_app.web import create_app
        from pi_app.web.serve import start_background

        table = StartingTable()
        # Seat links follow the address the Pi has when a seat's code is asked for (the host
        # page's, pi_app.web.host.seat_base), not the one it had at start: a Pi that booted
        # before its Wi-Fi (or its own hotspot) was up would give phones 127.0.0.1.
        app = create_app(table, host_pin=pin, data_dir=data_dir,
                         public_url=config.web.public_url.rstrip("/") or None)
        server = start_background(app, host=host, sockets=listeners)
        log.info("event=serve.web_up port=%s ms=%.0f", port, (time.monotonic() - started) * 1e3)
        return _run_table(args, config, config_file, data_dir, app, table, server, notifier,
                          heartbeat, stop, pin, phones, host, port, started)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _catch_stop_signals(stop: threading.Event) -> dict[int, Any]:
    """SIGTERM and SIGINT set `stop` (on the main thread); returns the handlers replaced."""
    previous: dict[int, Any] = {}
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGINT, signal.SIGTERM):
            previous[sig] = signal.signal(sig, lambda signum, frame: stop.set())
    return previous


def _run_table(args: argparse.Namespace, config: Any, config_file: Path | None,
               data_dir: Path, app: Any, table: Any, server: Any, notifier: Any,
               heartbeat: Any, stop: threading.Event, pin: str, phones: str, host: str,
               port: int, started: float) -> int:
    """Start the table behind the served app, tell systemd, wait for `stop`; then stop
    the web `server` (every stream ends) and the table."""
    from pi_app.table.rig import build_rig

    try:
        demo = demo_spec(args.variant, args.players, args.setup) if args.sim else None
        # no watchdog, no heartbeat: the table loop then sleeps until it has work; with
        # one, it wakes at the watchdog's pace (5 s of systemd's 30), not twice a second
        beat = heartbeat.beat if notifier.enabled and heartbeat.period else None
        rig = build_rig(config, sim=args.sim, data_dir=data_dir, heartbeat=beat,
                        heartbeat_s=heartbeat.longest_sleep if beat else None,
                        demo=demo, dice=fixed_dice(args.dice_seed))
        rig.start()
    except Exception as exc:
        table.fail(f"it could not start ({exc})")
        print(f"riskboard: cannot start the table: {exc}", file=sys.stderr)
        log.exception("event=serve.start_failed")
        server.stop()
        return 1
    try:
        from pi_app.checks import service_checks

        checks_cache: dict[str, Any] = {}  # what cannot change while running
        rig.service.add_status(lambda: {"checks": service_checks(rig, config_file,
                                                                 checks_cache)})
        adopt_journaled_seats(app, rig.service, data_dir)
        table.attach(rig.service)
        seat_running_game(app, rig)
        shown = shown_urls(host, port)
        mode = "virtual board" if args.sim else f"board {rig.profile.name}"
        # the listeners took connections since open_listeners; the app serves them now
        print(f"riskboard: serving on {' and '.join(u + '/' for u in shown)} ({mode}, "
              f"data in {data_dir})", flush=True)
        print(f"riskboard: host page {shown[-1]}/host  host PIN {pin}", flush=True)
        print(f"riskboard: phones join at {phones}/", flush=True)
        notifier.ready(f"serving on port {port}")
        log.info("event=serve.ready port=%s ms=%.0f", port, (time.monotonic() - started) * 1e3)
        if args.autoplay and args.sim:
            start_autoplay(rig)
        threading.Thread(target=warm_up, name="warm-up", daemon=True).start()
        stop.wait()  # a signal's handler sets it: this thread sleeps until then
    finally:
        notifier.stopping("shutting down")
        server.stop()  # every stream ends before the table stops
        log.info("event=web.stopped")
        rig.stop()
        log.info("event=serve.stopped")
    return 0
