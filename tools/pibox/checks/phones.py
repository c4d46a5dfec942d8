"""Check 6: thirty phones on the live stream at once."""

from __future__ import annotations

import contextlib
import http.client
import json
import threading
import time

from tools.pibox.constants import PLAYERS, PORT
from tools.pibox.errors import CheckFailed
from tools.pibox.run import Run
from tools.pibox.web import post_json


class Phone(threading.Thread):
    """One phone on the live stream, from its own loopback address (the service allows a
    few streams per address), noting every update's seq."""

    def __init__(self, address: str, ticket: str | None) -> None:
        super().__init__(daemon=True)
        self.address = address
        self.ticket = ticket
        self.seqs: list[int] = []
        self.ready = threading.Event()
        self.error: str | None = None
        self.conn: http.client.HTTPConnection | None = None

    def run(self) -> None:
        try:
            self.conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=120,
                                                   source_address=(self.address, 0))
            path = "/api/events" + (f"?ticket={self.ticket}" if self.ticket else "")
            self.conn.request("GET", path)
            resp = self.conn.getresponse()
            if resp.status != 200:
                self.error = f"{self.address}: stream answered {resp.status}"
                self.ready.set()
                return
            data = None
            while True:
                line = resp.readline()
                if not line:
                    break
                if line.startswith(b"data: "):
                    data = line[6:]
                elif line == b"\n" and data is not None:
                    msg = json.loads(data)
                    if not msg.get("reset"):
                        self.seqs.extend(u["seq"] for u in msg.get("updates", []))
                    data = None
                    self.ready.set()
        except OSError as exc:
            if not self.ready.is_set() or self.error is None:
                self.error = self.error or f"{self.address}: {exc}"
        finally:
            self.ready.set()

    def close(self) -> None:
        """Hang up."""
        if self.conn is not None and self.conn.sock is not None:
            with contextlib.suppress(OSError):
                self.conn.sock.shutdown(2)


def check_6_phones(run: Run) -> str:
    """6. 30 phones on the live stream at once stay inside TasksMax and MemoryMax, and every
    update reaches every phone."""
    assert run.game is not None
    box = run.box
    tickets = []
    for player in PLAYERS:  # a private stream per seat; the other phones watch
        answer = post_json("/api/stream-ticket", {}, {"X-Seat-Token": run.game.tokens[player]})
        tickets.append(answer.get("ticket"))
    phones = [Phone(f"127.0.1.{i + 1}", tickets[i] if i < len(tickets) else None)
              for i in range(30)]
    for phone in phones:
        phone.start()
    for phone in phones:
        phone.ready.wait(120)
    errors = [p.error for p in phones if p.error]
    if errors:
        raise CheckFailed(f"{len(errors)} of 30 phones could not open the stream: {errors[:3]}")
    pid = box.main_pid()
    tasks_max = int(box.unit("TasksMax"))
    memory_max = int(box.unit("MemoryMax"))
    peak_threads = peak_rss = 0
    first_seq = run.game.view()["seq"]
    done = threading.Event()

    def sample() -> None:
        nonlocal peak_threads, peak_rss
        while not done.is_set():
            with contextlib.suppress(Exception):
                status = box.proc_status(pid)
                peak_threads = max(peak_threads, int(status["Threads"]))
                peak_rss = max(peak_rss, int(status["VmRSS"].split()[0]) * 1024)
            time.sleep(1)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    run.game.play(30)
    last_seq = run.game.view()["seq"]
    deadline = time.monotonic() + 60
    expected = list(range(first_seq + 1, last_seq + 1))
    while time.monotonic() < deadline and any(
            [s for s in p.seqs if s > first_seq] != expected for p in phones):
        time.sleep(0.5)
    done.set()
    sampler.join(5)
    for phone in phones:
        phone.close()
    missing = [p.address for p in phones if [s for s in p.seqs if s > first_seq] != expected]
    if missing:
        raise CheckFailed(f"{len(missing)} of 30 phones did not get every update exactly once "
                          f"in order (e.g. {missing[:3]})")
    if peak_threads > tasks_max:
        raise CheckFailed(f"with 30 phones the service ran {peak_threads} threads, above "
                          f"TasksMax={tasks_max}")
    if peak_rss > memory_max:
        raise CheckFailed(f"with 30 phones the service used {peak_rss >> 20} MiB, above "
                          f"MemoryMax={memory_max >> 20} MiB (qemu's own memory included)")
    return (f"30 phones got all {len(expected)} updates in order; peak {peak_threads} threads "
            f"(TasksMax={tasks_max}), peak RSS {peak_rss >> 20} MiB under qemu "
            f"(MemoryMax={memory_max >> 20} MiB)")
