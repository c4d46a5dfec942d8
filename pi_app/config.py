"""The table's settings: typed, range-checked config loaded from a TOML file.

`load_config(path)` reads `/etc/riskboard/config.toml` (or any file; defaults when
`path` is None) and returns a frozen `Config`. Every value is checked at load, so a
typo fails when the service starts, not in the middle of a game: a bad value, an
unknown key or an unknown section raises `ConfigError` naming the key, e.g.
``leds.brightness must be between 0 and 1, got 1.5`` or
``unknown key leds.brightnes (did you mean leds.brightness?)``.

Defaults describe a machine with no table hardware (memory LEDs, mock buttons, web
on localhost); `deploy/install.sh` writes a config for the Pi that overrides them.
Check a file from a shell with ``python -m pi_app.config /etc/riskboard/config.toml``.
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import math
import os
import sys
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hardware import backends
from hardware.control_names import CONTROL_NAMES

DEFAULT_CONFIG_PATH = Path("/etc/riskboard/config.toml")
CONFIG_ENV = "RISKBOARD_CONFIG"

LED_BACKENDS = tuple(backends.LED_BACKENDS)  # hardware/backends.py holds the one list
BUTTON_BACKENDS = tuple(backends.BUTTON_BACKENDS)
BUTTON_NAMES = tuple(CONTROL_NAMES)
LOG_LEVELS = ("debug", "info", "warning", "error")
# [players]: ids a colour or pattern may be set for (seats, and the two-player third armies)
PLAYER_IDS = ("red", "blue", "green", "yellow", "black", "pink", "neutral", "allied")
PLAYER_PATTERNS = ("steady", "breath", "double_blink")  # pi_app.table.palette.PATTERNS
# GPIO pins rpi-ws281x can drive: 10 = SPI (no root), 12/18 = PWM0, 13/19 = PWM1, 21 = PCM.
WS281X_PINS = (10, 12, 13, 18, 19, 21)
BCM_PIN_RANGE = (2, 27)


class ConfigError(ValueError):
    """A config file that cannot be used; the message names every offending key.

    `problems` holds one sentence per problem, each starting with the dotted key
    (`leds.brightness must be ...`); `path` is the file, when there was one.
    """

    def __init__(self, problems: list[str], path: Path | None = None) -> None:
        self.problems = list(problems)
        self.path = path
        where = f"{path}: " if path is not None else ""
        if len(self.problems) == 1:
            text = where + self.problems[0]
        else:
            text = where + f"{len(self.problems)} problems:\n  " + "\n  ".join(self.problems)
        super().__init__(text)


class _Problems:
    """Collects problems while a file is checked, so one run reports them all."""

    def __init__(self) -> None:
        self.items: list[str] = []

    def add(self, message: str) -> None:
        self.items.append(message)


# A checker takes (dotted key, raw value, problems) and returns the clean value,
# or _INVALID after recording a problem.
_INVALID = object()
Checker = Callable[[str, Any, _Problems], Any]


def _describe(value: Any) -> str:
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "a list"
    return str(value)


def _string(*, choices: tuple[str, ...] | Callable[[], tuple[str, ...]] = (),
            non_empty: bool = True) -> Checker:
    """A string check; `choices` may be a function giving them when a value is checked (a
    list kept in a module this one should not load at import)."""
    def check(key: str, value: Any, problems: _Problems) -> Any:
        if not isinstance(value, str):
            problems.add(f"{key} must be a string, got {_describe(value)}")
            return _INVALID
        if callable(choices):
            return _string(choices=choices(), non_empty=non_empty)(key, value, problems)
        if choices and value not in choices:
            options = ", ".join(f'"{c}"' for c in choices)
            hint = _did_you_mean(value, choices, quote=True)
            problems.add(f"{key} must be one of {options}, got {value!r}{hint}")
            return _INVALID
        if non_empty and not value.strip():
            problems.add(f"{key} must not be empty")
            return _INVALID
        return value

    return check


def _integer(low: int, high: int) -> Checker:
    def check(key: str, value: Any, problems: _Problems) -> Any:
        if isinstance(value, bool) or not isinstance(value, int):
            problems.add(f"{key} must be a whole number, got {_describe(value)}")
            return _INVALID
        if not low <= value <= high:
            problems.add(f"{key} must be between {low} and {high}, got {value}")
            return _INVALID
        return value

    return check


def _number(low: float, high: float, *, low_open: bool = False) -> Checker:
    def check(key: str, value: Any, problems: _Problems) -> Any:
        if isinstance(value, bool) or not isinstance(value, int | float) or math.isnan(value):
            problems.add(f"{key} must be a number, got {_describe(value)}")
            return _INVALID
        too_low = value <= low if low_open else value < low
        if too_low or value > high:
            bound = (
                f"above {low:g} and at most {high:g}"
                if low_open
                else f"between {low:g} and {high:g}"
            )
            problems.add(f"{key} must be {bound}, got {value:g}")
            return _INVALID
        return float(value)

    return check


def _boolean(key: str, value: Any, problems: _Problems) -> Any:
    if not isinstance(value, bool):
        problems.add(f"{key} must be true or false, got {_describe(value)}")
        return _INVALID
    return value


def _absolute_path(key: str, value: Any, problems: _Problems) -> Any:
    if not isinstance(value, str) or not value.strip():
        problems.add(f"{key} must be a folder path, got {_describe(value)}")
        return _INVALID
    path = Path(value).expanduser()
    if not path.is_absolute():
        problems.add(f"{key} must be an absolute path (starting with /), got {value!r}")
        return _INVALID
    return path


def _pin_table(key: str, value: Any, problems: _Problems) -> Any:
    if not isinstance(value, dict):
        problems.add(f"{key} must be a table of button = GPIO pin, got {_describe(value)}")
        return _INVALID
    pins: dict[str, int] = {}
    check_pin = _integer(*BCM_PIN_RANGE)
    for name, pin in value.items():
        if name not in BUTTON_NAMES:
            hint = _did_you_mean(name, BUTTON_NAMES, prefix=f"{key}.")
            hint = hint or f" (buttons are: {', '.join(BUTTON_NAMES)})"
            problems.add(f"unknown button {key}.{name}{hint}")
            continue
        clean = check_pin(f"{key}.{name}", pin, problems)
        if clean is not _INVALID:
            pins[name] = clean
    by_pin: dict[int, list[str]] = {}
    for name, pin in pins.items():
        by_pin.setdefault(pin, []).append(name)
    for pin, names in by_pin.items():
        if len(names) > 1:
            problems.add(f"{key}: GPIO {pin} is used by more than one button ({', '.join(names)})")
    return pins


def _player_table(check_value: Callable[[str, Any, _Problems], Any]) -> Checker:
    """A table keyed by player id ([players] colours / patterns), each value checked."""

    def check(key: str, value: Any, problems: _Problems) -> Any:
        if not isinstance(value, dict):
            problems.add(f"{key} must be a table of player = value, got {_describe(value)}")
            return _INVALID
        clean: dict[str, Any] = {}
        for player, item in value.items():
            if player not in PLAYER_IDS:
                hint = _did_you_mean(player, PLAYER_IDS, prefix=f"{key}.")
                hint = hint or f" (players are: {', '.join(PLAYER_IDS)})"
                problems.add(f"unknown player {key}.{player}{hint}")
                continue
            checked = check_value(f"{key}.{player}", item, problems)
            if checked is not _INVALID:
                clean[player] = checked
        return clean

    return check


def _hex_colour(key: str, value: Any, problems: _Problems) -> Any:
    text = value.strip().removeprefix("#") if isinstance(value, str) else ""
    if len(text) != 6 or any(c not in "0123456789abcdefABCDEF" for c in text):
        problems.add(f'{key} must be a colour like "#ff8000", got {_describe(value)}')
        return _INVALID
    return "#" + text.lower()


def _pattern(key: str, value: Any, problems: _Problems) -> Any:
    if value not in PLAYER_PATTERNS:
        problems.add(f"{key} must be one of {', '.join(PLAYER_PATTERNS)}, got {_describe(value)}")
        return _INVALID
    return value


def _public_url(key: str, value: Any, problems: _Problems) -> Any:
    if not isinstance(value, str):
        problems.add(f"{key} must be a string, got {_describe(value)}")
        return _INVALID
    text = value.strip()
    if not text:
        return ""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018 - raises ValueError for a bad port
    except ValueError:
        parts = None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname \
            or parts.query or parts.fragment:
        problems.add(f'{key} must be an address like "http://192.168.1.20:8080", got {value!r}')
        return _INVALID
    return text.rstrip("/")


def _free_table(key: str, value: Any, problems: _Problems) -> Any:
    if not isinstance(value, dict):
        problems.add(f"{key} must be a table, got {_describe(value)}")
        return _INVALID
    return dict(value)


def _did_you_mean(
    word: str, candidates: tuple[str, ...] | list[str], *, prefix: str = "", quote: bool = False
) -> str:
    close = difflib.get_close_matches(word, list(candidates), n=1, cutoff=0.6)
    if not close:
        return ""
    suggestion = f'"{close[0]}"' if quote else f"{prefix}{close[0]}"
    return f" (did you mean {suggestion}?)"


def _setting(
    default: Any, check: Checker, doc: str, factory: Callable[[], Any] | None = None
) -> Any:
    """A config field: its default, the checker for file values, and one line of help."""
    if factory is None and isinstance(default, dict):
        factory = lambda: dict(default)  # noqa: E731 - each Config gets its own dict
    if factory is not None:
        return field(default_factory=factory, metadata={"check": check, "doc": doc})
    return field(default=default, metadata={"check": check, "doc": doc})


def default_data_dir() -> Path:
    """Where games are kept when the config names no folder: the user's data folder."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "riskboard"


