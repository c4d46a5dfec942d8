"""Tests for pi_app.config: defaults, the shipped example, and errors that name the key."""

from __future__ import annotations

import dataclasses
import tomllib
from pathlib import Path

import pytest

from pi_app.config import (
    Config,
    ConfigError,
    LedConfig,
    config_from_dict,
    config_path_from_env,
    load_config,
    main,
)

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "deploy" / "config.example.toml"


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def error_for(data: dict) -> ConfigError:
    with pytest.raises(ConfigError) as info:
        config_from_dict(data)
    return info.value


# --- defaults and the example -------------------------------------------------


def test_no_path_gives_defaults_for_a_machine_without_table_hardware(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    config = load_config(None)
    assert config.leds.backend == "memory"
    assert config.buttons.backend == "mock"
    assert config.web.host == "127.0.0.1"
    assert config.storage.data_dir == tmp_path / "riskboard"
    assert config.source is None


def test_empty_file_is_the_defaults(tmp_path: Path) -> None:
    assert load_config(write(tmp_path, "")) == Config()


def test_a_section_given_in_part_keeps_the_other_defaults(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, "[leds]\nbrightness = 0.25\n"))
    assert config.leds.brightness == 0.25
    assert config.leds.gamma == LedConfig().gamma
    assert config.web.port == 8080


def test_example_config_loads_with_the_pi_settings() -> None:
    config = load_config(EXAMPLE)
    assert config.serial.port == "/dev/riskboard-pico"
    assert config.leds.backend == "ws281x"
    assert config.leds.gpio_pin == 10  # SPI: LEDs without root
    assert config.buttons.backend == "gpio"
    assert config.web.host == "0.0.0.0"
    assert config.storage.data_dir == Path("/var/lib/riskboard")
    assert config.source == EXAMPLE


def test_example_config_sets_and_comments_every_setting() -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    data = tomllib.loads(text)
    defaults = Config()
    for section in dataclasses.fields(Config):
        if section.name == "source":
            continue
        assert section.name in data, f"[{section.name}] missing from the example"
        keys = {f.name for f in dataclasses.fields(getattr(defaults, section.name))}
        assert set(data[section.name]) == keys, section.name
    # Each [section] header is followed by a comment line before its first setting.
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("[") and not line.startswith("[game.house_rules"):
            assert lines[i + 1].startswith("#"), f"{line} has no comment"


# --- clear errors -------------------------------------------------------------


def test_out_of_range_value_names_the_key_and_the_value() -> None:
    err = error_for({"leds": {"brightness": 1.5}})
    assert str(err) == "leds.brightness must be between 0 and 1, got 1.5"
    assert err.problems == ["leds.brightness must be between 0 and 1, got 1.5"]


def test_error_from_a_file_names_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, "[web]\nport = 70000\n")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert str(info.value) == f"{path}: web.port must be between 1 and 65535, got 70000"
    assert info.value.path == path


def test_wrong_type_names_the_key_and_what_was_found() -> None:
    err = error_for({"web": {"port": "eighty"}})
    assert str(err) == "web.port must be a whole number, got 'eighty'"


def test_true_is_not_accepted_as_a_number() -> None:
    err = error_for({"serial": {"baudrate": True}})
    assert "serial.baudrate must be a whole number, got true" in str(err)


def test_unknown_key_suggests_the_close_one() -> None:
    err = error_for({"leds": {"brightnes": 0.3}})
    assert str(err) == "unknown key leds.brightnes (did you mean leds.brightness?)"


def test_unknown_key_far_from_any_lists_the_known_keys() -> None:
    err = error_for({"web": {"colour": "red"}})
    assert str(err) == "unknown key web.colour (keys of [web]: host, port, public_url)"


def test_unknown_section_suggests_the_close_one() -> None:
    err = error_for({"led": {"brightness": 0.3}})
    assert str(err) == "unknown section [led] (did you mean [leds]?)"


