"""install.sh, run for real against a temporary root: files, idempotency, updates, uninstall."""

from __future__ import annotations

import re
import stat
import tomllib
from pathlib import Path

import pytest

from pi_app.config import load_config
from pi_app.journal import Journal
from pi_app.rules.legal import legal_commands
from pi_app.session import GameSession

from .conftest import REPO, Installer, snapshot

pytestmark = pytest.mark.slow  # each test runs install.sh for real: seconds apiece

UNIT = "/etc/systemd/system/riskboard.service"
DROPINS = "/etc/systemd/system/riskboard.service.d"
RULE = "/etc/udev/rules.d/99-riskboard-pico.rules"
CONF = "/etc/riskboard/config.toml"
DATA = "/var/lib/riskboard"


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def edit_config(installer: Installer, old: str, new: str) -> None:
    conf = installer.path(CONF)
    text = conf.read_text()
    assert old in text, old
    conf.write_text(text.replace(old, new, 1))


# --- a fresh install --------------------------------------------------------------


def test_fresh_install_puts_every_file_in_place(installer: Installer) -> None:
    installer.install()
    deploy = REPO / "deploy"
    assert installer.path(UNIT).read_text() == (deploy / "riskboard.service").read_text()
    assert installer.path(RULE).read_text() == (deploy / "99-riskboard-pico.rules").read_text()
    assert (
        installer.path("/etc/riskboard/config.example.toml").read_text()
        == (deploy / "config.example.toml").read_text()
    )
    assert mode(installer.path(CONF)) == 0o640  # may hold nothing secret, but is not for all
    assert installer.path(DATA).is_dir() and mode(installer.path(DATA)) == 0o700
    link = installer.path("/usr/local/bin/riskboard")
    assert link.is_symlink() and str(link.readlink()) == "/opt/riskboard/venv/bin/riskboard"


@pytest.mark.parametrize(
    ("model", "backend", "buttons"),
    [
        ("pi5", "bridge", "gpio"),
        ("pi4", "ws281x", "gpio"),
        ("pi3", "ws281x", "gpio"),
        ("zero2w", "ws281x", "gpio"),
        (None, "memory", "mock"),
    ],
)
def test_fresh_config_suits_the_detected_model(
    installer: Installer, model: str | None, backend: str, buttons: str
) -> None:
    installer.set_model(model)
    installer.install()
    config = load_config(installer.path(CONF))
    assert config.leds.backend == backend
    assert config.buttons.backend == buttons
    assert config.serial.port == "/dev/riskboard-pico"


def test_fresh_config_keeps_the_example_comments(installer: Installer) -> None:
    installer.install()
    text = installer.path(CONF).read_text()
    assert text.startswith("# Created by install.sh for: Raspberry Pi 4 Model B Rev 1.4\n")
    example = (REPO / "deploy" / "config.example.toml").read_text()
    assert text.count("\n#") >= example.count("\n#")


def test_no_root_drop_in_for_ws281x_on_the_spi_pin(installer: Installer) -> None:
    installer.install()
    assert not installer.path(DROPINS).exists()


def test_root_is_set_as_a_root_directory_by_environment(installer: Installer) -> None:
    installer.run(
        "--no-pip",
        "--no-systemctl",
        "--model-file",
        str(installer.model_file),
        env={"RISKBOARD_ROOT": str(installer.root)},
    )
    assert installer.path(UNIT).is_file()


# --- idempotency and updates ------------------------------------------------------


def test_second_run_changes_nothing(installer: Installer) -> None:
    installer.install()
    before = snapshot(installer.root)
    run = installer.install()
    assert snapshot(installer.root) == before
    assert "nothing to change" in run.stdout


def test_update_keeps_an_edited_config(installer: Installer) -> None:
    installer.install()
    edit_config(installer, "brightness = 0.5", "brightness = 0.2")
    edited = installer.path(CONF).read_bytes()
    installer.set_model("pi5")  # even a new board would not rewrite an existing config
    run = installer.install()
    assert installer.path(CONF).read_bytes() == edited
    assert "kept your /etc/riskboard/config.toml" in run.stdout