@dataclass(frozen=True)
class BoardConfig:
    """Which physical board is attached: a profile name or a path to a profile TOML."""

    profile: str = _setting("classic-42", _string(), "board profile name or TOML path")
    # The virtual board only (serve --sim): a seed wiring the simulated board otherwise
    # than the profile says (pi_app.table.miswired), so a bring-up has work to do.
    miswired: int = _setting(0, _integer(0, 2**31 - 1),
                             "virtual board: wire it otherwise than the profile (seed; 0 = off)")


@dataclass(frozen=True)
class SerialConfig:
    """The USB serial link to the Pico that scans the territory sensors."""

    port: str = _setting("/dev/riskboard-pico", _string(), "serial device of the Pico")
    baudrate: int = _setting(115200, _integer(9600, 4_000_000), "serial speed (USB CDC ignores it)")


@dataclass(frozen=True)
class LedConfig:
    """The territory LEDs: which driver, which pin, and the output stage settings."""

    backend: str = _setting("memory", _string(choices=LED_BACKENDS), " | ".join(LED_BACKENDS))
    # 10 (SPI MOSI) is the recommended wiring since the hardware review: no root, no DMA
    # clash with audio. docs/ARCHITECTURE.md's earlier 18 (PWM) still works, as root.
    gpio_pin: int = _setting(10, _integer(*BCM_PIN_RANGE), "ws281x data pin (10 = SPI, 18 = PWM)")
    brightness: float = _setting(0.5, _number(0, 1), "global brightness, 0..1")
    supply_amps: float = _setting(4.0, _number(0, 100, low_open=True), "LED supply budget (A)")
    gamma: float = _setting(2.2, _number(1, 3), "gamma exponent; 1 = no correction")


