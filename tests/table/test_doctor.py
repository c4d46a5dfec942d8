"""`riskboard doctor` as the pi user and with sudo beside a running service."""

from __future__ import annotations

import json
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
import serial

from hardware.profiles import load_profile
from pi_app.cli import doctor
from pi_app.config import config_from_dict
from pi_app.table.sim import make_emulator

PROFILE = load_profile("classic-42")


def test_an_unreadable_config_says_what_to_do_and_the_other_checks_still_run(
        tmp_path, monkeypatch):
    config = tmp_path / "config.toml"
    config.write_text("[leds]\nbrightness = 0.4\n")
    real_access = doctor.os.access
    monkeypatch.setattr(doctor.os, "access",
                        lambda path, mode: False if str(path) == str(config)
                        else real_access(path, mode))
    findings = {f.name: f for f in doctor.diagnose(config, sim=True)}
    assert not findings["config"].ok
    assert findings["config"].detail.startswith(f"permission denied reading {config}: run "
                                                "`sudo riskboard doctor` or add yourself to "
                                                "the riskboard group")
    assert findings["profile"].ok and findings["serial"].ok  # checked with the defaults
    assert {"storage", "leds", "buttons", "colours"} <= set(findings)


class StatusPage:
    """A stand-in for the running service's web: GET /api/status returns `status`."""

    def __init__(self, status: dict) -> None:
        body = json.dumps(status).encode()

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                self.send_response(200 if self.path == "/api/status" else 404)
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def held_port():
    """An emulated Pico whose port another program (the 'service') holds exclusively."""
    emulator = make_emulator(PROFILE)
    path = emulator.start()
    holder = serial.Serial(path, 115200, timeout=0, exclusive=True)
    try:
        yield path
    finally:
        holder.close()
        emulator.stop()


def test_a_port_held_by_the_running_service_reports_the_services_link(held_port):
    page = StatusPage({"link": {"state": "connected", "connected": True,
                                "firmware_version": "1.0.0", "board_id": "classic-42",
                                "profile_crc": "1234abcd",
                                "pico_faults": ["NFC reader 3 did not answer at boot"]}})
    try:
        cfg = config_from_dict({"serial": {"port": held_port}, "web": {"port": page.port}})
        detail, warning = doctor._serial(cfg, PROFILE, False, {})
    finally:
        page.close()
    assert detail.startswith("the riskboard service is using the Pico (that's fine); its "
                             "link status: connected, firmware 1.0.0")
    assert "the Pico reports: NFC reader 3 did not answer at boot" in detail and warning


def test_a_held_port_without_a_status_page_suggests_stopping_the_service(held_port):
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        free_port = probe.getsockname()[1]
    cfg = config_from_dict({"serial": {"port": held_port}, "web": {"port": free_port}})
    with pytest.raises(RuntimeError, match="run `sudo systemctl stop riskboard` to test"):
        doctor._serial(cfg, PROFILE, False, {})
