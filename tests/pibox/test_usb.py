"""The Pi box's Pico as the box sees it, without a box: the name the udev rule gives its port
(tools/pibox/usb.py), and the maker's view of the board in the bring-up check
(tools/pibox/checks/bringup.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hardware.profiles import load_profile
from tools.pibox.checks.bringup import WHITE, BoxBoard, BoxHands
from tools.pibox.usb import UdevName, group_id

REPO = Path(__file__).resolve().parents[2]


def test_the_port_is_named_as_the_installed_udev_rule_says() -> None:
    rule = (REPO / "deploy/99-riskboard-pico.rules").read_text()
    name = UdevName.from_rules(rule)
    # config.example.toml's [serial] port, and the group the riskboard user is in
    assert name == UdevName("riskboard-pico", "dialout", 0o660)
    assert 'port = "/dev/riskboard-pico"' in (REPO / "deploy/config.example.toml").read_text()


def test_a_rule_without_a_mode_is_no_name() -> None:
    with pytest.raises(ValueError, match="no tty rule"):
        UdevName.from_rules('SUBSYSTEM=="tty", SYMLINK+="riskboard-pico", GROUP="dialout"\n')


def test_the_group_is_the_boxs_own(tmp_path: Path) -> None:
    (tmp_path / "etc").mkdir()
    (tmp_path / "etc/group").write_text("root:x:0:\ndialout:x:20:maker,riskboard\n")
    assert group_id(tmp_path, "dialout") == 20
    with pytest.raises(ValueError, match="no group spi"):
        group_id(tmp_path, "spi")


def test_the_maker_knows_where_each_led_and_button_of_classic_42_lies() -> None:
    profile = load_profile("classic-42")
    board = BoxBoard.of(profile)
    assert len(board.owners) == profile.led_count
    assert board.owners[profile.territory_leds["brazil"][0]] == "brazil"
    status = [o for o in board.owners if o and o.startswith("status:")]
    assert len(status) == sum(len(leds) for leds in profile.status_leds.values())
    assert sorted(board.channel_of.values()) == list(range(42))
    assert board.controls["end_phase"] == profile.controls["end_phase"]
    assert not board.nfc and not board.tokens


class StripSeen:
    """A strip whose last frame a test sets."""

    def __init__(self, frame: list[tuple[int, int, int]]) -> None:
        self.frame = frame

    def last(self) -> list[tuple[int, int, int]]:
        return self.frame


def test_white_through_brightness_and_gamma_is_white_and_dim_grey_is_not() -> None:
    # 255 through brightness 0.5 is ~128; the bring-up's DIM (24, 24, 24) through gamma 2.2
    # and 0.5 is ~1: the maker tells them apart at a glance, and so must the hands.
    frame = [(128, 128, 128), (1, 1, 1), (0, 0, 0), (128, 48, 0), (0, 9, 0)]
    hands = BoxHands(BoxBoard.of(load_profile("classic-42")), None, StripSeen(frame))  # type: ignore[arg-type]
    assert hands.leds() == [WHITE, (1, 1, 1), (0, 0, 0), (128, 48, 0), (0, 9, 0)]


def test_the_firmware_update_is_readmes_copy_chained_with_a_reset_on_the_named_port() -> None:
    from tools.pibox.checks.firmware_update import readme_command
    from tools.picobox import flash

    command = readme_command()
    readme = (REPO / "firmware_bridge/firmware/README.md").read_text()
    copied = command.split(" fs cp ", 1)[1].split(" : ", 1)[0].split()
    assert copied == flash.readme_files() and "firmware_bridge/firmware/main.py" in copied
    assert all(path in readme for path in copied)
    assert all((REPO / path).is_file() for path in copied)  # the maker's clone has them
    assert command.startswith("cd ~/riskboard && ~/mpremote-venv/bin/mpremote connect "
                              "/dev/riskboard-pico fs cp ")
    assert command.endswith(" : + reset")  # README: chain it, and reset runs the firmware


# The end of mpremote's output when its close meets the port the reset took (the box run's)
CLOSE_AFTER_RESET = (
    '  File ".../mpremote/transport_serial.py", line 125, in close\n'
    "    self.serial.rts = False\n"
    '  File ".../serial/serialposix.py", line 708, in _update_rts_state\n'
    "    fcntl.ioctl(self.fd, TIOCMBIC, TIOCM_RTS_str)\n"
    "OSError: [Errno 5] Input/output error\n")


def test_a_copy_counts_when_every_file_went_even_if_the_reset_took_the_port_before_close(
        ) -> None:
    from tools.pibox.checks.firmware_update import copy_worked
    from tools.picobox import flash

    every = "".join(f"cp {path} :\n" for path in flash.readme_files())
    assert copy_worked(0, every)
    assert copy_worked(1, every + "Traceback (most recent call last):\n" + CLOSE_AFTER_RESET)
    # README's first try: the firmware resets for maintenance before any file is copied
    assert not copy_worked(1, "Traceback (most recent call last):\n" + CLOSE_AFTER_RESET)
    # a copy cut short, or another error at the end, is a failure
    assert not copy_worked(1, every.split("\n", 3)[-1] + CLOSE_AFTER_RESET)
    assert not copy_worked(1, every + "mpremote: could not enter raw repl\n")