@dataclass(frozen=True)
class ButtonConfig:
    """The control buttons on the Pi's GPIO (gpiozero), or their mock."""

    backend: str = _setting("mock", _string(choices=BUTTON_BACKENDS),
                            " | ".join(BUTTON_BACKENDS))
    # Empty = the board profile's pins; a pin given here replaces that one button's pin
    # and the profile's other buttons stay (pi_app.table.rig.button_pins).
    pins: dict[str, int] = _setting(  # noqa: RUF009 - _setting copies the dict per instance
        {}, _pin_table, "button = BCM pin, over the board profile's [controls]"
    )
    hold_time: float = _setting(1.0, _number(0.1, 10), "seconds held for a long press")


@dataclass(frozen=True)
class WebConfig:
    """Where the status pages are served (waitress)."""

    host: str = _setting("127.0.0.1", _string(), "address to listen on; 0.0.0.0 = all")
    port: int = _setting(8080, _integer(1, 65535), "TCP port")
    public_url: str = _setting(
        "", _public_url, "address phones use for seat QR links; empty = worked out at start")


@dataclass(frozen=True)
class StorageConfig:
    """Where the game journal (SQLite) and other data live."""

    data_dir: Path = _setting(  # noqa: RUF009 - the default is computed per instance
        None, _absolute_path, "data folder", factory=lambda: default_data_dir()
    )


