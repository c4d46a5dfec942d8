"""Dice: both fair derivations are reproducible from their documentation, uniform,
restorable, verifiable; physical dice accept only faces 1..6; recording and replay agree."""

import hashlib
import hmac
import random
from collections import Counter

import pytest
from dice_reference import v1_stream, v2_block, v2_stream

from pi_app.dice import (
    DiceEntryError,
    FairDice,
    FairDiceV1,
    PhysicalDice,
    RecordingSource,
    ReplayMismatch,
    ReplaySource,
    SeededSource,
    dice_version_of,
    fair_dice,
    fair_draw_count,
    follow_draws,
    verify_all_draws,
    verify_draws,
)

SEED = bytes(range(32))


def documented_stream(seed: bytes, n_dice: int) -> list[int]:
    """Version 1's faces, as the dice module docstring describes them, written apart."""
    results, _counter = v1_stream(seed, [("d", 1)] * n_dice)
    return [faces[0] for faces in results]


def test_commitment_names_the_version_and_reveal_gives_the_seed():
    digest = hashlib.sha256(SEED).hexdigest()
    assert FairDiceV1(SEED).commitment == digest
    dice = FairDice(SEED)
    assert dice.commitment == "v2:" + digest
    assert bytes.fromhex(dice.reveal()) == SEED
    assert (dice_version_of(dice.commitment), dice_version_of(digest)) == (2, 1)


def test_production_dice_draw_a_fresh_32_byte_seed_each_game():
    first, second = FairDice(), FairDice()
    assert len(bytes.fromhex(first.reveal())) == 32
    assert first.commitment != second.commitment


def test_v1_rolls_follow_the_documented_hmac_derivation():
    dice = FairDiceV1(SEED)
    rolled = list(dice.roll(3)) + list(dice.roll(2)) + list(dice.roll(45))
    assert rolled == documented_stream(SEED, 50)
    assert dice.counter == 50


def test_v2_takes_many_dice_from_one_block_and_drops_bytes_from_252():
    block = v2_block(SEED, 0)
    expected = [b % 6 + 1 for b in block if b < 252]
    assert 20 < len(expected) <= 32  # one HMAC gives a whole blitz's worth of dice
    dice = FairDice(SEED)
    assert list(dice.roll(len(expected))) == expected
    last = max(i for i, b in enumerate(block) if b < 252) + 1
    assert dice.position == ((1, 0) if last == 32 else (0, last))


def random_ops(rng: random.Random, count: int) -> list[tuple[str, int]]:
    return [("d", rng.randint(0, 7)) if rng.random() < 0.85 else ("u", rng.randint(1, 60))
            for _ in range(count)]


def draw(dice, ops):
    return [list(dice.roll(n)) if kind == "d" else dice.below(n) for kind, n in ops]


@pytest.mark.parametrize("trial", range(40))
def test_v2_rolls_and_below_follow_the_documented_derivation(trial):
    rng = random.Random(trial)
    seed = bytes(rng.randrange(256) for _ in range(32))
    ops = random_ops(rng, 60)
    dice = FairDice(seed)
    results, position = v2_stream(seed, ops)
    assert draw(dice, ops) == results
    assert dice.position == position


@pytest.mark.parametrize("trial", range(20))
def test_v2_position_restores_the_same_stream_from_anywhere(trial):
    rng = random.Random(100 + trial)
    seed = bytes(rng.randrange(256) for _ in range(32))
    ops = random_ops(rng, 50)
    whole_dice = FairDice(seed)
    whole = draw(whole_dice, ops)
    cut = rng.randrange(len(ops))
    first = FairDice(seed)
    draw(first, ops[:cut])
    resumed = FairDice(seed, first.position)
    assert draw(resumed, ops[cut:]) == whole[cut:]
    assert resumed.position == whole_dice.position


