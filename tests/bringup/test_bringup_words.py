"""Every prompt and refusal the bring-up core can give has its words in the catalogues
(test_i18n then checks the four languages hold the same keys and placeholders)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from hardware.control_names import CONTROL_NAMES
from pi_app.bringup.core import BringUp, facts_from_rules
from tests.bringup.miswired import Maker, build_board

ROOT = Path(__file__).resolve().parents[2]
ENGLISH = json.loads((ROOT / "pi_app" / "web" / "i18n" / "en.json").read_text("utf-8"))
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def test_every_prompt_a_bring_up_shows_has_words_and_its_placeholders_are_given():
    facts = facts_from_rules()
    core = BringUp(facts, led_count=150, supply_amps=4.0, nfc=True)
    maker = Maker(build_board(facts.territories, facts.colours, nfc=True), core)
    seen = {}
    original = core.view

    def watching(now):
        view = original(now)
        seen[view.prompt.key] = view.prompt.params
        if view.notice is not None:
            seen[view.notice.key] = view.notice.params
        return view

    core.view = watching  # type: ignore[method-assign]
    watching(0)
    maker.count_and_colours()
    maker.tap("order", "free")
    watching(maker.now)
    maker.tap("order", "map")
    maker.sensors()
    maker.leds()
    maker.controls()
    maker.tags()
    maker.check()
    watching(maker.now)
    assert len(seen) >= 13 and "bringup.power.over" in seen
    for key, params in seen.items():
        assert key in ENGLISH, key
        assert set(PLACEHOLDER.findall(ENGLISH[key])) <= set(params), key
    power = core.power()
    assert power.prompt_key in ENGLISH


def test_every_refusal_code_and_control_has_words():
    source = "".join(p.read_text("utf-8") for p in (ROOT / "pi_app" / "bringup").glob("*.py"))
    codes = set(re.findall(r'refused\(\s*"(\w+)"', source))
    assert len(codes) >= 20
    keys = set(re.findall(r'"(bringup\.[a-z_.]+)"', source))
    keys |= {"bringup.leds.phone_territory", "bringup.leds.phone_status"}
    assert len(keys) >= 14
    assert sorted(k for k in keys if k not in ENGLISH) == []
    assert sorted(c for c in codes if f"bringup.refused.{c}" not in ENGLISH) == []
    assert [c for c in CONTROL_NAMES if f"bringup.control.{c}" not in ENGLISH] == []