def _variant_names() -> tuple[str, ...]:
    """The games the table plays: the rules' one list (loaded only to check a value)."""
    from pi_app.rules.variants import VARIANT_NAMES

    return VARIANT_NAMES


@dataclass(frozen=True)
class GameConfig:
    """Defaults offered when a new game is set up on the host page."""

    variant: str = _setting("classic", _string(choices=_variant_names), "default variant")
    house_rules: dict[str, Any] = _setting({}, _free_table, "default house rules")  # noqa: RUF009


@dataclass(frozen=True)
class PlayersConfig:
    """How each army looks on the LEDs: a colour per player id and an optional pattern
    (so colour is never the only cue); unset players keep the palette's defaults."""

    colours: dict[str, str] = _setting(  # noqa: RUF009 - _setting copies the dict
        {}, _player_table(_hex_colour), 'player = "#rrggbb"')
    patterns: dict[str, str] = _setting(  # noqa: RUF009 - _setting copies the dict
        {}, _player_table(_pattern), "player = steady | breath | double_blink")


@dataclass(frozen=True)
class LogConfig:
    """How much the service writes to the journal (journald)."""

    level: str = _setting("info", _string(choices=LOG_LEVELS), "debug | info | warning | error")


@dataclass(frozen=True)
class Config:
    """Every setting of the table, one frozen section per TOML table."""

    board: BoardConfig = field(default_factory=BoardConfig)
    serial: SerialConfig = field(default_factory=SerialConfig)
    leds: LedConfig = field(default_factory=LedConfig)
    buttons: ButtonConfig = field(default_factory=ButtonConfig)
    web: WebConfig = field(default_factory=WebConfig)
    storage: StorageConfig = field(default_factory=StorageConfig)
    game: GameConfig = field(default_factory=GameConfig)
    players: PlayersConfig = field(default_factory=PlayersConfig)
    log: LogConfig = field(default_factory=LogConfig)
    source: Path | None = field(default=None, compare=False)

    def to_toml(self) -> str:
        """Render the settings as TOML that `load_config` reads back to an equal Config."""
        lines: list[str] = []
        for name, section in _sections(self):
            scalars: list[tuple[str, Any]] = []
            tables: list[tuple[str, Any]] = []
            for f in dataclasses.fields(section):
                value = getattr(section, f.name)
                (tables if isinstance(value, dict) else scalars).append((f.name, value))
            lines.append(f"[{name}]")
            lines.extend(f"{key} = {_toml_value(value)}" for key, value in scalars)
            lines.append("")
            for key, table in tables:
                lines.append(f"[{name}.{key}]")
                lines.extend(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in table.items())
                lines.append("")
        return "\n".join(lines)


def _sections(config: Config) -> list[tuple[str, Any]]:
    return [
        (f.name, getattr(config, f.name)) for f in dataclasses.fields(config) if f.name != "source"
    ]


_SECTION_CLASSES: dict[str, type] = {
    "board": BoardConfig,
    "serial": SerialConfig,
    "leds": LedConfig,
    "buttons": ButtonConfig,
    "web": WebConfig,
    "storage": StorageConfig,
    "game": GameConfig,
    "players": PlayersConfig,
    "log": LogConfig,
}


def _toml_key(key: str) -> str:
    bare = key.replace("_", "").replace("-", "").isalnum() and key.isascii()
    return key if bare else json.dumps(key)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, Path):
        return json.dumps(str(value))
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        items = ", ".join(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items())
        return "{ " + items + " }" if items else "{}"
    raise TypeError(f"cannot write {type(value).__name__} as TOML")


