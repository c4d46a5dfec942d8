"""The /dice page re-derives every draw in the browser (WebCrypto) for games of both dice
derivation versions: an honest record is confirmed, an altered face is caught at its draw,
and a version-2 record presented under a version-1 commitment fails (the commitment names
the version). Records are drawn here with the real dice and served by the real table service."""

from __future__ import annotations

import hashlib

import pytest

from pi_app.dice import FairDice, FairDiceV1, RecordingSource

from .browsing import serving, shot

pytestmark = pytest.mark.browser

SEED = bytes(range(7, 39))


def record(make) -> dict:
    """A revealed game's dice record: three shuffles, 80 battles' rolls, a shuffle, more rolls
    (version 2 crosses many blocks and starts a below on a part-used one)."""
    recorder = RecordingSource(make(SEED))
    for n in (42, 41, 40):
        recorder.below(n)
    for round_ in range(80):
        recorder.roll(3 if round_ % 3 else 1)
        recorder.roll(2 if round_ % 2 else 1)
    recorder.below(44)
    for _ in range(10):
        recorder.roll(3)
    dice = recorder.inner
    return {"commitment": dice.commitment, "seed": dice.reveal(),
            "draws": recorder.take_draws()}


@pytest.fixture(scope="module")
def context(chromium):
    _pw, launched = chromium
    context = launched.new_context(viewport={"width": 1280, "height": 900})
    yield context
    context.close()


def verify_in_browser(context, tmp_path, dice_record: dict, table) -> str:
    """Serve `table` answering this dice record (the page's verifier is what is tested, so
    the record is planted); press Verify; return the verdict."""
    table.dice_record = lambda: dice_record
    with serving(table, tmp_path / "data") as (_app, server):
        page = context.new_page()
        page.goto(f"{server.url}/dice")
        page.wait_for_selector("#verify-btn:not([disabled])")
        page.click("#verify-btn")
        page.wait_for_function(
            "document.getElementById('verify-out').textContent.match(/[✓✗]|error/)",
            timeout=60000)
        text = page.locator("#verify-out").inner_text()
        if text.startswith("✓"):
            shot(page, f"dice-verified-{dice_record['commitment'][:2]}")
        page.close()
        return text


@pytest.mark.parametrize("make,version", [(FairDice, 2), (FairDiceV1, 1)], ids=["v2", "v1"])
def test_the_dice_page_confirms_an_honest_record_of_either_version(context, tmp_path, make,
                                                                   version, served_table):
    honest = record(make)
    assert honest["commitment"].startswith("v2:") == (version == 2)
    dice_count = sum(len(d[1]) if d[0] == "d" else 1 for d in honest["draws"])
    text = verify_in_browser(context, tmp_path, honest, served_table())
    assert text.startswith("✓"), text
    assert f"all {dice_count} draws" in text and f"version {version})" in text


@pytest.mark.parametrize("make", [FairDice, FairDiceV1], ids=["v2", "v1"])
def test_the_dice_page_catches_an_altered_face(context, tmp_path, make, served_table):
    altered = record(make)
    index = 100  # a roll in the middle of the game
    draw = altered["draws"][index]
    assert draw[0] == "d"
    draw[1][0] = draw[1][0] % 6 + 1
    text = verify_in_browser(context, tmp_path, altered, served_table())
    assert text.startswith(f"✗ Draw {index + 1}: recorded {draw[1][0]}"), text


def test_a_version_2_record_fails_under_a_version_1_commitment(context, tmp_path,
                                                              served_table):
    claimed = record(FairDice)
    claimed["commitment"] = hashlib.sha256(SEED).hexdigest()  # "v2:" dropped after the game
    text = verify_in_browser(context, tmp_path, claimed, served_table())
    assert text.startswith("✗ Draw 1:"), text
