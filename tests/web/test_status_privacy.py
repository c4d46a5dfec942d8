"""What the public sees of the board's health (issue 21.6): never the data folder, the
Pico's device path or another machine path; the host and the machine itself see all."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pi_app.checks import service_checks
from pi_app.config import Config
from pi_app.table.loop import NewGameSpec
from pi_app.table.rig import build_rig
from pi_app.web import create_app

from .conftest import PIN, host

LAN = {"REMOTE_ADDR": "192.168.1.23"}  # a phone on the Wi-Fi
LAN6 = {"REMOTE_ADDR": "fd12:3456:789a::23"}


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """A simulated table as `riskboard serve --sim` builds it (rig, checks, LED fault),
    with its data folder under a name no answer could carry by chance."""
    data = tmp_path_factory.mktemp("private") / "riskboard-data-folder"

    def no_leds(backend, count, **opts):
        from hardware.errors import HardwareUnavailable

        raise HardwareUnavailable("no /dev/spidev0.0 (SPI is off)")

    from hardware.supervised import Backoff

    rig = build_rig(Config(), sim=True, data_dir=data, open_leds=no_leds,
                    backoff=lambda: Backoff(0.01, 0.05),
                    demo=NewGameSpec("classic", ("red", "blue", "green"), {"setup": "deal"}))
    rig.start()
    rig.service.add_status(lambda: {"checks": service_checks(rig, Path("/etc/riskboard/"
                                                                      "config.toml"), {})})
    app = create_app(rig.service, host_pin=PIN, data_dir=data)
    yield app, rig, data
    rig.stop()


def secrets_of(rig, data: Path) -> list[str]:
    """The machine's own paths the full status holds (checked to be there, below)."""
    port = rig.service.status()["link"]["port"]
    return [str(data), str(port), "/etc/riskboard", "/dev/spidev0.0"]


def test_the_full_status_holds_the_paths_this_test_looks_for(served):
    app, rig, data = served
    full = app.test_client().get("/api/status", headers=host(), environ_base=LAN)
    text = full.get_data(as_text=True)
    for path in secrets_of(rig, data):
        assert path in text, path  # else the test below would pass for nothing


@pytest.mark.parametrize("where", [LAN, LAN6], ids=["ipv4", "ipv6"])
def test_no_public_answer_holds_a_path(served, where):
    app, rig, data = served
    client = app.test_client()
    secrets = secrets_of(rig, data)
    public = ["/api/status", "/api/state", "/api/map", "/api/variants", "/api/dice",
              "/api/virtual/board", "/", "/me", "/host", "/dice", "/virtual",
              "/openapi.yaml", "/api/nothing-here", "/api/host/check"]
    for path in public:
        res = client.get(path, environ_base=where)
        assert res.status_code < 500, path
        text = res.get_data(as_text=True)
        for secret in secrets:
            assert secret not in text, (path, secret)
        assert "/dev/" not in text and "/var/lib" not in text, path


def test_the_public_status_keeps_what_the_pages_show(served):
    app, _rig, _data = served
    status = app.test_client().get("/api/status", environ_base=LAN).get_json()
    # any state of firmware_bridge/host_core.py (a loaded machine can ask mid-handshake)
    assert status["link"]["state"] in {"connected", "handshaking", "disconnected", "refused"}
    assert set(status["link"]) <= {"state", "connected", "healthy"}
    assert status["parts"]["leds"] == {"state": "missing"}
    assert status["game_id"] and "checks" not in status and "faults" not in status
    assert json.dumps(status).count("/") == 0


def test_the_host_and_the_machine_itself_see_everything(served):
    app, _rig, data = served
    client = app.test_client()
    for environ, headers in ((LAN, host()), ({"REMOTE_ADDR": "127.0.0.1"}, {}),
                             ({"REMOTE_ADDR": "::1"}, {})):
        status = client.get("/api/status", headers=headers, environ_base=environ).get_json()
        assert any(str(data) in c["detail"] for c in status["checks"]), environ
        assert status["faults"][0].startswith("The LED strip is not working")
    wrong = client.get("/api/status", headers=host("00000000"), environ_base=LAN)
    assert (wrong.status_code, wrong.get_json()["error"]["code"]) == (403, "bad_pin")


def test_why_the_table_could_not_start_stays_on_the_machine(tmp_path):
    from pi_app.table.starting import StartingTable

    table = StartingTable(wait_s=5)
    app = create_app(table, host_pin=PIN, data_dir=tmp_path / "d")
    table.fail("it could not start ([Errno 2] could not open port /dev/ttyACM7: "
               "No such file or directory)")
    client = app.test_client()
    for where in (LAN, LAN6):
        res = client.get("/api/state", environ_base=where)
        error = res.get_json()["error"]
        assert (res.status_code, error["code"]) == (503, "table_starting")
        assert "could not start" in error["message"] and "/dev/" not in error["message"]
    local = client.get("/api/state", environ_base={"REMOTE_ADDR": "127.0.0.1"})
    assert "/dev/ttyACM7" in local.get_json()["error"]["message"]


def test_the_host_and_the_machine_itself_see_which_riskboard_runs(served):
    """Issue 34.5: the version the host page shows is pyproject's; the public does not
    learn it (its status is an allow-list)."""
    import tomllib

    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
    version = tomllib.loads(pyproject.read_text("utf-8"))["project"]["version"]
    app, _rig, _data = served
    client = app.test_client()
    for environ, headers in ((LAN, host()), ({"REMOTE_ADDR": "127.0.0.1"}, {})):
        status = client.get("/api/status", headers=headers, environ_base=environ).get_json()
        assert status["version"] == version, environ
    assert "version" not in client.get("/api/status", environ_base=LAN).get_json()
