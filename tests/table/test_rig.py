"""Assembling the table: control pins from profile and config, and clashes named."""

from __future__ import annotations

from hardware.profiles import load_profile
from pi_app.cli import main
from pi_app.config import config_from_dict
from pi_app.table.rig import build_rig, button_pins, pin_problems

PROFILE = load_profile("classic-42")


def test_a_config_moving_one_button_keeps_the_profiles_other_buttons():
    config = config_from_dict({"buttons": {"pins": {"roll": 24}}})
    pins = button_pins(config, PROFILE)
    assert pins == {**dict(PROFILE.controls), "roll": 24}
    assert len(pins) == 8  # cancel, blitz, cycle_dice, cards are still wired


def test_no_config_pins_means_the_profiles_pins():
    assert button_pins(config_from_dict({}), PROFILE) == dict(PROFILE.controls)


def test_a_config_pin_landing_on_another_profile_button_is_named():
    config = config_from_dict({"buttons": {"backend": "gpio", "pins": {"roll": 17}}})
    problems = pin_problems(config, PROFILE)
    assert len(problems) == 1
    assert "buttons.pins.roll = 17" in problems[0] and "'cancel'" in problems[0]


def test_a_button_on_the_spi_bus_with_the_leds_on_gpio_10_is_never_opened_and_named(
        tmp_path):
    config = config_from_dict({"leds": {"backend": "ws281x", "gpio_pin": 10},
                               "buttons": {"backend": "gpio", "pins": {"cards": 9}},
                               "storage": {"data_dir": str(tmp_path)}})
    opened = []
    rig = build_rig(config, data_dir=tmp_path, open_buttons=lambda *a, **k: opened.append(a))
    rig.start()
    try:
        assert opened == []  # the GPIO lines were never claimed
        assert rig.loop.running  # the table runs without its buttons
        faults = [f for f in rig.faults() if f.startswith("The control buttons")]
        assert len(faults) == 1 and "'cards' is on GPIO 9, one of the SPI pins 7-11" in faults[0]
    finally:
        rig.stop()


def test_the_profiles_buttons_fit_beside_leds_on_a_pwm_pin():
    config = config_from_dict({"leds": {"backend": "ws281x", "gpio_pin": 18},
                               "buttons": {"backend": "gpio", "pins": {"menu": 24}}})
    assert pin_problems(config, PROFILE) == []


def test_doctor_reports_a_pin_clash_on_the_buttons_line(tmp_path, capsys):
    config = tmp_path / "config.toml"
    config.write_text('[buttons]\nbackend = "mock"\n[buttons.pins]\nroll = 17\n')
    assert main(["doctor", "--sim", "--config", str(config)]) == 1
    out = capsys.readouterr().out
    assert "FAIL  buttons   buttons.pins.roll = 17 puts 'roll' on GPIO 17" in out


def test_a_part_failing_to_stop_does_not_keep_the_others_running(tmp_path):
    from pi_app.config import Config

    rig = build_rig(Config(), sim=True, data_dir=tmp_path)
    rig.start()
    stopped: list[str] = []
    real_emulator_stop = rig.emulator.stop

    def link_fails() -> None:
        raise OSError("the USB cable was pulled")

    def emulator_stop() -> None:
        stopped.append("emulator")
        real_emulator_stop()

    shown: list[list[tuple[int, int, int]]] = []
    real_show = rig.strip.show

    def show(pixels):
        shown.append(list(pixels))
        return real_show(pixels)

    rig.link.stop, link_stop = link_fails, rig.link.stop
    rig.emulator.stop = emulator_stop
    rig.strip.show = show
    try:
        try:
            rig.stop()
        except OSError as exc:
            assert "USB cable" in str(exc)
        else:
            raise AssertionError("the link's failure to stop was swallowed")
        assert not rig.loop.running, "the loop thread still runs after a failed link stop"
        assert stopped == ["emulator"]
        assert shown and all(p == (0, 0, 0) for p in shown[-1]), "the LEDs were not darkened"
    finally:
        link_stop()