def test_v2_below_starts_at_a_fresh_block_and_ends_at_the_next():
    dice = FairDice(SEED)
    dice.roll(1)
    block, offset = dice.position
    assert block == 0 and offset > 0
    # For n = 52 a first-block rejection has probability < 2**-250, so block 1 decides.
    assert dice.below(52) == int.from_bytes(v2_block(SEED, 1), "big") % 52
    assert dice.position == (2, 0)
    assert dice.below(52) == int.from_bytes(v2_block(SEED, 2), "big") % 52
    assert dice.position == (3, 0)


def test_both_versions_key_the_hmac_once_and_copy_it(monkeypatch):
    import pi_app.dice as module

    keyed = []
    real_new = module.hmac.new
    monkeypatch.setattr(module.hmac, "new", lambda *a, **k: keyed.append(a) or real_new(*a, **k))
    for dice in (module.FairDice(SEED), module.FairDiceV1(SEED)):
        dice.roll(100)
        dice.below(7)
    assert len(keyed) == 2


def test_v1_below_follows_the_documented_derivation():
    dice = FairDiceV1(SEED, counter=7)
    x = int.from_bytes(
        hmac.new(SEED, (7).to_bytes(8, "big") + (0).to_bytes(4, "big"), hashlib.sha256).digest(),
        "big")
    # For n = 52 a first-attempt rejection has probability < 2**-250, so attempt 0 decides.
    assert dice.below(52) == x % 52
    assert dice.counter == 8


def test_v1_counter_restores_the_same_stream():
    whole = FairDiceV1(SEED)
    first = whole.roll(10)
    rest = whole.roll(10), whole.below(42)
    resumed = FairDiceV1(SEED, counter=10)
    assert (resumed.roll(10), resumed.below(42)) == rest
    assert FairDiceV1(SEED).roll(10) == first
    assert fair_dice(SEED.hex(), 1, (10,)).roll(10) == rest[0]


