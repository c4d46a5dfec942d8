"""Dice: the fair derivation is reproducible from its documentation, uniform, restorable,
verifiable; physical dice accept only faces 1..6; recording and replay agree."""

import hashlib
import hmac
from collections import Counter

import pytest

from pi_app.dice import (
    DiceEntryError,
    FairDice,
    PhysicalDice,
    RecordingSource,
    ReplayMismatch,
    ReplaySource,
    SeededSource,
    fair_draw_count,
    verify_draws,
)

SEED = bytes(range(32))


def documented_stream(seed: bytes, n_dice: int) -> list[int]:
    """The derivation exactly as the dice module docstring describes it, written apart."""
    faces = []
    for counter in range(n_dice):
        attempt, face = 0, None
        while face is None:
            block = hmac.new(
                seed, counter.to_bytes(8, "big") + attempt.to_bytes(4, "big"), hashlib.sha256
            ).digest()
            face = next((b % 6 + 1 for b in block if b < 252), None)
            attempt += 1
        faces.append(face)
    return faces


def test_commitment_is_the_sha256_of_the_seed_and_reveal_gives_the_seed():
    dice = FairDice(SEED)
    assert dice.commitment == hashlib.sha256(SEED).hexdigest()
    assert bytes.fromhex(dice.reveal()) == SEED


def test_production_dice_draw_a_fresh_32_byte_seed_each_game():
    first, second = FairDice(), FairDice()
    assert len(bytes.fromhex(first.reveal())) == 32
    assert first.commitment != second.commitment


def test_rolls_follow_the_documented_hmac_derivation():
    dice = FairDice(SEED)
    rolled = list(dice.roll(3)) + list(dice.roll(2)) + list(dice.roll(45))
    assert rolled == documented_stream(SEED, 50)
    assert dice.counter == 50


def test_below_follows_the_documented_derivation():
    dice = FairDice(SEED, counter=7)
    x = int.from_bytes(
        hmac.new(SEED, (7).to_bytes(8, "big") + (0).to_bytes(4, "big"), hashlib.sha256).digest(),
        "big")
    # For n = 52 a first-attempt rejection has probability < 2**-250, so attempt 0 decides.
    assert dice.below(52) == x % 52
    assert dice.counter == 8


def test_counter_restores_the_same_stream():
    whole = FairDice(SEED)
    first = whole.roll(10)
    rest = whole.roll(10), whole.below(42)
    resumed = FairDice(SEED, counter=10)
    assert (resumed.roll(10), resumed.below(42)) == rest
    assert FairDice(SEED).roll(10) == first


def test_faces_are_uniform_by_chi_square():
    dice = FairDice(b"\x07" * 32)
    counts = Counter(dice.roll(60000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    expected = 10000
    chi2 = sum((counts[f] - expected) ** 2 / expected for f in range(1, 7))
    assert chi2 < 20.5  # p = 0.001 for 5 degrees of freedom


def test_below_is_uniform_and_in_range_by_chi_square():
    dice = FairDice(b"\x09" * 32)
    values = [dice.below(7) for _ in range(35000)]
    counts = Counter(values)
    assert set(counts) == set(range(7))
    chi2 = sum((counts[v] - 5000) ** 2 / 5000 for v in range(7))
    assert chi2 < 22.5  # p = 0.001 for 6 degrees of freedom
    assert FairDice(SEED).below(1) == 0


def test_fair_dice_refuse_bad_arguments():
    with pytest.raises(ValueError):
        FairDice(b"short")
    with pytest.raises(ValueError):
        FairDice(SEED).below(0)
    with pytest.raises(ValueError):
        FairDice(SEED, counter=-1)


@pytest.mark.parametrize("face", [0, 7, -1, "3", 2.0, True, None])
def test_physical_dice_refuse_anything_but_faces_1_to_6(face):
    dice = PhysicalDice(FairDice(SEED))
    with pytest.raises(DiceEntryError) as exc:
        dice.enter([3, face])
    assert exc.value.code == "bad_die"
    assert dice.pending == ()


def test_physical_dice_roll_the_typed_faces_in_order_and_ask_for_missing_ones():
    dice = PhysicalDice(FairDice(SEED))
    dice.enter([6, 1, 4])
    assert dice.roll(2) == (6, 1)
    with pytest.raises(DiceEntryError) as exc:
        dice.roll(2)
    assert exc.value.code == "dice_needed"
    assert dice.roll(1) == (4,)


def test_physical_dice_leave_shuffles_to_the_fair_source():
    dice = PhysicalDice(FairDice(SEED))
    reference = FairDice(SEED)
    assert [dice.below(10) for _ in range(5)] == [reference.below(10) for _ in range(5)]


def test_recording_then_replaying_gives_the_same_values():
    recorder = RecordingSource(SeededSource(3))
    values = [recorder.roll(3), recorder.below(40), recorder.roll(1)]
    draws = recorder.take_draws()
    assert [d[0] for d in draws] == ["d", "u", "d"]
    assert recorder.draws == []
    replay = ReplaySource(draws)
    assert [replay.roll(3), replay.below(40), replay.roll(1)] == values
    assert replay.exhausted


def test_replay_refuses_a_different_call():
    replay = ReplaySource([["d", [3, 4]]])
    with pytest.raises(ReplayMismatch):
        replay.roll(3)
    with pytest.raises(ReplayMismatch):
        ReplaySource([]).below(2)


def journal_like_draws(seed: bytes) -> list[tuple[int, list]]:
    recorder = RecordingSource(FairDice(seed))
    rows = []
    for seq in range(5):
        recorder.below(30 + seq)
        recorder.roll(3)
        recorder.roll(2)
        rows.append((seq, recorder.take_draws()))
    return rows


def test_verify_draws_accepts_an_honest_record():
    rows = journal_like_draws(SEED)
    checked, mismatch = verify_draws(SEED, rows)
    assert mismatch is None
    assert checked == 15
    assert fair_draw_count(d for _, draws in rows for d in draws) == 5 * (1 + 3 + 2)


def test_verify_draws_reports_the_first_altered_die():
    rows = journal_like_draws(SEED)
    faces = rows[3][1][1][1]
    faces[0] = faces[0] % 6 + 1
    rows[4][1][2][1][0] = rows[4][1][2][1][0] % 6 + 1
    _, mismatch = verify_draws(SEED, rows)
    assert mismatch is not None
    assert (mismatch.seq, mismatch.index) == (3, 1)
    assert "seq 3" in mismatch.sentence()


def test_verify_draws_with_the_wrong_seed_fails_at_the_first_draw():
    _, mismatch = verify_draws(b"\x01" * 32, journal_like_draws(SEED))
    assert mismatch is not None and (mismatch.seq, mismatch.index) == (0, 0)


def test_physical_games_verify_only_the_shuffles():
    shuffler = FairDice(SEED)
    dice = RecordingSource(PhysicalDice(shuffler))
    dice.inner.enter([6, 6, 6])
    dice.below(52)
    dice.roll(3)
    dice.below(51)
    draws = dice.take_draws()
    assert fair_draw_count(draws, physical_dice=True) == 2
    checked, mismatch = verify_draws(SEED, [(0, draws)], physical_dice=True)
    assert mismatch is None and checked == 2
