"""A night at the table: `riskboard serve --sim` for an hour of games, phones and mishaps.

Starts `riskboard serve --sim` in a temporary data folder and drives it only over HTTP and
SSE on 127.0.0.1 for `--minutes` (60) of wall time, then stops by itself:

- games back to back: the host starts each (POST /api/host/new_game, rotating `GAMES`) and
  gives every seat to the computer (POST /api/host/computer, going on after
  `COMPUTER_PACE_S` without Confirm); a game not won within `GAME_CAP_S` is given up and
  the next one started;
- six phones (`PHONES`), each from its own loopback address, follow the live stream
  (GET /api/events, resumed with Last-Event-ID as a browser does), fall asleep for a while
  and wake again; every `STORM_EVERY_MIN` minutes a reconnect storm drops all six at once,
  `STORM_ROUNDS` times in a row;
- the Pico resets a third of the way in and its cable is pulled and put back two thirds of
  the way in (POST /api/virtual/pico); the link must be connected again within
  `LINK_BACK_S`;
- the host page is reloaded every `HOST_RELOAD_EVERY_MIN` minutes (the page, its scripts
  and the calls it makes, and a short host stream);
- every `PROBE_EVERY_S` a touch probe: the host touches a territory on /virtual while a
  computer is on the move (a refused touch: the territory blinks error red) and the bench
  follows the virtual board's frames (GET /api/virtual/board?after=) until it does:
  touch → LED as the board shows it, HTTP included.

Each minute it samples the service's RSS, threads, open files, the journal's size (with
its WAL) and the minute's touch → LED p99, and writes them to `--csv` (bench/night.csv)
and, with matplotlib (the `bench` extra: ``pip install -e '.[bench]'``), a plot to
`--png` (bench/night.png). Errors are HTTP failures, streams the service ended, a link not
back after a Pico mishap, and ERROR lines or tracebacks in the service's log.

The lines end OK or MISS: memory growth per game after the first `WARM_GAMES` games
< 5 MiB (a least-squares slope of RSS at each game's end); threads and open files back to
their idle count once the phones are gone; 0 errors; touch → LED p99 flat (the last
tenth's p99 at most twice the first tenth's).

Run: ``.venv/bin/python -m bench.night --minutes 3`` (a try), ``nice -n 5 .venv/bin/python
-m bench.night`` (the hour).
"""

from __future__ import annotations

import argparse
import csv
import math
import random
import re
import socket
import statistics
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from bench._served import ServedSim, open_files, rss_mib, thread_count
from bench.table_latency import percentile

RUN_BY_MAKE_BENCH = False  # an hour: `make bench` leaves it out
MINUTES = 60.0
PHONES = 6
PHONE_ADDRESSES = tuple(f"127.0.0.{20 + n}" for n in range(PHONES))
AWAKE_S = (20.0, 120.0)  # a phone follows the game this long ...
ASLEEP_S = (5.0, 60.0)  # ... then sleeps this long
STORM_EVERY_MIN = 10.0
STORM_ROUNDS = 5
STORM_GAP_S = 2.0
HOST_RELOAD_EVERY_MIN = 5.0
PROBE_EVERY_S = 3.0
PROBE_WAIT_S = 2.0
COMPUTER_PACE_S = 0.25
GAME_CAP_S = 15 * 60.0
LINK_BACK_S = 30.0
WARM_GAMES = 2
AIM_GROWTH_MIB = 5.0
SAMPLE_EVERY_S = 60.0
ERROR_RED = [255, 0, 24]  # pi_app.table.lights.ERROR_RED: a refused touch's blink
GAMES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("classic", ("red", "blue", "green")),
    ("mission", ("red", "blue", "green", "yellow")),
    ("capital", ("red", "blue", "green")),
    ("classic", ("red", "blue", "green", "yellow", "black", "pink")),
)
HOST_PAGE_CALLS = ("/api/host/check", "/api/host/seats", "/api/status", "/api/state",
                   "/api/variants", "/api/dice", "/i18n/en.json")
