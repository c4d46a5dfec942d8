"""Benchmark (not a test): what a maker does to bring up a miswired board (issue 25).

The scripted maker of tests/bringup/miswired.py answers the pure bring-up core
(`pi_app.bringup.core`) over boards miswired by `pi_app.table.miswired` (shuffled chain, a
reversed run, 2- and 4-LED territories, a territory in two runs, a dead LED, status LEDs,
a crossed sensor pair, controls on other lines, RGB chips; on NFC boards a reader on a spare
mux port), for classic-42 (buttons) and classic-42-nfc, over several seeds, sensors in map
order and in free order. Per board: touches (a press, or a tag put on a reader) and phone
taps per step, and per territory for the LED and sensor steps. Aims (issue 25): one touch
per territory for sensors; for LEDs one touch per run of a territory's LEDs along the chain
(one per territory, plus one for each territory whose LEDs come in two runs). Each aim line
ends OK or MISS.

Run: `.venv/bin/python -m bench.bringup_actions`."""

from __future__ import annotations

from pi_app.bringup.core import BringUp, facts_from_rules
from pi_app.table.miswired import PhysicalBoard, build_board
from tests.bringup.miswired import Maker

SEEDS = (25, 7, 1234)
STEPS = ("led_count", "colour_order", "sensors", "leds", "controls", "tokens", "markers",
         "check")


def territory_runs(board: PhysicalBoard) -> int:
    """Blocks of consecutive LEDs with one territory owner: the fewest LED touches."""
    runs, before = 0, object()
    for owner in board.owners:
        if owner != before and owner is not None and not owner.startswith("status:"):
            runs += 1
        before = owner
    return runs


def bring_up(nfc: bool, seed: int, free_order: bool) -> tuple[PhysicalBoard, Maker]:
    """One whole bring-up by the scripted maker."""
    facts = facts_from_rules()
    board = build_board(facts.territories, facts.colours, nfc=nfc, seed=seed)
    core = BringUp(facts, led_count=150, brightness=0.5, supply_amps=4.0, nfc=nfc)
    maker = Maker(board, core)
    maker.count_and_colours()
    maker.sensors(free_order)
    maker.leds()
    maker.controls()
    maker.tags()
    maker.check()
    if core.draft.step != "done":
        raise RuntimeError(f"the bring-up stopped at {core.draft.step}")
    return board, maker


def main() -> None:
    """Print the maker's actions per board, seed and order, then the aims."""
    territories = len(facts_from_rules().territories)
    misses = 0
    for profile, nfc in (("classic-42", False), ("classic-42-nfc", True)):
        print(f"{profile} ({territories} territories, "
              f"{'NFC readers' if nfc else 'push buttons'}):")
        for free_order in (False, True):
            for seed in SEEDS:
                board, maker = bring_up(nfc, seed, free_order)
                touches, taps = maker.touches_by_step, maker.taps_by_step
                per_step = "  ".join(
                    f"{step} {touches.get(step, 0)}t/{taps.get(step, 0)}p" for step in STEPS
                    if touches.get(step) or taps.get(step))
                led, sensor = touches.get("leds", 0), touches.get("sensors", 0)
                runs = territory_runs(board)
                ok = sensor == territories and led == runs
                misses += not ok
                print(f"  seed {seed:>2} {'free order' if free_order else 'map order '}: "
                      f"LEDs {led / territories:.3f} touches/territory ({led} for {runs} "
                      f"runs), sensors {sensor / territories:.3f} touches/territory, "
                      f"phone taps {maker.taps}, control presses {maker.control_presses}, "
                      f"touches in all {maker.touches} {'OK' if ok else 'MISS'}")
                print(f"      by step (t = touches, p = phone taps): {per_step}")
    print(f"aim: one sensor touch per territory, one LED touch per run: "
          f"{'OK' if not misses else f'MISS ({misses} runs)'}")


if __name__ == "__main__":
    main()
