"""Benchmark: live-update push latency to 30 phones (SSE clients) during a simulated game.

Serves the web app with waitress on 127.0.0.1 (a free port) around a table, connects 30
event-stream clients (a third of them private streams with seat tickets; every client is
on 127.0.0.1, so the per-address and total stream caps are raised to the client count), and
lets the SimpleBot play commands through POST /api/command at a steady pace. Latency = from the
table publishing a command's update (seq assigned, after journaling) to each client
receiving the message that carries that seq. Also checks that every client received every
update exactly once and in order. Aim: p99 < 100 ms.

The table is the real one of `riskboard serve --sim` (table loop, SQLite journal with
fsync, emulated Pico, memory LEDs).

Run: .venv/bin/python -m bench.web_push [--clients 30] [--commands 300] [--rate 20]
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import tempfile
import threading
import time
from pathlib import Path

from pi_app.computer.simple_bot import SimpleBot
from pi_app.table_api import Viewer
from pi_app.web import create_app
from pi_app.web.serve import start_background


class StreamClient(threading.Thread):
    """One phone: reads the event stream and notes when each seq arrived."""

    def __init__(self, port: int, ticket: str | None) -> None:
        super().__init__(daemon=True)
        self.port = port
        self.ticket = ticket
        self.seen: list[int] = []
        self.arrived: dict[int, float] = {}
        self.ready = threading.Event()
        self.stop = False

    def run(self) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        path = "/api/events" + (f"?ticket={self.ticket}" if self.ticket else "")
        conn.request("GET", path)
        resp = conn.getresponse()
        data = None
        while not self.stop:
            line = resp.readline()
            if not line:
                break
            if line.startswith(b"data: "):
                data = line[6:]
            elif line == b"\n" and data is not None:
                now = time.perf_counter()
                msg = json.loads(data)
                for update in msg["updates"]:
                    if not msg["reset"]:
                        self.seen.append(update["seq"])
                        self.arrived[update["seq"]] = now
                data = None
                self.ready.set()
        conn.close()


def main(argv: list[str] | None = None) -> None:
    """Run the benchmark and print p50/p99 push latency and the ordering check."""
    parser = argparse.ArgumentParser(prog="bench.web_push")
    parser.add_argument("--clients", type=int, default=30)
    parser.add_argument("--commands", type=int, default=300)
    parser.add_argument("--rate", type=float, default=20.0, help="commands per second")
    args = parser.parse_args(argv)

    tmp = Path(tempfile.mkdtemp(prefix="riskboard-bench-"))
    from pi_app.config import load_config
    from pi_app.table.rig import build_rig

    rig = build_rig(load_config(None), sim=True, data_dir=tmp / "data")
    rig.start()
    table = rig.service
    current_state = lambda: table.loop.publisher.snapshot.state  # noqa: E731
    app = create_app(table, host_pin="00000000", data_dir=tmp / "data",
                     command_rate=(10_000.0, 10_000), join_rate=(10_000.0, 10_000),
                     streams_per_client=args.clients, streams_total=args.clients)
    accepted: dict[int, float] = {}
    start_seq = int(table.view(Viewer("spectator"))["seq"])
    # stamp each seq just before the table publishes it (conservative: includes the publish)
    publisher = table.loop.publisher
    publish = publisher.publish

    def timed_publish(snapshot, *more, **kw):
        now = time.perf_counter()
        publish(snapshot, *more, **kw)
        accepted.setdefault(snapshot.revision, now)

    publisher.publish = timed_publish
    tokens = app.extensions["riskboard"].seats.issue_all(list(current_state().players))
    server = start_background(app, threads=args.clients + 16)
    tickets = app.extensions["riskboard"].tickets
    players = list(tokens)
    players_of = current_state().players
    clients = [
        StreamClient(server.port,
                     tickets.issue(tokens[players[i % len(players_of)]]) if i % 3 == 0
                     else None)
        for i in range(args.clients)
    ]
    for c in clients:
        c.start()
    for c in clients:
        c.ready.wait(10)

    bot = SimpleBot()
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    sent = 0
    start = time.perf_counter()
    while sent < args.commands and current_state().winner is None:
        state = current_state()
        player = state.pending["player"] if state.pending else state.current_player
        command = bot.choose(state, player).to_dict()
        body = json.dumps({"command": command})
        conn.request("POST", "/api/command", body=body, headers={
            "Content-Type": "application/json", "X-Seat-Token": tokens[player]})
        resp = conn.getresponse()
        resp.read()
        if resp.status != 200:
            raise SystemExit(f"command refused: {resp.status} {command} {resp.read()!r}")
        sent += 1
        waited = time.perf_counter() + 1.0
        while current_state() is state and time.perf_counter() < waited:
            time.sleep(0.0005)  # the loop publishes right after it answers
        time.sleep(max(0.0, start + sent / args.rate - time.perf_counter()))
    time.sleep(0.2)
    last = int(table.view(Viewer("spectator"))["seq"])
    deadline = time.perf_counter() + 5
    while time.perf_counter() < deadline and any(
            (c.seen[-1] if c.seen else -1) < last for c in clients):
        time.sleep(0.05)
    server.stop()
    for c in clients:
        c.stop = True
    rig.stop()

    latencies = [
        (c.arrived[s] - accepted[s]) * 1000
        for c in clients for s in c.seen if s in accepted
    ]
    expected = sorted(s for s in accepted if start_seq < s <= last)
    complete = sum(1 for c in clients if c.seen == expected)
    latencies.sort()
    p50 = statistics.median(latencies)
    p99 = latencies[int(len(latencies) * 0.99) - 1]
    print(f"web push (real table): {args.clients} SSE clients, {sent} commands at "
          f"{args.rate:g}/s, {len(expected)} updates, {len(latencies)} deliveries; "
          f"latency accepted->received: p50 {p50:.1f} ms, p99 {p99:.1f} ms, "
          f"max {latencies[-1]:.1f} ms (aim p99 < 100 ms) {'OK' if p99 < 100 else 'MISS'}")
    print(f"  clients with every update exactly once and in order: {complete}/{args.clients} "
          f"(aim all) {'OK' if complete == args.clients else 'MISS'}")


if __name__ == "__main__":
    main()
