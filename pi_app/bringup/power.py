"""The power budget check of a bring-up: every LED full white at the configured brightness
against the LED supply, with hardware.output_stage's current model (the same one that
dims a frame that would draw too much)."""

from __future__ import annotations

from dataclasses import dataclass

from hardware.output_stage import OutputStage


@dataclass(frozen=True)
class PowerCheck:
    """Milliamps of the whole chain at full white, the supply's budget (None: no limit) and
    the highest brightness that keeps full white within it."""

    milliamps: float
    budget_milliamps: float | None
    fits: bool
    max_brightness: float

    @property
    def prompt_key(self) -> str:
        """The message key that tells the maker the result."""
        return "bringup.power.ok" if self.fits else "bringup.power.over"


def check_power(led_count: int, brightness: float, supply_amps: float | None) -> PowerCheck:
    """Estimate full white on `led_count` LEDs at `brightness` against `supply_amps`."""
    milliamps = _full_white_milliamps(led_count, brightness)
    budget = None if supply_amps is None else \
        OutputStage(led_count, supply_amps=supply_amps).budget_milliamps
    if budget is None or milliamps <= budget:
        return PowerCheck(milliamps, budget, True, brightness)
    low, high = 0.0, brightness
    for _ in range(20):  # bisect: the estimate grows with brightness
        middle = (low + high) / 2
        if _full_white_milliamps(led_count, middle) <= budget:
            low = middle
        else:
            high = middle
    return PowerCheck(milliamps, budget, False, round(low, 3))


def _full_white_milliamps(led_count: int, brightness: float) -> float:
    stage = OutputStage(led_count, brightness=brightness, supply_amps=None)
    return stage.estimate_milliamps(stage.render([(255, 255, 255)] * led_count))
