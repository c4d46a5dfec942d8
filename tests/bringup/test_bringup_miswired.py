"""A scripted maker brings up a miswired board through the pure core, and the saved profile
holds exactly the board's true wiring, with the touches the design promises (issue 25)."""

from __future__ import annotations

import zlib
from pathlib import Path

import pytest

from hardware.profiles import load_profile
from pi_app.bringup.core import BringUp, facts_from_rules
from pi_app.bringup.profile_writer import (
    profile_diff,
    profile_text,
    save_profile,
    write_profile,
)
from pi_app.rules.board import load_map
from tests.bringup.miswired import STATUS, Maker, MiswiredBoard, build_board

FACTS = facts_from_rules()
BOARD = load_map()


def runs(owners: list[str | None]) -> int:
    """Blocks of consecutive LEDs with one territory owner: what a maker must touch."""
    count, before = 0, object()
    for owner in owners:
        if owner != before and owner is not None and not owner.startswith("status:"):
            count += 1
        before = owner
    return count


def bring_up(nfc: bool, *, free_order: bool = False) -> tuple[MiswiredBoard, BringUp, Maker]:
    board = build_board(FACTS.territories, FACTS.colours, nfc=nfc)
    core = BringUp(FACTS, led_count=150, brightness=0.5, supply_amps=4.0, nfc=nfc)
    maker = Maker(board, core)
    maker.count_and_colours()
    maker.sensors(free_order)
    maker.leds()
    maker.controls()
    maker.tags()
    maker.check()
    assert core.draft.step == "done"
    return board, core, maker


def saved_profile(tmp_path: Path, board: MiswiredBoard, core: BringUp):
    text = profile_text(core.draft, FACTS, name="my-board", map_name=BOARD.name,
                        continent_names=BOARD.continent_names,
                        sensor_count=board.sensor_count)
    written = write_profile(text, FACTS, map_name=BOARD.name)
    path = tmp_path / "my-board.toml"
    save_profile(path, written)
    return written, load_profile(path)


@pytest.mark.parametrize("nfc", [False, True], ids=["buttons", "nfc"])
def test_the_saved_profile_is_the_true_wiring_with_one_touch_per_territory(tmp_path, nfc):
    board, core, maker = bring_up(nfc)
    written, profile = saved_profile(tmp_path, board, core)
    for territory in FACTS.territories:
        assert set(profile.territory_leds[territory]) == board.leds_of(territory), territory
        assert profile.sensors[territory].channel == board.channel_of[territory], territory
        assert profile.sensors[territory].kind == ("nfc" if nfc else "button")
    for name in STATUS:
        assert set(profile.status_leds[name]) == board.leds_of(f"status:{name}")
    assert board.dead not in {i for leds in profile.territory_leds.values() for i in leds}
    assert profile.led_count == len(board.owners) == 126 + 1 + 9  # territories, dead, status
    assert '\ncolour_order = "RGB"\n' in written.text and profile.colour_order == "RGB"
    territories = len(FACTS.territories)
    # one touch per territory for sensors; for LEDs one per territory plus the one territory
    # whose LEDs come in two runs
    assert runs(board.owners) == territories + 1
    assert maker.touches_by_step["sensors"] == territories
    assert maker.touches_by_step["leds"] == territories + 1
    if nfc:
        assert maker.touches_by_step["tokens"] == len(FACTS.colours)
        assert maker.touches_by_step["markers"] == 2 * len(FACTS.colours)
        assert profile.tokens == {c: tuple(uids) for c, uids in board.tokens.items()}
        assert profile.markers == {c: tuple(u) for c, u in board.markers.items()}
    print(f"\n{'nfc' if nfc else 'buttons'}: touches={maker.touches} "
          f"by step={maker.touches_by_step} phone taps={maker.taps} "
          f"control presses={maker.control_presses}")


def test_the_sensor_crc_is_that_of_the_channels_the_board_really_has(tmp_path):
    board, core, _maker = bring_up(nfc=True)
    written, _profile = saved_profile(tmp_path, board, core)
    used = set(board.channel_of.values())
    body = "".join(f"{c}:{'nfc' if c in used else 'none'}\n" for c in range(board.sensor_count))
    assert written.sensor_crc == zlib.crc32(b"riskboard-sensors/1\n" + body.encode())
    assert len(used) == 42 and board.sensor_count == 46