def test_update_leaves_games_untouched(installer: Installer) -> None:
    installer.install()
    games = installer.path(DATA) / "games.sqlite"
    games.write_bytes(b"SQLite format 3\x00 a game in progress")
    before = snapshot(installer.path(DATA))
    installer.install()
    assert snapshot(installer.path(DATA)) == before


def test_update_refreshes_the_example_but_not_the_config(installer: Installer) -> None:
    installer.install()
    installer.path("/etc/riskboard/config.example.toml").write_text("# old example\n")
    installer.install()
    assert (
        installer.path("/etc/riskboard/config.example.toml").read_text()
        == (REPO / "deploy" / "config.example.toml").read_text()
    )


def test_bad_edited_config_stops_the_update_and_names_the_key(installer: Installer) -> None:
    installer.install()
    edit_config(installer, "brightness = 0.5", "brightness = 1.5")
    installer.stub("systemctl")
    run = installer.run(
        "--root",
        str(installer.root),
        "--no-pip",
        "--services",
        "live",
        "--model-file",
        str(installer.model_file),
        check=False,
    )
    assert run.returncode == 1
    assert "leds.brightness must be between 0 and 1, got 1.5" in run.stderr
    assert not any("restart" in call for call in installer.calls())


# --- drop-ins follow the config ---------------------------------------------------


def test_ws281x_on_a_pwm_pin_adds_the_root_drop_in_and_spi_removes_it(
    installer: Installer,
) -> None:
    installer.install()
    edit_config(installer, "gpio_pin = 10", "gpio_pin = 18")
    run = installer.install()
    dropin = installer.path(DROPINS) / "ws281x-root.conf"
    assert dropin.read_text() == (REPO / "deploy" / "ws281x-root.conf").read_text()
    assert "runs the service as root" in run.stderr
    edit_config(installer, "gpio_pin = 18", "gpio_pin = 10")
    installer.install()
    assert not installer.path(DROPINS).exists()


def test_moved_data_dir_is_created_and_made_writable(installer: Installer) -> None:
    installer.install()
    edit_config(installer, 'data_dir = "/var/lib/riskboard"', 'data_dir = "/srv/risk"')
    installer.install()
    assert installer.path("/srv/risk").is_dir()
    dropin = (installer.path(DROPINS) / "data-dir.conf").read_text()
    assert "ReadWritePaths=/srv/risk\n" in dropin


def test_low_web_port_gets_only_the_bind_capability(installer: Installer) -> None:
    installer.install()
    edit_config(installer, "port = 8080", "port = 80")
    installer.install()
    dropin = (installer.path(DROPINS) / "low-port.conf").read_text()
    assert "AmbientCapabilities=CAP_NET_BIND_SERVICE" in dropin


# --- systemd, udev and pip, through stubs -----------------------------------------


def test_offline_install_enables_the_unit_in_the_root(installer: Installer) -> None:
    installer.stub("systemctl")
    installer.run(
        "--root", str(installer.root), "--no-pip", "--model-file", str(installer.model_file)
    )
    assert installer.calls() == [
        f"systemctl --root={installer.root} --quiet enable riskboard.service"
    ]


def test_without_a_udev_daemon_the_install_goes_on_and_says_so(installer: Installer) -> None:
    installer.stub("systemctl")
    installer.stub("udevadm", "#!/bin/sh\necho 'Failed to send reload request' >&2\nexit 1\n")
    run = installer.run("--root", str(installer.root), "--no-pip", "--services", "live",
                        "--model-file", str(installer.model_file))
    assert "udev is not running here" in run.stderr
    assert installer.calls()[-1] == "systemctl restart riskboard.service"
    installer.run("uninstall", "--root", str(installer.root), "--services", "live")