@pytest.mark.parametrize("make", [FairDice, FairDiceV1], ids=["v2", "v1"])
def test_faces_are_uniform_by_chi_square(make):
    dice = make(b"\x07" * 32)
    counts = Counter(dice.roll(60000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    expected = 10000
    chi2 = sum((counts[f] - expected) ** 2 / expected for f in range(1, 7))
    assert chi2 < 20.5  # p = 0.001 for 5 degrees of freedom


@pytest.mark.parametrize("make", [FairDice, FairDiceV1], ids=["v2", "v1"])
def test_below_is_uniform_and_in_range_by_chi_square(make):
    dice = make(b"\x09" * 32)
    values = [dice.below(7) for _ in range(35000)]
    counts = Counter(values)
    assert set(counts) == set(range(7))
    chi2 = sum((counts[v] - 5000) ** 2 / 5000 for v in range(7))
    assert chi2 < 22.5  # p = 0.001 for 6 degrees of freedom
    assert make(SEED).below(1) == 0


def test_fair_dice_refuse_bad_arguments():
    with pytest.raises(ValueError):
        FairDice(b"short")
    with pytest.raises(ValueError):
        FairDice(SEED).below(0)
    with pytest.raises(ValueError):
        FairDice(SEED).roll(-1)
    with pytest.raises(ValueError):
        FairDiceV1(SEED, counter=-1)
    for position in [(-1, 0), (0, 32), (0, -1)]:
        with pytest.raises(ValueError):
            FairDice(SEED, position)


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


def journal_like_draws(seed: bytes, version: int = 2) -> list[tuple[int, list]]:
    recorder = RecordingSource(fair_dice(seed.hex(), version))
    rows = []
    for seq in range(5):
        recorder.below(30 + seq)
        recorder.roll(3)
        recorder.roll(2)
        rows.append((seq, recorder.take_draws()))
    return rows


@pytest.mark.parametrize("version", [2, 1])
def test_verify_draws_accepts_an_honest_record(version):
    rows = journal_like_draws(SEED, version)
    checked, mismatch = verify_draws(SEED, rows, version=version)
    assert mismatch is None
    assert checked == 15
    assert fair_draw_count(d for _, draws in rows for d in draws) == 5 * (1 + 3 + 2)


def test_a_record_verifies_only_under_the_version_it_was_drawn_with():
    for drawn, claimed in ((2, 1), (1, 2)):
        _, mismatch = verify_draws(SEED, journal_like_draws(SEED, drawn), version=claimed)
        assert mismatch is not None and mismatch.seq == 0


@pytest.mark.parametrize("version", [2, 1])
def test_verify_draws_reports_the_first_altered_die(version):
    rows = journal_like_draws(SEED, version)
    faces = rows[3][1][1][1]
    faces[0] = faces[0] % 6 + 1
    rows[4][1][2][1][0] = rows[4][1][2][1][0] % 6 + 1
    _, mismatch = verify_draws(SEED, rows, version=version)
    assert mismatch is not None
    assert (mismatch.seq, mismatch.index) == (3, 1)
    assert "seq 3" in mismatch.sentence()


@pytest.mark.parametrize("version", [2, 1])
def test_verify_draws_with_the_wrong_seed_fails_at_the_first_draw(version):
    _, mismatch = verify_draws(b"\x01" * 32, journal_like_draws(SEED, version),
                               version=version)
    assert mismatch is not None and (mismatch.seq, mismatch.index) == (0, 0)


def test_verify_checks_each_recorded_v2_position():
    dice = FairDice(SEED)
    recorder = RecordingSource(dice)
    rows, positions = [], {}
    for seq in range(4):
        recorder.roll(3 + seq)
        rows.append((seq, recorder.take_draws()))
        positions[seq] = list(dice.position)
    assert verify_all_draws(SEED, rows, version=2, positions=positions) == (4, [])
    block, offset = positions[2]
    positions[2] = [block, offset + 1]
    checked, [mismatch] = verify_all_draws(SEED, rows, version=2, positions=positions)
    assert checked == 4 and mismatch.seq == 2
    assert "[block, byte] [" in mismatch.sentence()


def test_verify_stops_at_the_limit_counting_wrong_positions_as_mismatches():
    """`verify_all_draws` reports at most `limit` mismatches (its docstring; `verify_draws`
    and the first one it names rest on it, pi_app/DICE.md): a wrong recorded position is one
    of them, and the check stops there, counting only the draws matched before it."""
    dice = FairDice(SEED)
    recorder = RecordingSource(dice)
    rows, positions = [], {}
    for seq in range(4):
        recorder.roll(2)
        rows.append((seq, recorder.take_draws()))
        positions[seq] = list(dice.position)
    for seq in (1, 2):
        block, offset = positions[seq]
        positions[seq] = [block, offset + 1]
    checked, found = verify_all_draws(SEED, rows, version=2, positions=positions, limit=1)
    assert [m.seq for m in found] == [1] and checked == 2
    checked, found = verify_all_draws(SEED, rows, version=2, positions=positions, limit=2)
    assert [m.seq for m in found] == [1, 2] and checked == 3
    assert verify_draws(SEED, rows, version=2)[1] is None  # the draws themselves are right


@pytest.mark.parametrize("version", [2, 1])
def test_follow_draws_lands_where_the_draws_left_the_stream(version):
    dice = fair_dice(SEED.hex(), version)
    recorder = RecordingSource(dice)
    recorder.roll(5)
    recorder.below(40)
    recorder.roll(2)
    followed = fair_dice(SEED.hex(), version)
    follow_draws(followed, recorder.take_draws())
    assert followed.position == dice.position
    assert followed.roll(9) == dice.roll(9)


@pytest.mark.parametrize("make", [FairDice, FairDiceV1], ids=["v2", "v1"])
def test_physical_games_verify_only_the_shuffles(make):
    shuffler = make(SEED)
    dice = RecordingSource(PhysicalDice(shuffler))
    dice.inner.enter([6, 6, 6])
    dice.below(52)
    dice.roll(3)
    dice.below(51)
    draws = dice.take_draws()
    assert fair_draw_count(draws, physical_dice=True) == 2
    checked, mismatch = verify_draws(SEED, [(0, draws)], physical_dice=True,
                                     version=shuffler.version)
    assert mismatch is None and checked == 2


def test_seeded_below_one_is_always_zero_and_below_zero_is_refused():
    dice = SeededSource(11)
    assert [dice.below(1) for _ in range(20)] == [0] * 20
    for n in (0, -3):
        with pytest.raises(ValueError, match="n >= 1"):
            dice.below(n)


def test_seeded_below_is_the_seeded_generator_s_randrange_also_between_rolls():
    # SeededSource's contract: one random.Random(seed); rolls take faces in batches of 512
    # (random.choices), `below` is randrange on the same generator, in call order.
    reference = random.Random("table-7")
    expected = [reference.randrange(n) for n in (2, 42, 44, 1000)]
    reference.choices((1, 2, 3, 4, 5, 6), k=512)
    expected += [reference.randrange(n) for n in (3, 52)]
    dice = SeededSource("table-7")
    got = [dice.below(n) for n in (2, 42, 44, 1000)]
    dice.roll(3)
    got += [dice.below(n) for n in (3, 52)]
    assert got == expected


def test_seeded_below_covers_its_whole_range_and_nothing_outside():
    dice = SeededSource(5)
    values = Counter(dice.below(7) for _ in range(7000))
    assert set(values) == set(range(7))
    assert min(values.values()) > 800  # about 1000 each


def test_seeded_rolls_are_the_seeded_generator_s_faces_one_to_six():
    """SeededSource's contract (its class, pi_app/DICE.md): rolls are `random.Random(seed)`'s
    choices of the faces 1 to 6 in batches of 512, so a seed rolls the same everywhere and
    every face of a die, and only those, comes up."""
    reference = random.Random("table-9").choices((1, 2, 3, 4, 5, 6), k=512)
    dice = SeededSource("table-9")
    rolled = [face for _ in range(128) for face in dice.roll(4)]
    assert rolled == reference
    assert set(rolled) == {1, 2, 3, 4, 5, 6}


@pytest.mark.parametrize(("make", "stream"), [(FairDiceV1, v1_stream), (FairDice, v2_stream)])
def test_below_rejects_a_block_past_the_last_whole_multiple_of_n_and_draws_again(make, stream):
    """pi_app/DICE.md, `below(n)`: a 256-bit block at or above the largest multiple of n
    that fits in 2**256 is rejected and the next attempt (v1) or block (v2) is read, so
    every value is exactly as likely. For n = 2**255 + 1 that largest multiple is n itself:
    about one block in two is rejected, so the rejections are exercised, not just assumed."""
    n = 2**255 + 1
    ops = [("u", n)] * 12
    dice = make(SEED)
    assert [dice.below(n) for _ in ops] == stream(SEED, ops)[0]
    first_blocks = [hmac.new(SEED, c.to_bytes(8, "big") + (0).to_bytes(4, "big"),
                             hashlib.sha256).digest() for c in range(12)]
    assert any(int.from_bytes(b, "big") >= n for b in first_blocks)  # v1 rejected one


def test_verify_stops_at_a_malformed_draw_and_says_so():
    """`verify_all_draws` (pi_app/DICE.md, `riskboard verify-dice`): a draw that is not a
    roll or a shuffle draw, or a row whose draws are not a list, is reported, and the check
    ends there, since what it took from the stream is unknown; the draws before it count as
    matched."""
    recorder = RecordingSource(FairDice(SEED))
    recorder.roll(2)
    good = recorder.take_draws()
    rows = [(0, good), (1, [["x", 3]]), (2, good)]
    checked, found = verify_all_draws(SEED, rows, version=2)
    assert checked == 1
    assert [(m.seq, m.index) for m in found] == [(1, 0)]
    assert "not a draw" in found[0].sentence()
    checked, found = verify_all_draws(SEED, [(0, good), (1, "garbled"), (2, good)], version=2)
    assert checked == 1 and [m.seq for m in found] == [1]
    assert "not a list of draws" in found[0].sentence()
