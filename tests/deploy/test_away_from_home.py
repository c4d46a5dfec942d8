"""Away from home (issue 24.4): seat links follow the address the Pi has now, and the
printable table card carries the table's Wi-Fi and its page as QR codes."""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
from pathlib import Path

import pytest
import segno

from pi_app.table.starting import StartingTable
from pi_app.web import create_app
from pi_app.web.table_card import TableWifi, table_card_svg

REPO = Path(__file__).resolve().parents[2]
host = importlib.import_module("pi_app.web.host")  # the module (pi_app.web.host is a blueprint)


@pytest.fixture
def app(tmp_path: Path):
    """The web app as serve makes it before the table is up, no public_url configured."""
    return create_app(StartingTable(), host_pin="13572468", data_dir=tmp_path / "data")


def base_for(app, host_header: str) -> str:
    with app.test_request_context("/", base_url=f"http://{host_header}"):
        return host.seat_base()


def test_a_host_page_on_the_pi_itself_gives_phones_the_address_it_has_now(app, monkeypatch):
    app.extensions["riskboard"].bind_host = "0.0.0.0"  # serve listens on every address
    now = {"address": None}
    monkeypatch.setattr(host, "address_now", lambda family: now["address"])
    assert base_for(app, "localhost:8080") == "http://localhost:8080/"  # no network yet
    now["address"] = "10.42.0.1"  # the table's own hotspot came up (no default route)
    assert base_for(app, "localhost:8080") == "http://10.42.0.1:8080/"
    now["address"] = "192.168.1.20"  # back on the home Wi-Fi: links follow, not frozen
    assert base_for(app, "127.0.0.1:8080") == "http://192.168.1.20:8080/"
    # a .local name (many Android phones cannot resolve it) gives way to the address too
    monkeypatch.setattr(host, "this_machine", lambda bind: {"raspberrypi.local"})
    assert base_for(app, "raspberrypi.local:8080") == "http://192.168.1.20:8080/"


def test_a_host_page_opened_by_an_address_keeps_it(app, monkeypatch):
    app.extensions["riskboard"].bind_host = "0.0.0.0"
    monkeypatch.setattr(host, "address_now", lambda family: "192.168.1.20")
    monkeypatch.setattr(host, "this_machine", lambda bind: {"localhost", "10.42.0.1"})
    assert base_for(app, "10.42.0.1:8080") == "http://10.42.0.1:8080/"


def test_a_listener_on_loopback_only_keeps_loopback(app, monkeypatch):
    app.extensions["riskboard"].bind_host = "127.0.0.1"
    monkeypatch.setattr(host, "address_now", lambda family: "192.168.1.20")
    assert base_for(app, "127.0.0.1:8080") == "http://127.0.0.1:8080/"


def test_address_now_names_an_interface_without_a_default_route(monkeypatch):
    import socket

    class NoRoute:
        def __init__(self, *args):
            pass

        def __enter__(self):
            return self

        def __exit__(self, *args):
            return False

        def connect(self, address):
            raise OSError(101, "Network is unreachable")

    monkeypatch.setattr(host.socket, "socket", NoRoute)
    monkeypatch.setattr(host, "interface_addresses", lambda: {"127.0.0.1", "10.42.0.1", "::1"})
    assert host.address_now(socket.AF_INET) == "10.42.0.1"
    monkeypatch.setattr(host, "interface_addresses", lambda: {"127.0.0.1"})
    assert host.address_now(socket.AF_INET) is None


def qr_paths(svg: str) -> list[str]:
    return re.findall(r'<path[^>]* d="([^"]+)"', svg)


def expected_path(data: str) -> str:
    import io
    out = io.BytesIO()
    segno.make(data, error="m").save(out, kind="svg", scale=1, border=2, xmldecl=False,
                                     omitsize=True, nl=False)
    return qr_paths(out.getvalue().decode())[0]


def test_the_card_encodes_the_wifi_and_the_page():
    wifi = TableWifi("riskboard-table", 'dice;and:"armies"')
    svg = table_card_svg("http://10.42.0.1:8080", wifi, "en")
    # the Wi-Fi code holds the WIFI: text with ; : " escaped, as phone cameras read it
    assert wifi.qr_data() == 'WIFI:T:WPA;S:riskboard-table;P:dice\\;and\\:\\"armies\\";;'
    assert qr_paths(svg) == [expected_path(wifi.qr_data()),
                             expected_path("http://10.42.0.1:8080")]
    assert "Network: riskboard-table" in svg and "http://10.42.0.1:8080" in svg
    assert "Password: dice;and:&quot;armies&quot;" in svg or 'Password: dice;and:"armies"' in svg