def config_from_dict(data: Mapping[str, Any], *, source: Path | None = None) -> Config:
    """Check a parsed TOML document and build a Config; raise ConfigError naming every bad key."""
    problems = _Problems()
    sections: dict[str, Any] = {}
    for name, raw in data.items():
        if name not in _SECTION_CLASSES:
            hint = _did_you_mean(name, list(_SECTION_CLASSES))
            if hint:
                hint = hint.replace("mean ", "mean [").replace("?)", "]?)")
            else:
                hint = " (sections are: " + ", ".join(f"[{s}]" for s in _SECTION_CLASSES) + ")"
            problems.add(f"unknown section [{name}]{hint}")
            continue
        if not isinstance(raw, dict):
            problems.add(f"{name} must be a table ([{name}]), got {_describe(raw)}")
            continue
        sections[name] = _build_section(name, _SECTION_CLASSES[name], raw, problems)
    if not problems.items:
        _cross_check(sections, problems)
    if problems.items:
        raise ConfigError(problems.items, source)
    return Config(**sections, source=source)


def _build_section(name: str, cls: type, raw: Mapping[str, Any], problems: _Problems) -> Any:
    fields = {f.name: f for f in dataclasses.fields(cls)}
    values: dict[str, Any] = {}
    for key, value in raw.items():
        f = fields.get(key)
        if f is None:
            hint = _did_you_mean(key, list(fields), prefix=f"{name}.")
            hint = hint or f" (keys of [{name}]: {', '.join(fields)})"
            problems.add(f"unknown key {name}.{key}{hint}")
            continue
        clean = f.metadata["check"](f"{name}.{key}", value, problems)
        if clean is not _INVALID:
            values[key] = clean
    try:
        return cls(**values)
    except TypeError:  # a value was invalid and left out; problems already says which
        return cls()


def _on_gpio(registry: Mapping[str, backends.Backend], name: str) -> bool:
    """True when backend `name` of `registry` uses the Pi's own GPIO pins."""
    found = registry.get(name)
    return found is not None and found.pi_only


def _cross_check(sections: dict[str, Any], problems: _Problems) -> None:
    """Checks that involve two settings at once."""
    leds: LedConfig = sections.get("leds", LedConfig())
    buttons: ButtonConfig = sections.get("buttons", ButtonConfig())
    if leds.backend == "ws281x" and leds.gpio_pin not in WS281X_PINS:
        pins = ", ".join(str(p) for p in WS281X_PINS)
        problems.add(
            f"leds.gpio_pin must be one of {pins} for the ws281x backend, got {leds.gpio_pin}"
        )
    if _on_gpio(backends.LED_BACKENDS, leds.backend) \
            and _on_gpio(backends.BUTTON_BACKENDS, buttons.backend):  # one GPIO header
        for name, pin in buttons.pins.items():
            if pin == leds.gpio_pin:
                problems.add(
                    f"buttons.pins.{name} uses GPIO {pin}, which leds.gpio_pin already drives"
                )
    game: GameConfig = sections.get("game", GameConfig())
    _check_house_rules(game.house_rules, problems)


def _check_house_rules(house_rules: dict[str, Any], problems: _Problems) -> None:
    """Check the defaults with the rules engine's own HouseRules, naming the config key."""
    try:
        from pi_app.rules import HouseRules, RuleError  # pure package: no I/O on import
    except ImportError:  # a checkout without the rules engine: nothing to check against
        return
    known = [f.name for f in dataclasses.fields(HouseRules)]
    unknown = [key for key in house_rules if key not in known]
    for key in unknown:
        hint = _did_you_mean(key, known, prefix="game.house_rules.")
        hint = hint or f" (house rules are: {', '.join(known)})"
        problems.add(f"unknown house rule game.house_rules.{key}{hint}")
    if unknown:
        return
    try:
        HouseRules.from_dict(house_rules)
    except RuleError as err:
        problems.add(err.message if err.message.startswith("game.") else f"game.{err.message}")


