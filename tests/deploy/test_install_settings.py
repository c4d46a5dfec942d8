"""install.sh reads its settings through riskboard's own loader (issue 22.5): no second
copy of config.py's defaults, a checked read for install and a lenient one for uninstall."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from pi_app.config import Config

from .conftest import install_script

REPO = Path(__file__).resolve().parents[2]


def settings(path: Path, *flags: str) -> tuple[int, dict[str, str], str]:
    """Run `python -m pi_app.config --install-settings` as install.sh does."""
    proc = subprocess.run(
        [sys.executable, "-m", "pi_app.config", "--install-settings", *flags, str(path)],
        capture_output=True, text=True, cwd=REPO, timeout=60)
    pairs = dict(line.split("=", 1) for line in proc.stdout.splitlines())
    return proc.returncode, pairs, proc.stderr


def test_unset_keys_take_the_loaders_defaults(tmp_path: Path) -> None:
    conf = tmp_path / "config.toml"
    conf.write_text('[leds]\nbackend = "ws281x"\n')
    code, got, _ = settings(conf)
    assert code == 0
    defaults = Config()
    # the heredoc this replaced said 18 for the pin while config.py said 10
    assert got == {"LED_BACKEND": "ws281x", "LED_PIN": str(defaults.leds.gpio_pin),
                   "WEB_PORT": str(defaults.web.port), "DATA_DIR": "", "RAW_DATA_DIR": ""}


def test_a_named_data_dir_is_given_as_written_and_as_read(tmp_path: Path) -> None:
    conf = tmp_path / "config.toml"
    conf.write_text('[storage]\ndata_dir = "/srv/games/"\n[web]\nport = 80\n')
    code, got, _ = settings(conf)
    assert code == 0
    assert (got["RAW_DATA_DIR"], got["DATA_DIR"], got["WEB_PORT"]) == ("/srv/games/",
                                                                       "/srv/games", "80")


def test_a_bad_config_is_refused_naming_the_key_unless_lenient(tmp_path: Path) -> None:
    conf = tmp_path / "config.toml"
    conf.write_text('[leds]\nbrightness = 1.5\n[storage]\ndata_dir = "/srv/t"\n')
    code, got, err = settings(conf)
    assert code == 1 and got == {}
    assert "leds.brightness must be between 0 and 1, got 1.5" in err
    code, got, _ = settings(conf, "--lenient")  # uninstall must still find the games
    assert code == 0 and got["DATA_DIR"] == "/srv/t" and got["LED_BACKEND"] == "memory"


def test_lenient_reads_a_file_that_is_not_toml_or_missing(tmp_path: Path) -> None:
    conf = tmp_path / "config.toml"
    conf.write_text("this is [not toml\n")
    assert settings(conf, "--lenient")[:2] == (0, {
        "LED_BACKEND": "memory", "LED_PIN": str(Config().leds.gpio_pin), "WEB_PORT": "8080",
        "DATA_DIR": "", "RAW_DATA_DIR": ""})
    assert settings(tmp_path / "missing.toml", "--lenient")[0] == 0
    code, _, err = settings(conf)
    assert code == 1 and "not valid TOML" in err


def test_install_sh_has_no_copy_of_the_defaults() -> None:
    script = install_script()
    assert "<<'PY'" not in script and "tomllib.load" not in script
    assert "-m pi_app.config --install-settings" in script