CSV_FIELDS = ("minute", "rss_mib", "threads", "open_files", "journal_kib", "probes",
              "p99_ms", "games_won", "games_given_up", "errors", "stream_messages",
              "phones_awake", "events")


@dataclass
class Night:
    """What the night has seen so far (shared by the bench's threads)."""

    errors: list[str] = field(default_factory=list)
    latencies: list[tuple[float, float]] = field(default_factory=list)  # (at, ms)
    unanswered: int = 0
    games: list[tuple[float, str, float]] = field(default_factory=list)  # (at, how, RSS)
    messages: int = 0
    reconnects: int = 0
    awake: set[int] = field(default_factory=set)
    events: list[tuple[float, str]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def error(self, what: str) -> None:
        """Count one error (the first few are printed)."""
        with self.lock:
            self.errors.append(what)
            if len(self.errors) <= 10:
                print(f"  error: {what}", flush=True)

    def mark(self, what: str) -> None:
        """Note a scripted mishap (a storm, a Pico reset) for the plot."""
        with self.lock:
            self.events.append((time.monotonic(), what))
        print(f"  {what}", flush=True)


def wait(stop: threading.Event, seconds: float) -> bool:
    """Sleep `seconds` unless the night ends first; True when it has ended."""
    return stop.wait(max(0.0, seconds))


class Phone(threading.Thread):
    """A phone following the live stream from its own address: awake for a while, asleep
    for a while, and dropped at once by a reconnect storm (`storm` moves on)."""

    def __init__(self, n: int, service: ServedSim, night: Night, stop: threading.Event,
                 storm: Callable[[], int], seed: int) -> None:
        super().__init__(name=f"phone-{n}", daemon=True)
        self.n = n
        self.service = service
        self.night = night
        self.stop = stop
        self.storm = storm
        self.rng = random.Random(seed)
        self.last_id: str | None = None

    def run(self) -> None:
        while not self.stop.is_set():
            stormed = self.follow(time.monotonic() + self.rng.uniform(*AWAKE_S))
            if not stormed and wait(self.stop, self.rng.uniform(*ASLEEP_S)):
                return

    def follow(self, until: float) -> bool:
        """Follow the stream until `until`; True when a storm dropped it."""
        seen_storm = self.storm()
        try:
            sock = socket.create_connection(("127.0.0.1", self.service.port), timeout=5,
                                            source_address=(PHONE_ADDRESSES[self.n], 0))
        except OSError as exc:
            self.night.error(f"phone {self.n} cannot connect: {exc}")
            return False
        with self.night.lock:
            self.night.awake.add(self.n)
            self.night.reconnects += 1
        try:
            resume = f"Last-Event-ID: {self.last_id}\r\n" if self.last_id else ""
            sock.sendall((f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                          f"Accept: text/event-stream\r\n{resume}Connection: close\r\n\r\n")
                         .encode())
            sock.settimeout(0.5)
            buffer = b""
            status_seen = False
            while time.monotonic() < until and not self.stop.is_set():
                if self.storm() != seen_storm:
                    return True
                try:
                    data = sock.recv(65536)
                except TimeoutError:
                    continue
                if not data:
                    self.night.error(f"phone {self.n}: the service ended its stream")
                    return False
                buffer += data
                if not status_seen and b"\r\n" in buffer:
                    status_line = buffer.split(b"\r\n", 1)[0].decode("latin-1")
                    status_seen = True
                    if " 200 " not in status_line:
                        self.night.error(f"phone {self.n}: {status_line}")
                        return False
                *lines, buffer = buffer.split(b"\n")
                for line in lines:
                    if line.startswith(b"id: "):
                        self.last_id = line[4:].strip().decode()
                    elif line.startswith(b"data: "):
                        with self.night.lock:
                            self.night.messages += 1
            return False
        except OSError as exc:
            self.night.error(f"phone {self.n}: {exc!r}")
            return False
        finally:
            sock.close()
            with self.night.lock:
                self.night.awake.discard(self.n)


def host_reload(service: ServedSim, night: Night) -> None:
    """The host page loaded again: the page, its scripts and styles, its calls, and its
    live stream for a moment."""
    try:
        with urllib.request.urlopen(service.base + "/host", timeout=10) as answer:
            page = answer.read().decode()
        for asset in re.findall(r'(?:src|href)="(/static/[^"]+)"', page):
            with urllib.request.urlopen(service.base + asset, timeout=10) as answer:
                answer.read()
        for call in HOST_PAGE_CALLS:
            service.get(call)
        ticket = service.post("/api/stream-ticket", {})["ticket"]
        with urllib.request.urlopen(f"{service.base}/api/events?ticket={ticket}",
                                    timeout=10) as answer:
            while not answer.readline().startswith(b"data: "):
                pass
    except (OSError, ValueError, KeyError) as exc:
        night.error(f"host page reload: {exc!r}")


def start_game(service: ServedSim, night: Night, number: int) -> None:
    """The host starts game `number` of the rotation and gives every seat to the computer."""
    variant, players = GAMES[number % len(GAMES)]
    rules = {"setup": "deal"} if variant == "classic" else {}
    try:
        service.post("/api/host/new_game", {"variant": variant, "players": list(players),
                                            "house_rules": rules})
        computers = dict.fromkeys(players, "normal")
        service.post("/api/host/computer", {"seats": computers, "paused": False,
                                            "confirm_after_s": COMPUTER_PACE_S})
    except OSError as exc:
        night.error(f"starting game {number} ({variant}): {exc!r}")


def board_after(service: ServedSim, version: str | None) -> dict:
    """The virtual board, once its frame moved on from `version` (or at once)."""
    after = f"?after={version}" if version else ""
    return service.get("/api/virtual/board" + after, timeout=30)


def probe(service: ServedSim, night: Night, territory: str, leds: list[int]) -> None:
    """Touch `territory` as the host and time it until its LEDs blink error red."""
    board = board_after(service, None)
    started = time.perf_counter()
    service.post("/api/virtual/touch", {"territory": territory})
    end = started + PROBE_WAIT_S
    while time.perf_counter() < end:
        if all(board["leds"][i] == ERROR_RED for i in leds):
            with night.lock:
                night.latencies.append((time.monotonic(), (time.perf_counter() - started)
                                        * 1000))
            return
        board = board_after(service, board["version"])
    with night.lock:
        night.unanswered += 1


def prober(service: ServedSim, night: Night, stop: threading.Event) -> None:
    """A touch probe every `PROBE_EVERY_S` while a computer is on the move."""
    layout = service.get("/api/virtual/board")["territory_leds"]
    names = sorted(layout)
    n = 0
    while not wait(stop, PROBE_EVERY_S):
        try:
            state = service.get("/api/state")["state"]
            if state is None or state.get("winner") or state.get("variant") == "strike":
                continue
            territory = names[n % len(names)]
            n += 1
            probe(service, night, territory, layout[territory])
        except (OSError, ValueError, KeyError) as exc:
            night.error(f"touch probe: {exc!r}")


def pico_mishap(service: ServedSim, night: Night, what: str) -> None:
    """Reset the Pico, or pull its cable and put it back; the link must come back."""
    try:
        if what == "reset":
            service.post("/api/virtual/pico", {"action": "reset"})
        else:
            service.post("/api/virtual/pico", {"action": "unplug"})
            time.sleep(3.0)
            service.post("/api/virtual/pico", {"action": "replug"})
        night.mark(f"Pico {what}")
        service.wait_connected(LINK_BACK_S)
    except (OSError, RuntimeError) as exc:
        night.error(f"Pico {what}: the link is not back ({exc!r})")


def journal_kib(service: ServedSim) -> float:
    """The journal's size on disk with its WAL and shared memory, KiB."""
    return sum(p.stat().st_size for p in service.data.glob("journal.sqlite*")) / 1024


def log_errors(log: Path) -> list[str]:
    """ERROR lines and tracebacks in the service's log."""
    if not log.exists():
        return []
    return [line for line in log.read_text(errors="replace").splitlines()
            if " ERROR " in line or line.startswith("Traceback")]


def growth_per_game(games: list[tuple[float, str, float]]) -> float | None:
    """Least-squares slope of RSS (MiB) at each game's end over the games after the
    first `WARM_GAMES`; None with fewer than two of them."""
    points = [rss for _at, _how, rss in games[WARM_GAMES:]]
    if len(points) < 2:
        return None
    xs = range(len(points))
    mean_x, mean_y = statistics.fmean(xs), statistics.fmean(points)
    num = sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, points, strict=True))
    den = sum((x - mean_x) ** 2 for x in xs)
    return num / den


