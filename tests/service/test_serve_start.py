"""`riskboard serve` tells systemd READY only once its web port accepts connections, and a
port it cannot have is a sentence and an exit code, not a traceback (issue 11, check 2)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import urllib.request

import pytest

from pi_app.cli import main
from pi_app.web_port import EXIT_PORT_UNAVAILABLE, PortUnavailable, open_listeners


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.slow
def test_ready_reaches_systemd_only_once_the_web_port_accepts_connections(tmp_path):
    notify_path = str(tmp_path / "notify")
    systemd = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    systemd.bind(notify_path)
    systemd.settimeout(60)
    port = free_port()
    env = dict(os.environ, RISKBOARD_HOST_PIN="135790", NOTIFY_SOCKET=notify_path)
    server = subprocess.Popen(
        [sys.executable, "-m", "pi_app", "serve", "--sim", "--port", str(port),
         "--data", str(tmp_path / "data")],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True)
    try:
        message = systemd.recv(4096).decode()
        # freeze the service the instant READY arrives: whatever it has not done yet, it
        # cannot do now, so the port must already take connections by itself
        server.send_signal(signal.SIGSTOP)
        assert "READY=1" in message.splitlines()
        with socket.create_connection(("127.0.0.1", port), timeout=5):
            pass
        assert f"serving on http://127.0.0.1:{port}/" in server.stdout.readline()
        server.send_signal(signal.SIGCONT)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/status", timeout=30) as r:
            assert json.load(r)["loop"]["running"] is True
    finally:
        server.send_signal(signal.SIGCONT)
        server.send_signal(signal.SIGTERM)
        assert server.wait(20) == 0
        systemd.close()


def test_a_port_already_taken_is_a_sentence_and_exit_code_and_nothing_starts(
        tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("RISKBOARD_HOST_PIN", "135790")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code = main(["serve", "--sim", "--host", "127.0.0.1", "--port", str(port),
                     "--data", str(tmp_path / "data")])
    err = capsys.readouterr().err
    assert code == EXIT_PORT_UNAVAILABLE == 3
    assert (f"riskboard: cannot serve the web pages: port {port} on 127.0.0.1 is already in "
            "use by another program") in err
    assert "--port" in err and "Traceback" not in err
    assert not (tmp_path / "data").exists()  # no journal was opened, no table started


def test_an_address_of_another_machine_is_named(tmp_path):
    with pytest.raises(PortUnavailable, match=r"192\.0\.2\.1 is not an address of this machine"):
        open_listeners("192.0.2.1", free_port())  # TEST-NET-1: never assigned here


def test_port_zero_takes_one_free_port_for_every_address_of_a_name():
    listeners = open_listeners("localhost", 0)
    try:
        ports = {s.getsockname()[1] for s in listeners}
        assert len(ports) == 1 and ports != {0}
        with socket.create_connection(("localhost", ports.pop()), timeout=5):
            pass  # listening at once, before any server loop runs
    finally:
        for s in listeners:
            s.close()



def test_a_data_folder_that_cannot_be_made_is_a_sentence_not_a_traceback(
        tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("RISKBOARD_HOST_PIN", "135790")
    blocker = tmp_path / "file"
    blocker.write_text("")  # a file where a folder should be
    umask = os.umask(0o022)  # serve sets its private umask for the whole process
    try:
        code = main(["serve", "--sim", "--host", "127.0.0.1", "--port", "0",
                     "--data", str(blocker / "data")])
    finally:
        os.umask(umask)
    err = capsys.readouterr().err
    assert code == 1
    assert f"riskboard: cannot use the data folder {blocker / 'data'}: " in err
    assert "Traceback" not in err