def test_live_update_reloads_and_restarts_the_service(installer: Installer) -> None:
    installer.stub("systemctl")
    installer.stub("udevadm")
    args = (
        "--root",
        str(installer.root),
        "--no-pip",
        "--services",
        "live",
        "--model-file",
        str(installer.model_file),
    )
    installer.run(*args)
    first = installer.calls()
    assert "udevadm control --reload-rules" in first
    assert first[-3:] == [
        "systemctl daemon-reload",
        "systemctl --quiet enable riskboard.service",
        "systemctl restart riskboard.service",
    ]
    installer.calls_log.unlink()
    installer.run(*args)  # the update: the rule did not change, the service restarts
    assert installer.calls() == first[-3:]


def stub_python(installer: Installer) -> Path:
    """A python that records venv creation, pip and config checks, and runs the rest."""
    real_python = Path(__import__("sys").executable)
    log = installer.calls_log
    installer.stub(
        "fakepython",
        f"""#!/bin/sh
if [ "$1" = "-m" ] && [ "$2" = "venv" ]; then
    echo "python -m venv $3" >> "{log}"
    mkdir -p "$3/bin"
    cat > "$3/bin/pip" <<'PIP'
#!/bin/sh
echo "pip $*" >> "{log}"
echo "PYPI=$PYPI" >> "{log}.env"
# `pip wheel --wheel-dir DIR`: leave the wheel a real build would
prev=""
for arg in "$@"; do
    if [ "$prev" = "--wheel-dir" ]; then touch "$arg/riskboard-0.1.0-py3-none-any.whl"; fi
    prev="$arg"
done
PIP
    printf '#!/bin/sh\\nPYTHONPATH="{REPO}" exec "{real_python}" "$@"\\n' > "$3/bin/python"
    chmod +x "$3/bin/pip" "$3/bin/python"
    exit 0
fi
if [ "$1 $2 $3" = "-m pi_app.config --install-settings" ]; then
    mode=check; [ "$4" = "--lenient" ] && mode=lenient
    echo "python config-$mode PYTHONPATH=$PYTHONPATH" >> "{log}"
fi
exec "{real_python}" "$@"
""",
    )
    return installer.bin_dir / "fakepython"


def pip_install_args(installer: Installer, source: Path | str) -> tuple[str, ...]:
    return (
        "--root",
        str(installer.root),
        "--no-systemctl",
        "--source",
        str(source),
        "--python",
        str(stub_python(installer)),
        "--model-file",
        str(installer.model_file),
    )


def fake_checkout(installer: Installer) -> Path:
    """A source folder pip would build (its content does not matter to the stub pip)."""
    src = installer.root.parent / "src" / "riskboard"
    src.mkdir(parents=True)
    (src / "pyproject.toml").write_text("[project]\nname = 'riskboard'\n")
    return src


def pip_calls(installer: Installer) -> list[str]:
    """The stub pip's calls, without the options every call has."""
    calls = [c for c in installer.calls() if c.startswith("pip ")]
    for call in calls:
        assert call.startswith("pip --no-cache-dir --disable-pip-version-check -q "), call
    return [c.removeprefix("pip --no-cache-dir --disable-pip-version-check -q ") for c in calls]