def test_free_order_picks_on_the_phone_and_still_one_touch_per_territory():
    board, core, maker = bring_up(nfc=False, free_order=True)
    assert maker.touches_by_step["sensors"] == len(FACTS.territories)
    assert {t: ch for t, (ch, _k) in core.draft.sensors.items()} == board.channel_of


def test_the_continent_check_lights_every_territory_in_its_continents_colour():
    board = build_board(FACTS.territories, FACTS.colours, nfc=False)
    core = BringUp(FACTS, led_count=150, nfc=False)
    maker = Maker(board, core)
    maker.count_and_colours()
    maker.sensors()
    maker.leds()
    maker.controls()
    frame = core.view(maker.now).frame
    assert core.draft.step == "check"
    by_continent: dict[str, set] = {}
    for territory in FACTS.territories:
        colours = {frame[i] for i in board.leds_of(territory)}
        assert len(colours) == 1 and (0, 0, 0) not in colours, territory
        by_continent.setdefault(FACTS.continent_of[territory], set()).update(colours)
    assert all(len(c) == 1 for c in by_continent.values())
    assert len({next(iter(c)) for c in by_continent.values()}) == len(by_continent)
    assert frame[board.dead] == (0, 0, 0)


def test_saving_keeps_the_previous_profile_and_shows_the_diff(tmp_path):
    board, core, _maker = bring_up(nfc=False)
    path = tmp_path / "my-board.toml"
    shipped = Path(load_profile("classic-42").source).read_text("utf-8")
    path.write_text(shipped, "utf-8")
    text = profile_text(core.draft, FACTS, name="my-board", map_name=BOARD.name,
                        continent_names=BOARD.continent_names)
    diff = profile_diff(path, text, new_name="my-board (bring-up)")
    alaska = sorted(board.leds_of("alaska"))
    assert "-alaska = { leds = [0, 1, 2], sensor = 0 }" in diff
    assert f"+alaska = {{ leds = {alaska}, sensor = 0 }}" in diff
    backup = save_profile(path, write_profile(text, FACTS, map_name=BOARD.name))
    assert backup is not None and backup.read_text("utf-8") == shipped
    assert path.read_text("utf-8") == text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["my-board.toml", "my-board.toml.bak"]


def test_the_model_board_is_miswired_as_it_claims():
    board = build_board(FACTS.territories, FACTS.colours, nfc=True)
    chain = [o for i, o in enumerate(board.owners) if i == 0 or o != board.owners[i - 1]]
    territories = [o for o in chain if o is not None and not o.startswith("status:")]
    assert territories[:42] != list(FACTS.territories)  # not in map order along the chain
    sizes = sorted(len(board.leds_of(t)) for t in FACTS.territories)
    assert sizes[0] == 2 and sizes[-1] == 4
    crossed = [t for i, t in enumerate(FACTS.territories) if board.channel_of[t] != i]
    assert len(crossed) == 3  # the crossed pair and the reader on a spare port
    assert max(board.channel_of.values()) >= 42
    assert board.owners[board.dead] is None and board.dead not in (0, len(board.owners) - 1)


@pytest.mark.parametrize("nfc", [False, True], ids=["buttons", "nfc"])
def test_the_plan_predicts_the_makers_actions_from_the_wiring(tmp_path, nfc):
    from hardware.control_names import CONTROL_NAMES
    from pi_app.bringup.plan import plan

    board, core, maker = bring_up(nfc)
    _written, profile = saved_profile(tmp_path, board, core)
    steps = plan(profile, tuple(CONTROL_NAMES), FACTS.colours, count_corrected=True)
    by_step = {s.step: s for s in steps}
    assert {s: by_step[s].touches for s in maker.touches_by_step} == maker.touches_by_step
    assert sum(s.touches for s in steps) == maker.touches
    assert sum(s.taps for s in steps) == maker.taps
    assert sum(s.presses for s in steps) == maker.control_presses