def plot(rows: list[dict], events: list[tuple[float, str]], ends: list[tuple[float, float]],
         png: Path, title: str) -> str:
    """Draw the samples as a PNG (with RSS at each game's end, and the scripted mishaps as
    dashed lines); a sentence saying where, or why not."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return "no plot: matplotlib is missing (pip install -e '.[bench]')"
    minutes = [r["minute"] for r in rows]
    panels = (("RSS (MiB)", ("rss_mib",)), ("threads / open files", ("threads", "open_files")),
              ("journal (KiB)", ("journal_kib",)), ("touch → LED p99 (ms)", ("p99_ms",)),
              ("games won / errors", ("games_won", "errors")))
    fig, axes = plt.subplots(len(panels), 1, figsize=(9, 11), sharex=True)
    for ax, (label, keys) in zip(axes, panels, strict=True):
        for key in keys:
            values = [r[key] if r[key] != "" else math.nan for r in rows]
            ax.plot(minutes, values, marker=".", label=key)
        ax.set_ylabel(label)
        ax.grid(alpha=0.3)
        if len(keys) > 1:
            ax.legend(loc="upper left", fontsize="small")
        for at, what in events:
            ax.axvline(at, color="grey", alpha=0.4, linestyle="--")
            if ax is axes[0]:
                ax.annotate(what, (at, 1), xycoords=("data", "axes fraction"), fontsize=7,
                            rotation=90, va="top", ha="right", color="grey")
    axes[0].plot([m for m, _ in ends], [r for _, r in ends], "x", color="black",
                 label="a game ends")
    axes[0].legend(loc="lower right", fontsize="small")
    axes[-1].set_xlabel("minute")
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(png, dpi=90)
    plt.close(fig)
    return f"plot: {png}"


def main(argv: list[str] | None = None) -> None:
    """Play the night, sample it each minute, write the CSV and the plot, print the lines."""
    here = Path(__file__).parent
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=MINUTES,
                        help=f"wall time of the night (default {MINUTES:g})")
    parser.add_argument("--csv", type=Path, default=here / "night.csv")
    parser.add_argument("--png", type=Path, default=here / "night.png")
    parser.add_argument("--seed", type=int, default=1, help="the phones' sleep and wake")
    args = parser.parse_args(argv)
    night = Night()
    stop = threading.Event()
    storm = [0]
    log_file = Path(f"/tmp/riskboard-night-{int(time.time())}.log")
    with ServedSim(config="[buttons]\nhold_time = 0.1\n[log]\nlevel = \"warning\"\n",
                   log=log_file) as service:
        time.sleep(5.0)
        idle_threads, idle_files = thread_count(service.pid), open_files(service.pid)
        print(f"night of {args.minutes:g} min: service pid {service.pid}, idle: "
              f"{idle_threads} threads, {idle_files} open files, "
              f"{rss_mib(service.pid):.1f} MiB; log {log_file}", flush=True)
        started = time.monotonic()
        end = started + args.minutes * 60
        game_number = 0
        start_game(service, night, game_number)
        game_started = time.monotonic()
        game_id = service.get("/api/state")["state"]["game_id"]
        phones = [Phone(n, service, night, stop, lambda: storm[0], args.seed * 100 + n)
                  for n in range(PHONES)]
        helpers = [*phones, threading.Thread(target=prober, args=(service, night, stop),
                                             name="prober", daemon=True)]
        for thread in helpers:
            thread.start()
        schedule = night_schedule(started, args.minutes)
        rows: list[dict] = [sample(service, night, started, [], log_file)]
        next_sample = started + SAMPLE_EVERY_S
        sampled_probes = 0
        while time.monotonic() < end:
            now = time.monotonic()
            while schedule and schedule[0][0] <= now:
                _at, what = schedule.pop(0)
                if what == "storm":
                    night.mark("reconnect storm")
                    for _ in range(STORM_ROUNDS):
                        storm[0] += 1
                        time.sleep(STORM_GAP_S)
                elif what == "host":
                    host_reload(service, night)
                else:
                    pico_mishap(service, night, what)
            try:
                state = service.get("/api/state")["state"]
                over = state.get("winner") is not None
                if over or time.monotonic() - game_started > GAME_CAP_S:
                    how = "won" if over else "given up"
                    night.games.append((time.monotonic(), how, rss_mib(service.pid)))
                    game_number += 1
                    start_game(service, night, game_number)
                    game_started = time.monotonic()
                    game_id = service.get("/api/state")["state"]["game_id"]
                elif state.get("game_id") != game_id:
                    night.error(f"the game changed by itself ({game_id} -> "
                                f"{state.get('game_id')})")
                    game_id = state.get("game_id")
            except (OSError, ValueError, KeyError) as exc:
                night.error(f"following the game: {exc!r}")
            if time.monotonic() >= next_sample:
                next_sample += SAMPLE_EVERY_S
                with night.lock:
                    minute_probes = [ms for _at, ms in night.latencies[sampled_probes:]]
                    sampled_probes = len(night.latencies)
                rows.append(sample(service, night, started, minute_probes, log_file))
            time.sleep(1.0)
        stop.set()
        for thread in helpers:
            thread.join(10)
        time.sleep(5.0)  # the service notices the phones are gone
        with night.lock:
            minute_probes = [ms for _at, ms in night.latencies[sampled_probes:]]
        rows.append(sample(service, night, started, minute_probes, log_file))
        end_threads, end_files = thread_count(service.pid), open_files(service.pid)
        final_rss = rss_mib(service.pid)
        status = service.get("/api/status")
    for line in log_errors(log_file):
        night.error(f"service log: {line}")
    write_csv(args.csv, rows)
    lines = report(night, rows, (idle_threads, idle_files), (end_threads, end_files),
                   final_rss, status, args.minutes)
    events = [((at - started) / 60, what) for at, what in night.events]
    ends = [((at - started) / 60, rss) for at, _how, rss in night.games]
    lines.append(plot(rows, events, ends, args.png, f"riskboard serve --sim, a night of "
                      f"{args.minutes:g} min ({len(night.games)} games)"))
    lines.append(f"samples: {args.csv}")
    for line in lines:
        print(line, flush=True)


def night_schedule(started: float, minutes: float) -> list[tuple[float, str]]:
    """When each scripted mishap happens: the Pico reset at a third, the cable pulled at
    two thirds, a storm every `STORM_EVERY_MIN` (from half of it), the host page every
    `HOST_RELOAD_EVERY_MIN`; closer together in a short try, so it has each of them."""
    length = minutes * 60
    storm_every = min(STORM_EVERY_MIN * 60, length / 2)
    reload_every = min(HOST_RELOAD_EVERY_MIN * 60, length / 3)
    return sorted(
        [(started + length / 3, "reset"), (started + length * 2 / 3, "unplug")]
        + [(started + (k + 0.5) * storm_every, "storm")
           for k in range(int(length / storm_every))]
        + [(started + k * reload_every, "host") for k in range(int(length / reload_every))])


def sample(service: ServedSim, night: Night, started: float, probes: list[float],
           log_file: Path) -> dict:
    """One row of the samples (printed as it is taken)."""
    now = time.monotonic()
    with night.lock:
        won = sum(1 for _a, how, _r in night.games if how == "won")
        row = {"minute": round((now - started) / 60, 2),
               "rss_mib": round(rss_mib(service.pid), 2),
               "threads": thread_count(service.pid),
               "open_files": open_files(service.pid),
               "journal_kib": round(journal_kib(service), 1),
               "probes": len(probes),
               "p99_ms": round(percentile(probes, 0.99), 2) if probes else "",
               "games_won": won, "games_given_up": len(night.games) - won,
               "errors": len(night.errors) + len(log_errors(log_file)),
               "stream_messages": night.messages,
               "phones_awake": len(night.awake),
               "events": "; ".join(w for at, w in night.events
                                   if now - SAMPLE_EVERY_S < at <= now)}
    print("  " + " ".join(f"{k}={v}" for k, v in row.items()), flush=True)
    return row


def write_csv(path: Path, rows: list[dict]) -> None:
    """The minute samples as CSV."""
    with path.open("w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=CSV_FIELDS)
        writer.writeheader()
        writer.writerows(rows)


def report(night: Night, rows: list[dict], idle: tuple[int, int], after: tuple[int, int],
           final_rss: float, status: dict, minutes: float) -> list[str]:
    """The bench's closing lines, each OK or MISS against its aim."""
    won = sum(1 for _a, how, _r in night.games if how == "won")
    growth = growth_per_game(night.games)
    rss = [r["rss_mib"] for r in rows]
    lines = [f"games: {len(night.games)} ended ({won} won, {len(night.games) - won} given up "
             f"after {GAME_CAP_S / 60:g} min); RSS min {min(rss, default=0):.1f} max "
             f"{max(rss, default=0):.1f} final {final_rss:.1f} MiB; growth per game after "
             f"the first {WARM_GAMES}: "
             + (f"{growth:+.2f} MiB (aim < {AIM_GROWTH_MIB:g}) "
                f"{'OK' if growth < AIM_GROWTH_MIB else 'MISS'}" if growth is not None
                else f"not enough games (need {WARM_GAMES + 2}) MISS")]
    lines.append(f"threads {idle[0]} idle -> {after[0]} after, open files {idle[1]} idle -> "
                 f"{after[1]} after (aim: back to idle) "
                 f"{'OK' if after[0] <= idle[0] and after[1] <= idle[1] else 'MISS'}")
    link = status.get("link", {}).get("stats", {})
    leds = status.get("leds", {})
    lines.append(f"errors: {len(night.errors)} (aim 0) {'OK' if not night.errors else 'MISS'}; "
                 f"link reconnects {link.get('reconnects')}, Pico resets "
                 f"{link.get('pico_resets')}, painter errors {leds.get('errors')}, "
                 f"{night.reconnects} stream connections, {night.messages} messages")
    all_ms = [ms for _at, ms in night.latencies]
    if all_ms:
        tenth = max(1, len(all_ms) // 10)
        first, last = percentile(all_ms[:tenth], 0.99), percentile(all_ms[-tenth:], 0.99)
        flat = last <= 2 * first
        lines.append(f"touch -> LED (HTTP touch to the frame showing its blink): n={len(all_ms)}"
                     f" p50={statistics.median(all_ms):.1f} ms p99={percentile(all_ms, 0.99):.1f}"
                     f" ms max={max(all_ms):.1f} ms; first tenth p99 {first:.1f} ms, last tenth"
                     f" {last:.1f} ms ({night.unanswered} probes unanswered) (aim: flat) "
                     f"{'OK' if flat else 'MISS'}")
    else:
        lines.append(f"touch -> LED: no probe answered ({night.unanswered} unanswered) MISS")
    return lines


if __name__ == "__main__":
    main()