def test_pip_upgrades_itself_then_builds_the_package_once_and_installs_it_with_pi_extras(
    installer: Installer,
) -> None:
    args = pip_install_args(installer, fake_checkout(installer))
    installer.run(*args)
    calls = [c for c in installer.calls() if not c.startswith("python config-")]
    release = re.fullmatch(r"python -m venv (\S+)", calls[0])
    assert release, calls[0]
    first = Path(release.group(1))
    assert first.parent == installer.path("/opt/riskboard/releases")
    # the service's path is a link to the release
    assert installer.path("/opt/riskboard/venv").resolve() == first.resolve()
    pip = pip_calls(installer)
    assert len(pip) == 4, pip
    # Debian's pip 23.0 would build rpi-ws281x with the deprecated `setup.py install`
    assert pip[0] == "install --upgrade pip setuptools wheel"
    build = re.fullmatch(r"wheel --no-deps --wheel-dir (\S+)/dist (\S+)", pip[1])
    assert build, pip[1]
    wheel = f"{build.group(1)}/dist/riskboard-0.1.0-py3-none-any.whl"
    assert pip[2] == f"install --upgrade {wheel}[pi]"
    assert pip[3] == f"install --force-reinstall --no-deps {wheel}"
    assert sum(call.startswith("wheel ") for call in pip) == 1  # built once
    installer.calls_log.unlink()
    installer.run(*args)  # an update: a copy of the running venv, upgraded, then switched
    assert not any(c.startswith("python -m venv") for c in installer.calls())
    assert [c.split()[0] for c in pip_calls(installer)] == ["install", "wheel", "install",
                                                            "install"]
    second = installer.path("/opt/riskboard/venv").resolve()
    assert second != first.resolve() and second.parent == first.parent
    # the release before is kept for a switch back; the one before that is not
    assert sorted(p.name for p in first.parent.iterdir()) == sorted([first.name, second.name])
    installer.run(*args)
    third = installer.path("/opt/riskboard/venv").resolve()
    assert sorted(p.name for p in first.parent.iterdir()) == sorted([second.name, third.name])


