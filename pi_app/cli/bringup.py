"""`riskboard bringup`: teach the table how the board is wired, from a terminal.

`riskboard bringup` runs the table on the board (the Pico's link, the LED strip, the
control buttons; `--sim` the virtual board, `--sim --miswired SEED` a badly wired one to
practise on) and drives the same bring-up as the host page's (`pi_app.table.bringup_desk`):
it prints each prompt and every sensor event (press, release, tag on, tag off, with its
channel and, once mapped, its territory), and reads the maker's answers as short words
(`help` lists them). At the end it shows the diff against the profile in use and saves on
`save` (the previous file kept as .bak). Stop the service first (`sudo systemctl stop
riskboard`): the Pico and the GPIO lines take one owner at a time. On a table that is
running, use the host page's Bring-up instead (/bringup): the same walk-through, live.

`riskboard bringup --print-steps` prints the bring-up's steps in order (pi_app/bringup/core.py)
with the maker's actions each needs for the board profile in use (touches of the board,
phone taps, control presses, as pi_app/bringup/plan.py predicts them), and the power check:
every LED full white at the configured brightness against the supply in the config.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

WHAT = {
    "led_count": "say how many LEDs light (the bright one is the end of the chain)",
    "colour_order": "tap the colour the first LED shows, twice",
    "sensors": "touch each territory the phone names (or pick it, then touch it)",
    "leds": "hold the territory under the lit LED until the orange one is outside it; "
            "status LEDs and dead LEDs on the phone",
    "controls": "press each control button the phone names; skip the ones you have not",
    "tokens": "put each colour's token on any reader",
    "markers": "put each colour's marker pieces on a reader, then tap Next",
    "check": "every territory in its continent's colour: confirm at a glance",
}


def register(subparsers: Any) -> None:
    """Add the `bringup` subcommand."""
    parser = subparsers.add_parser(
        "bringup",
        help="teach the table how the board is wired (--print-steps: what it takes)",
        description="Bring-up: the board learns its wiring while you touch it. "
        "--print-steps lists the steps and the actions each needs for your board.",
    )
    parser.add_argument("--print-steps", action="store_true",
                        help="list the steps, the actions they take and the power check")
    parser.add_argument("--config", type=Path, help="TOML config file")
    parser.add_argument("--profile", help="board profile name or TOML path (default: config's)")
    parser.add_argument("--data", type=Path, help="data folder (default: the config's)")
    parser.add_argument("--sim", action="store_true", help="on the virtual board")
    parser.add_argument("--miswired", type=int, metavar="SEED", default=0,
                        help="with --sim: a virtual board wired otherwise than the profile")
    parser.add_argument("--pace", type=float, default=0.6,
                        help="seconds between two LEDs of a held territory's run (0.2-2)")
    parser.set_defaults(func=run)


def run(args: Any) -> int:
    """Print the bring-up plan of the board in use; exit 1 on a bad config or profile."""
    from hardware.control_names import CONTROL_NAMES
    from hardware.errors import ProfileError
    from hardware.profiles import load_profile
    from pi_app.bringup.plan import plan
    from pi_app.bringup.power import check_power
    from pi_app.cli.serve import config_path
    from pi_app.config import ConfigError, load_config
    from pi_app.rules.board import load_roster

    if not args.print_steps:
        from pi_app.cli.bringup_terminal import walk_through

        return walk_through(args)
    try:
        config = load_config(config_path(args.config))
        profile = load_profile(args.profile or config.board.profile)
    except (ConfigError, ProfileError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    kinds = "/".join(sorted({s.kind for s in profile.sensors.values()}))
    print(f"Bring-up of {profile.name}: {profile.led_count} LEDs, "
          f"{len(profile.territories)} territories ({kinds}), {len(profile.controls)} controls")
    power = check_power(profile.led_count, config.leds.brightness, config.leds.supply_amps)
    budget = "no supply limit" if power.budget_milliamps is None \
        else f"the supply allows {power.budget_milliamps:.0f} mA"
    verdict = "fits" if power.fits else \
        f"too much: the table dims it; brightness {power.max_brightness:.2f} at most fits"
    print(f"Power: all LEDs white at brightness {config.leds.brightness:.2f} draw about "
          f"{power.milliamps:.0f} mA; {budget} ({verdict})")
    steps = plan(profile, tuple(CONTROL_NAMES), load_roster().colours)
    for number, step in enumerate(steps, 1):
        counts = ", ".join(f"{n} {what}{'es' if what.endswith('h') else 's'}"
                           if n != 1 else f"1 {what}" for n, what in (
                               (step.touches, "touch"), (step.taps, "phone tap"),
                               (step.presses, "press")) if n)
        print(f"{number:2}. {step.step:<13} {WHAT[step.step]} ({counts})")
    print(f"Total: {sum(s.touches for s in steps)} touches of the board, "
          f"{sum(s.taps for s in steps)} phone taps, {sum(s.presses for s in steps)} "
          "control presses (plus 1 tap if the LED count needs correcting)")
    return 0
