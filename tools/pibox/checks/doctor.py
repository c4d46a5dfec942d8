"""Check 7: `riskboard doctor` as README's troubleshooting says, as the maker and as root."""

from __future__ import annotations

import re

from tools.pibox.errors import CheckFailed
from tools.pibox.run import Run


def check_7_doctor(run: Run) -> str:
    """7. `riskboard doctor`, run by the maker exactly as README's troubleshooting says, and
    as root (`sudo`, which reads config.txt itself), prints "All checks passed"; the LEDs
    and buttons are what really answered in the running service (doctor asks it, never
    opens what it holds): rpi-ws281x's strip and gpiozero's LGPIO pins, through the shim.
    After the bring-up (check 11), both say the table runs on the learned profile and that
    the board that answers matches it."""
    said = []
    for who, line in (("the maker", "riskboard doctor"), ("root", "sudo riskboard doctor")):
        proc = run.box.maker(line, 600, check=False)
        out = (proc.stdout + proc.stderr).strip()
        if proc.returncode != 0 or "All checks passed" not in out:
            failed = [ln for ln in out.splitlines() if ln.startswith(("FAIL", "Trace"))]
            raise CheckFailed(f"`{line}` as {who} exited {proc.returncode}: "
                              + (" | ".join(failed) or out[-800:]))
        lines = {name: next((ln.strip() for ln in out.splitlines()
                             if re.match(rf"^(ok|WARN|FAIL) +{name} ", ln)), "")
                 for name in ("leds", "buttons", "firmware", "profile", "board")}
        if f"ws281x: {run.profile.led_count} LEDs" not in lines["leds"]:
            raise CheckFailed(f"`{line}` does not say rpi-ws281x drives the profile's "
                              f"{run.profile.led_count} LEDs: {lines['leds'][:200]}")
        if "gpiozero's LGPIO pins" not in lines["buttons"]:
            raise CheckFailed(f"`{line}` does not say lgpio answered the buttons: "
                              f"{lines['buttons'][:200]}")
        learned = "bring-up over HTTP" in run.timings  # check 11 saved a learned profile
        if learned and "learned at bring-up" not in lines["profile"]:
            raise CheckFailed(f"`{line}` does not check the profile learned at bring-up: "
                              f"{lines['profile'][:200]}")
        # The maker's doctor has the profile in use and the board's match from the service
        # (the learned profile is in its private data folder); root's reads the learned
        # profile and compares the Pico's map with it itself.
        if learned and not lines["board"].startswith("ok"):
            raise CheckFailed(f"`{line}` does not say the board matches the learned profile: "
                              f"{lines['board'][:200]}")
        said.append(f"as {who}: All checks passed; " + "; ".join(
            f'"{text[:130]}"' for text in lines.values() if text))
    return "; ".join(said)