def test_unknown_choice_suggests_the_close_one() -> None:
    err = error_for({"leds": {"backend": "ws2811"}})
    assert 'leds.backend must be one of "ws281x", "bridge", "memory"' in str(err)
    assert 'did you mean "ws281x"?' in str(err)


def test_every_problem_of_a_file_is_reported_at_once() -> None:
    err = error_for({"leds": {"brightness": -1, "gamma": 9}, "web": {"port": 0}})
    assert len(err.problems) == 3
    assert {p.split()[0] for p in err.problems} == {"leds.brightness", "leds.gamma", "web.port"}


def test_supply_of_zero_amps_is_rejected() -> None:
    err = error_for({"leds": {"supply_amps": 0}})
    assert "leds.supply_amps must be above 0" in str(err)


def test_ws281x_needs_a_pin_it_can_drive() -> None:
    err = error_for({"leds": {"backend": "ws281x", "gpio_pin": 4}})
    assert "leds.gpio_pin must be one of 10, 12, 13, 18, 19, 21" in str(err)


def test_the_same_pin_for_leds_and_a_button_is_rejected() -> None:
    data = {
        "leds": {"backend": "ws281x", "gpio_pin": 18},
        "buttons": {"backend": "gpio", "pins": {"confirm": 18}},
    }
    assert "buttons.pins.confirm uses GPIO 18" in str(error_for(data))


def test_two_buttons_on_one_pin_are_rejected() -> None:
    err = error_for({"buttons": {"pins": {"undo": 6, "roll": 6}}})
    assert "GPIO 6 is used by more than one button (undo, roll)" in str(err)


def test_misspelt_button_name_is_named() -> None:
    err = error_for({"buttons": {"pins": {"confrim": 5}}})
    assert str(err) == "unknown button buttons.pins.confrim (did you mean buttons.pins.confirm?)"


def test_the_config_keeps_only_the_button_pins_it_was_given() -> None:
    # the others come from the board profile (pi_app.table.rig.button_pins merges them)
    config = config_from_dict({"buttons": {"pins": {"confirm": 5}}})
    assert config.buttons.pins == {"confirm": 5}
    assert Config().buttons.pins == {}


def test_the_led_data_pin_defaults_to_gpio_10_spi() -> None:
    assert LedConfig().gpio_pin == 10


def test_the_example_names_all_nine_buttons() -> None:
    from hardware.control_names import CONTROL_NAMES

    text = EXAMPLE.read_text(encoding="utf-8")
    pins_part = text.split("[buttons.pins]", 1)[1].split("\n[", 1)[0]
    for name in CONTROL_NAMES:
        assert f"# {name} = " in pins_part, name
    assert "Default 18" not in text


@pytest.mark.parametrize("url", ["http://192.168.1.20:8080", "https://riskboard.local/"])
def test_a_public_url_is_kept_without_a_trailing_slash(url: str) -> None:
    config = config_from_dict({"web": {"public_url": url}})
    assert config.web.public_url == url.rstrip("/")


@pytest.mark.parametrize("url", ["riskboard.local:8080", "ftp://x", "http://", "http://a:99999"])
def test_a_public_url_that_is_no_web_address_is_named(url: str) -> None:
    assert "web.public_url must be an address like" in str(error_for({"web": {"public_url": url}}))


def test_relative_data_dir_is_rejected() -> None:
    err = error_for({"storage": {"data_dir": "games"}})
    assert "storage.data_dir must be an absolute path" in str(err)


def test_data_dir_may_start_with_home() -> None:
    config = config_from_dict({"storage": {"data_dir": "~/riskboard"}})
    assert config.storage.data_dir == Path.home() / "riskboard"


def test_section_given_as_a_value_is_rejected() -> None:
    assert "leds must be a table" in str(error_for({"leds": 3}))


def test_missing_file_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="does not exist"):
        load_config(tmp_path / "nope.toml")