def test_a_card_for_a_known_wifi_has_only_the_page_and_speaks_the_language():
    svg = table_card_svg("http://192.168.1.20:8080", None, "ko")
    assert len(qr_paths(svg)) == 1
    assert "테이블 페이지를 여세요" in svg and "Wi-Fi" not in svg


@pytest.mark.parametrize("lang", ["en", "ko", "ja", "fr"])
def test_every_language_has_the_cards_words(lang):
    from pi_app.web.table_card import words

    keys = {"title", "wifi", "page", "page_only", "network", "password", "open_network", "scan"}
    assert set(words(lang)) == keys
    english = words("en")
    if lang != "en":
        import json
        own = json.loads((REPO / "pi_app/web/i18n" / f"{lang}.json").read_text("utf-8"))
        assert all(f"tablecard.{k}" in own and own[f"tablecard.{k}"] != english[k]
                   for k in keys)


def test_the_cli_writes_the_card_and_refuses_a_bad_address(tmp_path):
    out = tmp_path / "card.svg"
    run = subprocess.run([sys.executable, "-m", "pi_app", "table-card", "--url",
                          "http://10.42.0.1:8080", "--wifi-ssid", "t", "--wifi-password",
                          "12345678", "--out", str(out)], capture_output=True, text=True,
                         cwd=REPO, timeout=60)
    assert run.returncode == 0, run.stderr
    assert out.read_text().startswith("<svg") and len(qr_paths(out.read_text())) == 2
    bad = subprocess.run([sys.executable, "-m", "pi_app", "table-card", "--url", "10.42.0.1"],
                         capture_output=True, text=True, cwd=REPO, timeout=60)
    assert bad.returncode == 2 and "must start with http://" in bad.stderr


# --- install.sh --hotspot ---------------------------------------------------------------


def hotspot_install(installer, *extra: str, check: bool = True):
    for name in ("systemctl", "udevadm"):
        installer.stub(name)
    return installer.run("--root", str(installer.root), "--no-pip", "--services", "live",
                         "--model-file", str(installer.model_file), "--python", sys.executable,
                         *extra, check=check)


def test_hotspot_adds_a_low_priority_access_point_and_writes_the_card(installer):
    installer.stub("nmcli")
    run = hotspot_install(installer, "--hotspot", "--hotspot-ssid", "our-table",
                          "--hotspot-password", "armies-42")
    (add,) = [c for c in installer.calls() if c.startswith("nmcli connection add")]
    for words in ("type wifi ifname wlan0 con-name riskboard-hotspot",
                  "connection.autoconnect-priority -100", "802-11-wireless.ssid our-table",
                  "802-11-wireless.mode ap", "ipv4.method shared",
                  "ipv4.addresses 10.42.0.1/24", "wifi-sec.key-mgmt wpa-psk",
                  "wifi-sec.psk armies-42"):
        assert words in add, (words, add)
    card = installer.path("/etc/riskboard/table-card.svg").read_text()
    assert len(qr_paths(card)) == 2
    assert qr_paths(card)[0] == expected_path("WIFI:T:WPA;S:our-table;P:armies-42;;")
    assert qr_paths(card)[1] == expected_path("http://10.42.0.1:8080")
    assert "wrote the table card /etc/riskboard/table-card.svg" in run.stdout


def test_a_second_run_modifies_the_profile_and_keeps_its_password(installer):
    installer.stub("nmcli", f"""#!/bin/sh
echo "nmcli $*" >> "{installer.calls_log}"
case "$*" in
  "-t -f NAME connection show") echo riskboard-hotspot ;;
  "-s -g 802-11-wireless-security.psk connection show riskboard-hotspot") echo kept-password ;;
esac
""")
    hotspot_install(installer, "--hotspot")
    calls = installer.calls()
    assert not any(c.startswith("nmcli connection add") for c in calls)
    (modify,) = [c for c in calls if c.startswith("nmcli connection modify")]
    assert "wifi-sec.psk kept-password" in modify


@pytest.mark.parametrize(("args", "words"), [
    (("--hotspot-password", "short"), "--hotspot-password must be 8 to 63 characters"),
    (("--hotspot",), "--hotspot needs NetworkManager (nmcli)"),
])
def test_a_hotspot_that_cannot_work_is_refused_before_anything_changes(installer, args, words):
    from .conftest import snapshot

    before = snapshot(installer.root)
    run = hotspot_install(installer, *args, check=False)  # no nmcli here (CI has none)
    assert run.returncode == 1 and words in run.stderr
    assert snapshot(installer.root) == before
