"""pi_app.systemd_notify against a real AF_UNIX datagram socket standing in for systemd."""

from __future__ import annotations

import itertools
import os
import socket
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from pi_app.systemd_notify import Heartbeat, Notifier, watchdog_interval


@pytest.fixture
def systemd_socket() -> Iterator[tuple[str, socket.socket]]:
    """A bound datagram socket, like the one systemd passes in $NOTIFY_SOCKET.

    Made under a short temp dir: AF_UNIX paths are limited to 108 bytes.
    """
    folder = tempfile.mkdtemp(prefix="sdn")
    path = os.path.join(folder, "notify")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(2)
    try:
        yield path, sock
    finally:
        sock.close()
        Path(path).unlink(missing_ok=True)
        os.rmdir(folder)


def received(sock: socket.socket) -> str:
    return sock.recv(4096).decode()


def test_ready_sends_ready_and_status_in_one_datagram(
    systemd_socket: tuple[str, socket.socket],
) -> None:
    path, sock = systemd_socket
    notifier = Notifier.from_environment({"NOTIFY_SOCKET": path})
    assert notifier.ready("serving on :8080") is True
    assert received(sock) == "READY=1\nSTATUS=serving on :8080"


def test_watchdog_ping_and_status(systemd_socket: tuple[str, socket.socket]) -> None:
    path, sock = systemd_socket
    notifier = Notifier(path)
    notifier.watchdog()
    notifier.status("game 3: red's turn\n(attack)")
    notifier.stopping()
    assert received(sock) == "WATCHDOG=1"
    assert received(sock) == "STATUS=game 3: red's turn (attack)"  # one line
    assert received(sock) == "STOPPING=1"


def test_abstract_namespace_socket_is_reached() -> None:
    name = f"riskboard-test-{os.getpid()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(b"\0" + name.encode())
        sock.settimeout(2)
        assert Notifier("@" + name).ready() is True
        assert received(sock) == "READY=1"


def test_without_systemd_every_call_is_a_quiet_no_op() -> None:
    notifier = Notifier.from_environment({})
    assert notifier.enabled is False
    assert notifier.ready() is False
    assert notifier.watchdog() is False
    assert notifier.heartbeat().beat() is False


def test_vanished_socket_returns_false_instead_of_raising(tmp_path: Path) -> None:
    assert Notifier(str(tmp_path / "gone")).watchdog() is False


def test_line_with_a_newline_is_refused(systemd_socket: tuple[str, socket.socket]) -> None:
    path, _ = systemd_socket
    with pytest.raises(ValueError, match="newline"):
        Notifier(path).notify("STATUS=a\nREADY=1")


def test_watchdog_interval_comes_from_watchdog_usec() -> None:
    assert watchdog_interval({"WATCHDOG_USEC": "30000000"}) == 30.0
    assert watchdog_interval({}) is None
    assert watchdog_interval({"WATCHDOG_USEC": "0"}) is None
    assert watchdog_interval({"WATCHDOG_USEC": "soon"}) is None


def test_watchdog_meant_for_another_process_is_ignored() -> None:
    mine = {"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": str(os.getpid())}
    other = {"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": str(os.getpid() + 1)}
    assert watchdog_interval(mine) == 30.0
    assert watchdog_interval(other) is None


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def watched(systemd_socket: tuple[str, socket.socket]
            ) -> tuple[Heartbeat, FakeClock, socket.socket]:
    """A heartbeat for systemd's 30 s watchdog on a hand clock, and the socket it pings."""
    path, sock = systemd_socket
    clock = FakeClock()
    return Heartbeat(Notifier(path, interval=30.0), clock), clock, sock


def test_heartbeat_pings_at_most_every_half_interval(
    systemd_socket: tuple[str, socket.socket],
) -> None:
    heartbeat, clock, sock = watched(systemd_socket)
    sent = []
    for step in range(40):  # one beat per second for 40 s
        clock.now = 100.0 + step
        sent.append(heartbeat.beat())
    assert [i for i, ok in enumerate(sent) if ok] == [0, 15, 30]
    assert [received(sock) for _ in range(3)] == ["WATCHDOG=1"] * 3


def test_heartbeat_without_a_watchdog_never_pings(
    systemd_socket: tuple[str, socket.socket],
) -> None:
    path, _ = systemd_socket
    assert Heartbeat(Notifier(path, interval=None)).beat() is False


def test_a_loop_sleeping_its_longest_between_beats_pings_well_within_the_watchdog(
    systemd_socket: tuple[str, socket.socket],
) -> None:
    heartbeat, clock, sock = watched(systemd_socket)
    assert heartbeat.longest_sleep == 5.0  # woken 12 times a minute, not 120
    pinged = []
    for _ in range(30):  # a loop with nothing to do: it beats, then sleeps its longest
        if heartbeat.beat():
            assert received(sock) == "WATCHDOG=1"
            pinged.append(clock.now)
        clock.now += heartbeat.longest_sleep
    gaps = [b - a for a, b in itertools.pairwise(pinged)]
    assert gaps and max(gaps) <= 30.0 * 2 / 3  # systemd would wait for 30
    assert Heartbeat(Notifier(systemd_socket[0], interval=None)).longest_sleep is None