def test_broken_toml_reports_the_line(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"not valid TOML: .*line 2"):
        load_config(write(tmp_path, "[web]\nport = = 3\n"))


def test_config_error_is_a_value_error() -> None:
    assert issubclass(ConfigError, ValueError)


# --- round trip, env, command line ----------------------------------------------


def test_to_toml_reads_back_equal(tmp_path: Path) -> None:
    data = {
        "leds": {"backend": "bridge", "brightness": 0.3, "supply_amps": 2.5},
        "buttons": {"backend": "gpio", "pins": {"confirm": 5, "roll": 26}, "hold_time": 2},
        "web": {"host": "0.0.0.0", "port": 80},
        "storage": {"data_dir": '/srv/risk "games"'},
        "game": {"variant": "mission", "house_rules": {"physical_dice": True}},
        "log": {"level": "debug"},
    }
    config = config_from_dict(data)
    assert load_config(write(tmp_path, config.to_toml())) == config


def test_house_rules_are_kept_as_given() -> None:
    rules = {"physical_dice": True, "fortify": "adjacent", "two_player_placement": [3, 1]}
    config = config_from_dict({"game": {"house_rules": rules}})
    assert config.game.house_rules == rules


def test_misspelt_house_rule_is_named() -> None:
    err = error_for({"game": {"house_rules": {"fortfy": "adjacent"}}})
    assert (
        str(err)
        == "unknown house rule game.house_rules.fortfy (did you mean game.house_rules.fortify?)"
    )


def test_bad_house_rule_value_is_named_with_its_config_key() -> None:
    err = error_for({"game": {"house_rules": {"fortify": "anywhere"}}})
    assert str(err).startswith("game.house_rules.fortify must be one of")


def test_config_path_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RISKBOARD_CONFIG", "/etc/riskboard/config.toml")
    assert config_path_from_env() == Path("/etc/riskboard/config.toml")
    monkeypatch.setenv("RISKBOARD_CONFIG", "")
    assert config_path_from_env() is None


def test_command_line_check_passes_a_good_file_and_fails_a_bad_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([str(EXAMPLE)]) == 0
    bad = write(tmp_path, "[leds]\nbrightness = 1.5\n")
    assert main([str(bad)]) == 1
    assert "leds.brightness must be between 0 and 1, got 1.5" in capsys.readouterr().err


# --- [players] ------------------------------------------------------------------


def test_player_colours_and_patterns_are_read_and_normalised() -> None:
    config = config_from_dict({"players": {"colours": {"red": "#FF8000", "neutral": "606060"},
                                           "patterns": {"blue": "breath"}}})
    assert config.players.colours == {"red": "#ff8000", "neutral": "#606060"}
    assert config.players.patterns == {"blue": "breath"}


def test_a_bad_player_colour_names_its_key() -> None:
    with pytest.raises(ConfigError, match=r"players\.colours\.red must be a colour"):
        config_from_dict({"players": {"colours": {"red": "#ff80"}}})


def test_an_unknown_player_is_named_with_a_suggestion() -> None:
    with pytest.raises(ConfigError, match=r"players\.patterns\.bleu \(did you mean "
                                          r"players\.patterns\.blue\?\)"):
        config_from_dict({"players": {"patterns": {"bleu": "breath"}}})


def test_an_unknown_pattern_lists_the_patterns() -> None:
    with pytest.raises(ConfigError, match=r"players\.patterns\.pink must be one of steady, "
                                          r"breath, double_blink, got 'blink'"):
        config_from_dict({"players": {"patterns": {"pink": "blink"}}})


def test_configured_player_looks_reach_the_palette(tmp_path: Path) -> None:
    from pi_app.table.rig import build_rig

    config = config_from_dict({"players": {"colours": {"red": "#102030"},
                                           "patterns": {"red": "double_blink"}}})
    rig = build_rig(config, data_dir=tmp_path)
    look = rig.painter.palette.look("red")
    assert (look.rgb, look.pattern) == ((16, 32, 48), "double_blink")
