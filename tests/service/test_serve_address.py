"""The addresses `riskboard serve` prints are ones a person can open: a listener on `::`
is IPv6 only (`pi_app.web_port`), so it shows `[::1]` and the machine's IPv6 address on
the network, not 127.0.0.1 or an IPv4 address it does not answer at."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import urllib.request

import pytest

from pi_app.cli import serve as serve_cli

ON_THE_NETWORK = {socket.AF_INET: "192.168.1.20", socket.AF_INET6: "fd00::5"}


@pytest.fixture
def network(monkeypatch) -> list[tuple[int, ...]]:
    """A machine with an IPv4 and an IPv6 address on its network; records the families
    each look-up asked for."""
    asked: list[tuple[int, ...]] = []

    def lan_address(families=None):
        asked.append(tuple(families or ()))
        for family in families or (socket.AF_INET, socket.AF_INET6):
            if family in ON_THE_NETWORK:
                return ON_THE_NETWORK[family]
        return None

    monkeypatch.setattr(serve_cli, "lan_address", lan_address)
    return asked


@pytest.mark.parametrize(("host", "shown", "phones"), [
    ("::", ["http://[::1]:8080", "http://[fd00::5]:8080"], "http://[fd00::5]:8080"),
    ("0.0.0.0", ["http://127.0.0.1:8080", "http://192.168.1.20:8080"],
     "http://192.168.1.20:8080"),
    ("127.0.0.1", ["http://127.0.0.1:8080"], "http://127.0.0.1:8080"),
    ("::1", ["http://[::1]:8080"], "http://[::1]:8080"),
])
def test_every_address_shown_is_of_the_listeners_family(network, host, shown, phones):
    assert serve_cli.shown_urls(host, 8080) == shown
    assert serve_cli.public_url("", host, 8080) == phones


def test_a_machine_without_a_network_shows_loopback_of_the_listeners_family(monkeypatch):
    monkeypatch.setattr(serve_cli, "lan_address", lambda families=None: None)
    assert serve_cli.shown_urls("::", 80) == ["http://[::1]"]
    assert serve_cli.public_url("", "::", 80) == "http://[::1]"


@pytest.mark.slow
def test_serve_on_every_ipv6_address_prints_urls_that_answer(tmp_path):
    with socket.socket(socket.AF_INET6) as s:
        s.bind(("::1", 0))
        port = int(s.getsockname()[1])
    env = {k: v for k, v in os.environ.items() if not k.startswith("RISKBOARD_")}
    env["RISKBOARD_HOST_PIN"] = "135790"
    server = subprocess.Popen(
        [sys.executable, "-m", "pi_app", "serve", "--sim", "--host", "::", "--port",
         str(port), "--data", str(tmp_path / "data")],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True)
    try:
        lines = [server.stdout.readline() for _ in range(3)]
        urls = [u.rstrip("/") for line in lines for u in re.findall(r"http://\S+", line)]
        assert f"http://[::1]:{port}" in urls, lines
        assert not any("127.0.0.1" in u for u in urls), lines
        for url in dict.fromkeys(u.removesuffix("/host") for u in urls):
            with urllib.request.urlopen(f"{url}/api/status", timeout=30) as answer:
                assert answer.status == 200, url
    finally:
        server.terminate()
        assert server.wait(20) == 0