def test_a_pi_5_does_not_build_rpi_ws281x(installer: Installer) -> None:
    installer.set_model("pi5")
    installer.run(*pip_install_args(installer, fake_checkout(installer)))
    installs = [c for c in pip_calls(installer) if c.startswith("install --upgrade ") and
                "riskboard-" in c]
    assert len(installs) == 1 and installs[0].endswith(".whl[pi5]"), installs
    extras = tomllib.loads((REPO / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]
    assert not any("ws281x" in dep for dep in extras["pi5"])
    assert any("lgpio" in dep for dep in extras["pi5"])


def test_a_wheel_is_installed_without_building(installer: Installer, tmp_path: Path) -> None:
    wheel = tmp_path / "riskboard-0.1.0-py3-none-any.whl"
    wheel.write_bytes(b"PK")
    installer.run(*pip_install_args(installer, wheel))
    pip = pip_calls(installer)
    assert not any(call.startswith("wheel ") for call in pip)
    assert pip[-1].startswith("install --force-reinstall --no-deps ")
    assert pip[-1].endswith("/dist/riskboard-0.1.0-py3-none-any.whl")


def test_the_config_is_checked_with_the_new_code_before_pip_touches_the_venv(
    installer: Installer,
) -> None:
    args = pip_install_args(installer, REPO)
    installer.run(*args)
    calls = installer.calls()
    assert calls[0] == f"python config-check PYTHONPATH={REPO}"
    assert [c.split()[0] for c in calls[1:]] == ["python", "pip", "pip", "pip", "pip"]
    installer.calls_log.unlink()
    installer.run(*args)  # the update: checked by the checkout's loader, then pip
    assert [c.split()[0] for c in installer.calls()] == ["python", "pip", "pip", "pip", "pip"]
    assert installer.calls()[0] == f"python config-check PYTHONPATH={REPO}"
    edit_config(installer, "brightness = 0.5", "brightness = 1.5")
    installer.calls_log.unlink()
    run = installer.run(*args, check=False)
    assert run.returncode == 1
    assert "leds.brightness must be between 0 and 1, got 1.5" in run.stderr
    assert not any(call.startswith("pip") for call in installer.calls())


# --- uninstall ----------------------------------------------------------------------


def test_uninstall_removes_the_program_and_keeps_config_and_games(installer: Installer) -> None:
    installer.install()
    edit_config(installer, "brightness = 0.5", "brightness = 0.3")
    games = installer.path(DATA) / "games.sqlite"
    games.write_bytes(b"a game")
    installer.path("/opt/riskboard/venv/bin").mkdir(parents=True)
    installer.run("uninstall", "--root", str(installer.root), "--no-systemctl")
    for gone in (UNIT, RULE, "/usr/local/bin/riskboard", "/opt/riskboard"):
        assert not installer.path(gone).exists() and not installer.path(gone).is_symlink(), gone
    assert "brightness = 0.3" in installer.path(CONF).read_text()
    assert games.read_bytes() == b"a game"


def service_files() -> list[str]:
    """Every file the service writes in its data folder, named as the code names them (and
    the temporaries it writes them through), so a new one cannot be forgotten by purge."""
    from pi_app.cli.serve import HOST_PIN_FILE
    from pi_app.table.bringup_desk import LEARNED_NAME
    from pi_app.table.rig import JOURNAL_NAME, LINK_POSITION_NAME
    from pi_app.web.limits import HostDevices
    from pi_app.web.seats import SeatTokens

    learned = [LEARNED_NAME, LEARNED_NAME + ".bak"]  # save_profile keeps the last as .bak
    return [JOURNAL_NAME, *(JOURNAL_NAME + side for side in ("-wal", "-shm", "-journal")),
            SeatTokens.FILE_NAME, str(Path(SeatTokens.FILE_NAME).with_suffix(".tmp")),
            HostDevices.FILE_NAME, str(Path(HostDevices.FILE_NAME).with_suffix(".tmp")),
            LINK_POSITION_NAME, LINK_POSITION_NAME + ".tmp", HOST_PIN_FILE,
            *learned, *(f".{name}.new" for name in learned)]


def test_uninstall_purge_removes_config_and_games(installer: Installer) -> None:
    installer.install()
    for name in service_files():
        (installer.path(DATA) / name).write_bytes(b"riskboard's")
    installer.run("uninstall", "--purge", "--root", str(installer.root), "--no-systemctl")
    assert not installer.path("/etc/riskboard").exists()
    assert not installer.path(DATA).exists()


def test_purge_deletes_only_riskboards_files_and_keeps_a_folder_still_in_use(
    installer: Installer,
) -> None:
    installer.install()
    (installer.path(DATA) / "journal.sqlite").write_bytes(b"a game")
    (installer.path(DATA) / "notes.txt").write_text("the owner's own file")
    run = installer.run("uninstall", "--purge", "--root", str(installer.root), "--no-systemctl")
    assert sorted(p.name for p in installer.path(DATA).iterdir()) == ["notes.txt"]
    assert "kept /var/lib/riskboard: it still holds files that are not riskboard's" in run.stderr


def set_data_dir(installer: Installer, value: str) -> None:
    edit_config(installer, 'data_dir = "/var/lib/riskboard"', f"data_dir = {value!r}".replace(
        "'", '"'))


@pytest.mark.parametrize("folder", ["/home", "/", "/etc"])
def test_a_system_folder_as_data_dir_is_refused_and_never_purged(
    installer: Installer, folder: str
) -> None:
    installer.install()
    home_file = installer.path("/home/alice/thesis.txt")
    home_file.parent.mkdir(parents=True)
    home_file.write_text("years of work")
    (installer.path("/etc") / "hostname").write_text("pi\n")
    set_data_dir(installer, folder)
    before = snapshot(installer.root)
    run = installer.install(check=False)
    assert run.returncode == 1
    assert f'storage.data_dir = "{folder}" is a system folder' in run.stderr or (
        "inside /home or /root" in run.stderr)
    assert snapshot(installer.root) == before  # nothing chowned, chmodded or created
    run = installer.run("uninstall", "--purge", "--root", str(installer.root), "--no-systemctl")
    assert home_file.read_text() == "years of work"
    assert installer.path("/etc/hostname").read_text() == "pi\n"
    assert f"kept {folder}" in run.stderr


def test_a_users_home_folder_as_data_dir_is_refused(installer: Installer) -> None:
    installer.install()
    passwd = installer.path("/etc/passwd")
    passwd.write_text("root:x:0:0:root:/root:/bin/bash\nbob:x:1001:1001::/srv/bob:/bin/sh\n")
    installer.path("/srv/bob").mkdir(parents=True)
    set_data_dir(installer, "/srv/bob")
    run = installer.install(check=False)
    assert run.returncode == 1
    assert "is a user's home folder" in run.stderr


def test_a_folder_holding_other_files_is_not_adopted(installer: Installer) -> None:
    installer.install()
    other = installer.path("/srv/media")
    other.mkdir(parents=True)
    (other / "film.mkv").write_bytes(b"not a game")
    set_data_dir(installer, "/srv/media")
    before = snapshot(other)
    run = installer.install(check=False)
    assert run.returncode == 1
    assert "already holds files riskboard did not put there (e.g. 'film.mkv')" in run.stderr
    assert snapshot(other) == before


def test_an_empty_folder_is_adopted_and_marked(installer: Installer) -> None:
    installer.install()
    installer.path("/srv/risk").mkdir(parents=True)
    set_data_dir(installer, "/srv/risk")
    installer.install()
    assert (installer.path("/srv/risk") / ".riskboard-data").is_file()
    (installer.path("/srv/risk") / "journal.sqlite").write_bytes(b"a game")
    installer.install()  # marked: its games do not make it foreign
    installer.run("uninstall", "--purge", "--root", str(installer.root), "--no-systemctl")
    assert not installer.path("/srv/risk").exists()


@pytest.mark.parametrize(
    ("value", "sentence"),
    [
        ("~/games", "starts with ~"),
        ("/srv/my games", "contains a space"),
        ("/home/pi/risk", "inside /home or /root"),
        ("/root/risk", "inside /home or /root"),
        ("/srv/../etc", "contains . or .. parts"),
    ],
)
def test_a_data_dir_the_service_could_not_use_is_refused_with_a_sentence(
    installer: Installer, value: str, sentence: str
) -> None:
    installer.install()
    set_data_dir(installer, value)
    run = installer.install(check=False)
    assert run.returncode == 1
    assert sentence in run.stderr
    assert not installer.path(DROPINS).exists()


def test_reinstall_after_uninstall_keeps_the_old_config(installer: Installer) -> None:
    installer.install()
    edit_config(installer, "brightness = 0.5", "brightness = 0.3")
    installer.run("uninstall", "--root", str(installer.root), "--no-systemctl")
    installer.install()
    assert tomllib.loads(installer.path(CONF).read_text())["leds"]["brightness"] == 0.3


def test_unknown_option_is_refused(installer: Installer) -> None:
    run = installer.run("--root", str(installer.root), "--frobnicate", check=False)
    assert run.returncode == 1
    assert "unknown argument: --frobnicate" in run.stderr


def test_a_game_in_progress_resumes_after_an_update(installer: Installer) -> None:
    args = pip_install_args(installer, REPO)
    installer.stub("systemctl")
    installer.run(*args)
    data_dir = load_config(installer.path(CONF)).storage.data_dir
    journal_path = installer.path(str(data_dir)) / "journal.sqlite"
    with Journal(journal_path) as journal:
        session = GameSession.new(journal, "classic", ["red", "blue", "green"])
        initial = session.state.to_dict()
        for _ in range(6):  # six claims, each journaled (the dice decided who starts)
            state = session.state
            session.submit(legal_commands(state, state.current_player)[0])
        before = session.state.to_dict()
        assert before != initial
        game_id = session.game_id
    installer.calls_log.unlink()
    installer.run(*args, "--services", "live")  # the update, with pip and systemctl stubbed
    assert [c.split()[0] for c in installer.calls()] == [
        "python", "pip", "pip", "pip", "pip", "systemctl", "systemctl", "systemctl"]
    assert journal_path.is_file()
    with Journal(journal_path) as journal:
        (resumed,) = GameSession.resume_unfinished(journal)
        assert resumed.game_id == game_id
        assert resumed.state.to_dict() == before


def test_lgpio_is_built_from_its_own_c_sources_on_every_python(installer: Installer) -> None:
    """Trixie's Python 3.13 has no lgpio wheel, and liblgpio-dev is only in Raspberry Pi's
    archive: install.sh asks apt for no liblgpio-dev and lets lgpio's setup.py link its
    own C sources (PYPI=1), on every pip call."""
    real = __import__("sys").executable
    installer.stub("python3.13", f"""#!/bin/sh
# a Python 3.13 (Debian 13): answers a version probe as 3.13 would
if [ "$1" = "-c" ]; then exec "{real}" -c "import sys; sys.exit(True)"; fi
exec "{real}" "$@"
""")
    for python in (str(installer.bin_dir / "python3.13"), real):
        packages = installer.run("--list-apt-packages", "--python", python).stdout.split()
        assert "liblgpio-dev" not in packages
        assert {"swig", "gcc", "python3-dev", "python3-venv"} <= set(packages)
    installer.run(*pip_install_args(installer, fake_checkout(installer)))
    env = Path(f"{installer.calls_log}.env").read_text().splitlines()
    assert len(env) == len(pip_calls(installer)) == 4
    assert set(env) == {"PYPI=1"}


# --- updates that fail (issue 24.5) ---------------------------------------------------


def test_a_failed_update_keeps_the_running_version_and_says_so(installer: Installer) -> None:
    args = pip_install_args(installer, fake_checkout(installer))
    installer.run(*args)
    link = installer.path("/opt/riskboard/venv")
    running = link.resolve()
    releases = sorted(running.parent.iterdir())
    # the Wi-Fi drops while pip builds the new version: its pip fails from then on
    pip = running / "bin" / "pip"
    pip.write_text(pip.read_text() + 'case "$*" in *wheel*) echo "pip: Temporary failure in'
                   ' name resolution" >&2; exit 1;; esac\n')
    run = installer.run(*args, check=False)
    assert run.returncode == 1
    assert ("the update could not be installed (pip, above; a network problem?); the running "
            "version was not touched and is still running") in run.stderr
    assert link.resolve() == running
    assert sorted(running.parent.iterdir()) == releases  # the half-built copy is gone


def test_a_new_version_that_does_not_start_is_switched_back(installer: Installer) -> None:
    args = (*pip_install_args(installer, fake_checkout(installer)), "--services", "live")
    installer.stub("udevadm")
    installer.stub("systemctl")
    installer.run(*args)
    link = installer.path("/opt/riskboard/venv")
    running = link.resolve()
    # systemctl restart fails once (the new version does not reach READY), then works
    flag = installer.root.parent / "fail-once"
    flag.touch()
    installer.stub("systemctl", f"""#!/bin/sh
echo "systemctl $*" >> "{installer.calls_log}"
if [ "$1" = restart ] && [ -e "{flag}" ]; then rm "{flag}"; exit 1; fi
exit 0
""")
    installer.calls_log.unlink()
    run = installer.run(*args, check=False)
    assert run.returncode == 1
    assert ("the new version did not start (journalctl -u riskboard shows why); the previous "
            "version is running again") in run.stderr
    assert link.resolve() == running
    assert [c for c in installer.calls() if c.startswith("systemctl restart")] == [
        "systemctl restart riskboard.service"] * 2
    assert [p.name for p in running.parent.iterdir()] == [running.name]


def test_an_install_from_before_releases_is_updated_and_can_go_back(installer: Installer
                                                                    ) -> None:
    args = pip_install_args(installer, fake_checkout(installer))
    installer.run(*args)
    link = installer.path("/opt/riskboard/venv")
    release = link.resolve()
    link.unlink()
    release.rename(link)  # the venv folder as install.sh made it before releases
    (release.parent).rmdir()
    installer.run(*args)
    assert link.is_symlink()
    names = sorted(p.name for p in link.resolve().parent.iterdir())
    assert len(names) == 2, names
    assert sum(name.endswith("-before-releases") for name in names) == 1, names
