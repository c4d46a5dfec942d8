"""Check 4, first half: a game set up by sensor touches, then one phase ended by a button."""

from __future__ import annotations

import re
import time

from tools.pibox.box import Box
from tools.pibox.checks.pico_strip import shim_log
from tools.pibox.errors import CheckFailed
from tools.pibox.game import Game, leds_show_owners
from tools.pibox.run import Run
from tools.pibox.web import wait_port


def host_pin(box: Box) -> str:
    """The host PIN as README says to find it: `journalctl -u riskboard | grep PIN`."""
    out = box.maker("journalctl -u riskboard --no-pager | grep PIN", check=False).stdout
    pins = re.findall(r"host PIN (\S+)", out)
    if not pins:
        raise CheckFailed("`journalctl -u riskboard | grep PIN` as the maker shows no host PIN")
    return pins[-1]


def check_4_game_setup(run: Run) -> str:
    """4 (first half). The host starts a game with the PIN from the journal; every territory
    is claimed and every setup army placed by sensor touches; the LEDs show the owners."""
    assert run.pico is not None
    wait_port()
    run.game = game = Game(host_pin(run.box))
    game.start()
    channels = {t: s.channel for t, s in run.profile.sensors.items()}
    with run.timed("setup by touches"):
        game.touch_setup(run.pico, channels)
    view = game.view()
    if view["phase"] in ("claim", "setup_place"):
        raise CheckFailed(f"setup did not finish by touches (phase {view['phase']})")
    assert run.strip is not None
    leds_show_owners(run.strip, view, dict(run.profile.territory_leds))
    pressed = end_phase_by_button(run)
    return (f"{game.touches} touches claimed 42 territories and placed the setup armies in "
            f"{run.timings['setup by touches']:.0f} s; every territory lit in its owner's "
            f"colour on the strip decoded from rpi-ws281x's SPI bytes; {pressed}")


def end_phase_by_button(run: Run) -> str:
    """The game is played over HTTP to the first attack phase; then the End phase button
    (the profile's GPIO line) is pressed through lgpio: the attack phase ends (fortify),
    the same player's turn, one more command in the journal."""
    assert run.game is not None and run.strip is not None
    game, box = run.game, run.box
    view = game.view()
    for _ in range(200):
        if (view["phase"] == "attack" and not view.get("pending")) or view["winner"]:
            break
        view = game.play(1)
    if view["phase"] != "attack" or view.get("pending"):
        raise CheckFailed(f"the game never reached an attack phase to end by button "
                          f"(phase {view['phase']})")
    gpio = run.profile.controls["end_phase"]
    player, journal = view["current_player"], box.journal_end(int(view["game_id"]))
    run.strip.press(gpio)
    after = game.wait_seq(view["seq"], 60)
    deadline = time.monotonic() + 30
    while after["phase"] == "attack" and time.monotonic() < deadline:  # a lit selection first
        time.sleep(0.2)
        after = game.view()
    now = box.journal_end(int(view["game_id"]))
    if after["phase"] != "fortify" or after["current_player"] != player or \
            now[0] != journal[0] + 1:
        raise CheckFailed(f"End phase pressed on GPIO {gpio} did not end {player}'s attack: "
                          f"phase {after['phase']}, {after['current_player']}'s turn, journal "
                          f"{journal} -> {now}; refusal: {after['table'].get('refusal')}; "
                          f"shim log: {shim_log(box, 4)}")
    return (f"End phase pressed on GPIO {gpio} (an edge on the shim's line, read by lgpio) "
            f"ended {player}'s attack: phase fortify, journal {journal[0]} -> {now[0]} commands")
