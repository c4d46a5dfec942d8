"""What bringing up a board takes: the steps in order and the maker's actions each needs,
predicted from a profile (the board as wired). The design's aim: one touch per territory
for sensors, one per territory for LEDs (plus one per extra run when a territory's LEDs
come in more than one stretch of the chain)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hardware.profiles import BoardProfile


@dataclass(frozen=True)
class StepActions:
    """One step of a bring-up and what the maker does in it: touches of the board (a press
    or a tag on a reader), phone taps and control button presses."""

    step: str
    touches: int = 0
    taps: int = 0
    presses: int = 0


def _blocks(owners: Sequence[str | None]) -> list[tuple[str | None, int]]:
    blocks: list[tuple[str | None, int]] = []
    for owner in owners:
        if blocks and blocks[-1][0] == owner and owner is not None:
            blocks[-1] = (owner, blocks[-1][1] + 1)
        else:
            blocks.append((owner, 1))
    return blocks


def plan(profile: BoardProfile, control_names: Sequence[str], colours: Sequence[str], *,
         count_corrected: bool = False) -> list[StepActions]:
    """The steps a bring-up of `profile`'s wiring takes and the actions each needs."""
    owners: list[str | None] = [None] * profile.led_count
    for territory, leds in profile.territory_leds.items():
        for index in leds:
            owners[index] = f"t:{territory}"
    for group, leds in profile.status_leds.items():
        for index in leds:
            owners[index] = f"s:{group}"
    blocks = _blocks(owners)
    runs = sum(1 for owner, _n in blocks if owner is not None and owner.startswith("t:"))
    status_taps = sum(n + 1 for owner, n in blocks if owner is not None and owner.startswith("s:"))
    dead = sum(1 for owner, _n in blocks if owner is None)
    territories = len(profile.territories)
    steps = [
        StepActions("led_count", taps=1 + int(count_corrected)),
        StepActions("colour_order", taps=2),
        StepActions("sensors", touches=territories),
        StepActions("leds", touches=runs, taps=status_taps + dead),
        StepActions("controls", presses=len(profile.controls),
                    taps=sum(1 for c in control_names if c not in profile.controls)),
    ]
    if any(s.kind == "nfc" for s in profile.sensors.values()):
        with_token = sum(1 for c in colours if profile.tokens.get(c))
        steps.append(StepActions("tokens", touches=with_token, taps=len(colours) - with_token))
        steps.append(StepActions("markers", taps=len(colours),
                                 touches=sum(len(profile.markers.get(c, ())) for c in colours)))
    steps.append(StepActions("check", taps=1))
    return steps
