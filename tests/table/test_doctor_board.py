"""`riskboard doctor` says whether the profile in use matches the board that answers (issue
25): the Pico's sensor count and sensor-map CRC, its NFC readers, and the LED chain's length
where it is known, each against the profile; on a mismatch one sentence sends the maker to
the bring-up. The Pico is the emulated one behind a pseudo-terminal, reached by the same
pyserial link as a real one."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from firmware_bridge.emulator import Emulator
from hardware.profiles import load_profile
from pi_app.board_match import MISMATCH_ADVICE, board_problems
from pi_app.cli import doctor, main
from pi_app.table.sim import make_emulator, physical_board

BUTTONS = load_profile("classic-42")
NFC = load_profile("classic-42-nfc")
ADVICE = "run the bring-up (the host page's Bring-up, or `riskboard bringup`)"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def pico():
    started = []

    def start(emulator: Emulator) -> str:
        started.append(emulator)
        return emulator.start()

    yield start
    for emulator in started:
        emulator.stop()


def findings_for(tmp_path: Path, port: str, profile: str) -> dict:
    """Every doctor check (not --sim) for a config naming `profile` and the Pico on `port`;
    a web port nobody serves, so no running riskboard answers for it."""
    config = tmp_path / "config.toml"
    config.write_text(f'[board]\nprofile = "{profile}"\n[serial]\nport = "{port}"\n'
                      f'[web]\nport = {free_port()}\n[leds]\nbackend = "memory"\n'
                      '[buttons]\nbackend = "mock"\n')
    return {f.name: f for f in doctor.diagnose(config, sim=False, data_dir=tmp_path / "d")}


def test_a_pico_flashed_for_the_profile_in_use_matches(tmp_path, pico):
    found = findings_for(tmp_path, pico(make_emulator(BUTTONS)), "classic-42")
    assert found["serial"].ok
    board = found["board"]
    assert board.ok and not board.warning, board.detail
    assert board.detail.startswith(f"the Pico's 42 sensor channels and their map (CRC "
                                   f"{BUTTONS.sensor_crc():08x}) match classic-42")
    assert "bring-up counts it" in board.detail  # a real chain cannot say its length


def test_a_pico_flashed_for_another_board_is_a_mismatch_sending_the_maker_to_bring_up(
        tmp_path, pico):
    port = pico(Emulator(sensor_count=NFC.sensor_count, profile_crc=NFC.sensor_crc(),
                         board_id="classic-42-nfc"))
    found = findings_for(tmp_path, port, "classic-42")
    assert found["serial"].ok  # the Pico answers: what differs is the board check's to say
    board = found["board"]
    assert not board.ok
    assert (f"the Pico's sensor map (which channel is a button, a reader or unused) has CRC "
            f"{NFC.sensor_crc():08x}, the profile's {BUTTONS.sensor_crc():08x}") in board.detail
    assert board.detail.endswith(f"{ADVICE} so riskboard learns how it is wired.")
    assert board.detail.count(". ") == 1  # the differences, then the one sentence of advice


def test_a_pico_scanning_more_channels_than_the_profile_has_is_named(tmp_path, pico):
    port = pico(Emulator(sensor_count=46, profile_crc=NFC.sensor_crc(), board_id="x"))
    board = findings_for(tmp_path, port, "classic-42-nfc")["board"]
    assert not board.ok
    assert "the Pico scans 46 sensor channels, the profile classic-42-nfc has 42" in \
        board.detail


def test_a_reader_on_another_mux_port_is_a_reader_missing_where_the_profile_has_it(
        tmp_path, pico):
    wired = physical_board(NFC, 3)  # one reader moved to a spare mux port
    emulator = make_emulator(NFC, wired)
    (moved,) = emulator.silent_readers
    found = findings_for(tmp_path, pico(emulator), "classic-42-nfc")
    assert found["serial"].warning  # the Pico's own fault line
    board = found["board"]
    assert not board.ok
    # classic-42-nfc's firmware looks for channel c on mux 0x70 + c // 8, port c % 8
    assert (f"41 of the profile's 42 NFC readers answer; none on channel {moved} "
            f"({NFC.territory_at(moved)}, mux 0x{0x70 + moved // 8:02x} port {moved % 8})"
            ) in board.detail
    assert ADVICE in board.detail


def test_doctor_sim_on_a_miswired_virtual_board_fails_the_board_check(tmp_path, capsys):
    config = tmp_path / "config.toml"
    config.write_text("[board]\nmiswired = 7\n")
    assert main(["doctor", "--sim", "--config", str(config)]) == 1
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.split()[1:2] == ["board"])
    assert line.startswith("FAIL  board     the LED chain has 136 LEDs, the profile 135. ")
    assert ADVICE in line


def test_the_board_check_compares_only_what_the_board_said():
    link = {"sensor_count": 42, "profile_crc": f"{BUTTONS.sensor_crc():08X}",
            "pico_faults": []}
    assert board_problems(BUTTONS, link) == []  # hex case does not matter
    assert board_problems(BUTTONS, link, led_count=135) == []
    assert board_problems(BUTTONS, {**link, "pico_faults": [
        "event=nfc.setup channel=3 model=pn532 error=x"]}) == []  # no reader there to miss
    assert board_problems(NFC, {"sensor_count": 42, "profile_crc": f"{NFC.sensor_crc():08x}",
                                "pico_faults": ["event=nfc.mux_missing addresses=0x72 "
                                                "error=ENODEV"]}) == [
        "a TCA9548A mux of the NFC readers did not answer"]
    assert MISMATCH_ADVICE.startswith("the profile does not describe this board")


def test_beside_a_service_whose_link_refused_the_pico_the_board_line_says_why(tmp_path):
    from tests.table.test_doctor import StatusPage

    nfc_crc = f"{NFC.sensor_crc():08x}"
    page = StatusPage({"link": {
        "state": "refused", "connected": False, "sensor_count": 42, "profile_crc": nfc_crc,
        "board_id": "classic-42-nfc", "pico_faults": [],
        "last_error": f"board profile mismatch: the Pico's sensor map has CRC {nfc_crc}"}})
    try:
        config = tmp_path / "config.toml"
        config.write_text(f"[web]\nport = {page.port}\n")
        found = {f.name: f for f in doctor.diagnose(config, sim=False,
                                                    data_dir=tmp_path / "d")}
    finally:
        page.close()
    assert not found["serial"].ok  # the service's link is down
    assert not found["board"].ok
    assert f"has CRC {nfc_crc}, the profile's {BUTTONS.sensor_crc():08x}" in \
        found["board"].detail
    assert ADVICE in found["board"].detail


def test_a_silent_reader_is_named_where_the_firmware_looks_for_it():
    link = {"sensor_count": 42, "profile_crc": f"{NFC.sensor_crc():08x}",
            "board_id": "classic-42-nfc",
            "pico_faults": ["event=nfc.setup channel=41 model=pn532 error=ETIMEDOUT"]}
    assert board_problems(NFC, link) == [
        "41 of the profile's 42 NFC readers answer; none on channel 41 "
        f"({NFC.territory_at(41)}, mux 0x75 port 1)"]
    unknown = {**link, "board_id": "my-own-board"}  # a firmware board the Pi does not know
    assert board_problems(NFC, unknown) == [
        f"41 of the profile's 42 NFC readers answer; none on channel 41 "
        f"({NFC.territory_at(41)})"]


def test_doctor_checks_the_profile_learned_at_bring_up_not_the_shipped_one(tmp_path, pico):
    """After a bring-up saved <data>/board-profile.toml, the table runs on it, so doctor must
    compare the Pico with it: a board with 48 sensor channels whose Alaska button sits on the
    last one (a sixth shift register) matches the learned profile, not the shipped one."""
    from importlib import resources

    from pi_app.table.bringup_desk import LEARNED_NAME

    shipped = resources.files("hardware.boards").joinpath("classic-42.toml").read_text()
    crossed = (shipped.replace("alaska = { leds = [0, 1, 2], sensor = 0 }",
                               "alaska = { leds = [0, 1, 2], sensor = 47 }")
               .replace("sensor_count = 42", "sensor_count = 48"))
    assert crossed.count("sensor = 47") == 1 and "sensor_count = 48" in crossed
    staging = tmp_path / "staging.toml"
    staging.write_text(crossed)
    learned = load_profile(staging)
    assert learned.sensor_crc() != BUTTONS.sensor_crc()
    port = pico(make_emulator(learned))

    (tmp_path / "before").mkdir()
    without = findings_for(tmp_path / "before", port, "classic-42")
    assert not without["board"].ok or without["board"].warning, without["board"].detail

    data = tmp_path / "after" / "d"
    data.mkdir(parents=True)
    (data / LEARNED_NAME).write_text(crossed)
    found = findings_for(tmp_path / "after", port, "classic-42")
    assert "learned at bring-up" in found["profile"].detail, found["profile"].detail
    assert found["board"].ok and not found["board"].warning, found["board"].detail
