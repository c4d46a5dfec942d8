"""The udev rule that names the Pico's serial port /dev/riskboard-pico."""

from __future__ import annotations

import re
import tomllib

import pytest

from .conftest import REPO

RULE_FILE = REPO / "deploy" / "99-riskboard-pico.rules"
# KEY, KEY{attr} with an operator and a double-quoted value, comma separated.
PAIR = re.compile(r'\s*([A-Z_]+(?:\{[A-Za-z_]+\})?)\s*(==|!=|\+=|-=|:=|=)\s*"([^"]*)"\s*(?:,|$)')


def parse_rule(line: str) -> list[tuple[str, str, str]]:
    """Split one rule line into (key, operator, value), refusing anything left over."""
    pairs = []
    pos = 0
    while pos < len(line):
        match = PAIR.match(line, pos)
        if match is None:
            raise ValueError(f"cannot parse rule at {line[pos:]!r}")
        pairs.append(match.groups())
        pos = match.end()
    return pairs


def rules() -> list[list[tuple[str, str, str]]]:
    lines = RULE_FILE.read_text().splitlines()
    return [parse_rule(line) for line in lines if line.strip() and not line.startswith("#")]


def test_rule_file_holds_exactly_one_rule() -> None:
    assert len(rules()) == 1


def test_rule_matches_the_micropython_pico_serial_port() -> None:
    (rule,) = rules()
    matches = {(key, value) for key, op, value in rule if op == "=="}
    assert matches == {
        ("SUBSYSTEM", "tty"),
        ("ATTRS{idVendor}", "2e8a"),
        ("ATTRS{idProduct}", "0005"),
    }


def test_rule_gives_the_port_named_in_the_example_config() -> None:
    (rule,) = rules()
    symlinks = [value for key, op, value in rule if key == "SYMLINK" and op == "+="]
    port = tomllib.loads((REPO / "deploy" / "config.example.toml").read_text())["serial"]["port"]
    assert [f"/dev/{name}" for name in symlinks] == [port]


def test_rule_lets_the_dialout_group_use_the_port_and_keeps_modemmanager_off() -> None:
    (rule,) = rules()
    assigned = {key: value for key, op, value in rule if op == "="}
    assert assigned["GROUP"] == "dialout"
    assert assigned["MODE"] == "0660"
    assert assigned["ENV{ID_MM_DEVICE_IGNORE}"] == "1"


def test_parser_refuses_a_malformed_rule() -> None:
    with pytest.raises(ValueError, match="cannot parse"):
        parse_rule('SUBSYSTEM=="tty" ATTRS{idVendor}=="2e8a"')