def config_path_from_env() -> Path | None:
    """The config file named by $RISKBOARD_CONFIG, or None when unset or empty."""
    value = os.environ.get(CONFIG_ENV, "").strip()
    return Path(value) if value else None


def load_config(path: str | Path | None) -> Config:
    """Load and check the TOML config at `path`; defaults for every setting when None.

    Raises ConfigError (a ValueError) when the file is missing, not TOML, or holds an
    unknown section/key or a bad value; the message names the key and the file.
    """
    if path is None:
        return Config()
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(["the config file does not exist"], file) from None
    except (OSError, UnicodeDecodeError) as err:
        raise ConfigError([f"the config file cannot be read ({err})"], file) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise ConfigError([f"not valid TOML: {err}"], file) from None
    return config_from_dict(data, source=file)


def describe_settings() -> list[str]:
    """One line per setting, `section.key = default  # help`, for docs and `--help` text."""
    lines = []
    for name, section in _sections(Config()):
        for f in dataclasses.fields(section):
            default = _toml_value(getattr(section, f.name))
            lines.append(f"{name}.{f.name} = {default}  # {f.metadata['doc']}")
    return lines


def install_settings(path: str | Path, *, lenient: bool = False) -> dict[str, str]:
    """What `deploy/install.sh` needs from the config at `path`, as shell-safe strings.

    Keys: LED_BACKEND, LED_PIN, WEB_PORT, DATA_DIR (the folder as the loader reads it)
    and RAW_DATA_DIR (storage.data_dir exactly as written; empty when the file names
    none, and install.sh then uses the service's home). Checked by `load_config` (raises
    ConfigError); `lenient` (uninstall, where a broken config must not stop the removal)
    reads the same keys from the plain TOML, this module's defaults filling the gaps.
    """
    raw_dir: Any = None
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError):
        data = {}
        if not lenient:
            load_config(path)  # raises the ConfigError naming what is wrong
    storage = data.get("storage")
    if isinstance(storage, dict):
        raw_dir = storage.get("data_dir")
    raw = raw_dir if isinstance(raw_dir, str) else ""
    if lenient:
        defaults = Config()

        def plain(section: str, key: str, default: Any) -> Any:
            table = data.get(section)
            value = table.get(key, default) if isinstance(table, dict) else default
            return value if isinstance(value, str | int) else default

        settings = {"LED_BACKEND": plain("leds", "backend", defaults.leds.backend),
                    "LED_PIN": plain("leds", "gpio_pin", defaults.leds.gpio_pin),
                    "WEB_PORT": plain("web", "port", defaults.web.port),
                    "DATA_DIR": raw}
    else:
        config = load_config(path)
        settings = {"LED_BACKEND": config.leds.backend, "LED_PIN": config.leds.gpio_pin,
                    "WEB_PORT": config.web.port,
                    "DATA_DIR": str(config.storage.data_dir) if raw else ""}
    settings["RAW_DATA_DIR"] = raw
    return {key: str(value).replace("\n", " ") for key, value in settings.items()}


def main(argv: list[str] | None = None) -> int:
    """Check config files from a shell: exit 0 and print `ok` when each loads, else 1.

    `--install-settings [--lenient] CONFIG.toml` prints instead the settings install.sh
    reads, one NAME=value a line (see `install_settings`).
    """
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["--install-settings"]:
        lenient = args[1:2] == ["--lenient"]
        files = args[2:] if lenient else args[1:]
        if len(files) != 1:
            print("usage: python -m pi_app.config --install-settings [--lenient] CONFIG.toml",
                  file=sys.stderr)
            return 2
        try:
            settings = install_settings(files[0], lenient=lenient)
        except ConfigError as err:
            print(f"riskboard: error: {err}", file=sys.stderr)
            return 1
        for key, value in settings.items():
            print(f"{key}={value}")
        return 0
    if not args:
        print("usage: python -m pi_app.config CONFIG.toml [...]", file=sys.stderr)
        return 2
    status = 0
    for arg in args:
        try:
            load_config(arg)
        except ConfigError as err:
            print(f"error: {err}", file=sys.stderr)
            status = 1
        else:
            print(f"ok: {arg}")
    return status


if __name__ == "__main__":
    sys.exit(main())
