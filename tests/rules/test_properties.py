"""Property tests: random legal play keeps the invariants of the rules, in every variant.

Each example plays a game of one variant from `new_game` by picking, at every step, either
the bot's command or a random legal one (so play reaches trades, eliminations and wins),
and checks after every command: territories owned with at least 1 army (after claiming),
the 44 cards all present exactly once, armies changing only by reinforcement, cards and
battle losses (the third army's reserve included), no victory left undeclared (a complete
mission or HQ set is noticed at once, whoever caused it), lossless to_dict, and finally
that replaying the recorded draws gives the identical state.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from pi_app.computer.simple_bot import SimpleBot
from pi_app.dice import RecordingSource, ReplaySource, SeededSource
from pi_app.rules import (
    Attack,
    Blitz,
    ChooseDefence,
    Claim,
    EndAttack,
    EndTurn,
    Fortify,
    GameState,
    HouseRules,
    MoveIn,
    PickHQ,
    Place,
    PlaceNeutral,
    RuleError,
    TradeCards,
    apply,
    legal_commands,
    new_game,
    waiting_for,
)
from pi_app.rules.board import load_cards, load_map
from pi_app.rules.state import CLAIM
from pi_app.rules.variants import get_variant

BOARD = load_map()
ALL_CARDS = Counter(load_cards().all_cards)
COLOURS = ["red", "blue", "green", "yellow", "black", "pink"]
BOT = SimpleBot()
VARIANTS = ["classic", "mission", "capital", "two-player", "allied"]
SEATS = {"two-player": (2, 2), "allied": (2, 2)}

rules_strategy = st.builds(
    HouseRules,
    defender_chooses_dice=st.booleans(),
    fortify=st.sampled_from(["connected", "adjacent"]),
    territory_bonus_once_per_turn=st.booleans(),
    setup=st.sampled_from(["claim", "deal"]),
    mission_deck=st.sampled_from(["us12", "euro14"]),
    capital_short_game=st.booleans(),
    two_player_placement=st.sampled_from([(2, 1), (3, 1), (1, 0)]),
    allied_initial=st.sampled_from(["even", "free"]),
)


def seats(variant: str, draw: int) -> int:
    """A player count allowed by `variant`, chosen by `draw` (any integer)."""
    low, high = SEATS.get(variant, (3, 6))
    return low + draw % (high - low + 1)


def armies_delta(events) -> int:
    """Armies added to board+reserves by these events, per the rules (minus battle losses)."""
    delta = 0
    for e in events:
        d = e.data
        if e.type == "turn_started":
            delta += d["reinforcements"]
        elif e.type in ("cards_traded", "territory_bonus", "allied_reinforced"):
            delta += d["armies"]
        elif e.type == "battle":
            delta -= d["attacker_losses"] + d["defender_losses"]
        elif e.type == "army_destroyed":
            delta -= d["reserve_lost"]
    return delta


def armies_in_play(state: GameState) -> int:
    """Armies on the board plus every reserve (the third army's included)."""
    return (state.total_armies() + sum(state.reserves.values())
            + state.variant_data.get("reserve", 0))


def check_invariants(state: GameState) -> None:
    if state.phase != CLAIM:
        for t in BOARD.territories:
            assert state.owner[t] is not None, t
            assert state.armies[t] >= 1, (t, state.armies[t])
    cards = Counter(state.deck) + Counter(state.discard)
    for hand in state.hands.values():
        cards += Counter(hand)
    # Capital: from the reveal on, the HQ territories' cards are HQ cards, kept apart
    hq_cards = Counter(state.hq.values()) if state.hq_revealed else Counter()
    assert not hq_cards & cards, "an HQ card is in the deck, the discard or a hand"
    assert cards + hq_cards == ALL_CARDS
    assert all(n >= 0 for n in state.reserves.values())
    for p in state.eliminated:
        assert p not in state.owner.values() and not state.hands[p]
    # Secret Mission counts missions from the first turn's start (docs/RULES.md 3): during
    # setup (turn 0) a mission the claims completed waits for it
    if state.winner is None and not (state.variant == "mission" and state.turn < 1):
        assert get_variant(state.variant).check_victory(state) is None
    assert GameState.from_dict(state.to_dict()).to_dict() == state.to_dict()


def play(seed: int, players: int, rules: HouseRules, steps: int, bot_share: float,
         variant: str = "classic"):
    chooser = random.Random(seed)
    rng = RecordingSource(SeededSource(seed))
    outcome = new_game(variant, COLOURS[:players], rules, rng)
    journal = [(None, rng.take_draws())]
    state = outcome.state
    total = armies_in_play(state)
    for _ in range(steps):
        if state.winner is not None:
            break
        player = waiting_for(state)
        assert player is not None
        if chooser.random() < bot_share:
            command = BOT.choose(state, player)
        else:
            options = legal_commands(state, player)
            assert options, f"no legal command for {player} in {state.phase}"
            command = chooser.choice(options)
        outcome = apply(state, command, rng)
        journal.append((command, rng.take_draws()))
        state = outcome.state
        total += armies_delta(outcome.events)
        assert armies_in_play(state) == total
        check_invariants(state)
    return state, journal


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), draw=st.integers(0, 3), rules=rules_strategy,
       bot_share=st.sampled_from([0.0, 0.5, 0.9]))
# Found by CI's run: with claim setup, red claims North America and Australia (its
# mission) before the claims end
@example(seed=538392, draw=0, rules=HouseRules(setup="claim", mission_deck="us12"),
         bot_share=0.9)
def test_random_legal_play_keeps_the_invariants_and_replays_identically(
        variant, seed, draw, rules, bot_share):
    players = seats(variant, draw)
    state, journal = play(seed, players, rules, steps=400, bot_share=bot_share,
                          variant=variant)
    # replaying the same commands with the recorded draws gives an identical state
    (_, setup_draws), *moves = journal
    replay = ReplaySource(setup_draws)
    again = new_game(variant, COLOURS[:players], rules, replay).state
    assert replay.exhausted
    for command, draws in moves:
        source = ReplaySource(draws)
        again = apply(again, command, source).state
        assert source.exhausted
    assert again.to_dict() == state.to_dict()


def random_command(r: random.Random, state: GameState):
    """Any command at all, mostly illegal: random type, player, territories and numbers."""
    player = r.choice([*state.players, "purple", "neutral", "allied"])
    t1, t2 = r.choice(BOARD.territories), r.choice([*BOARD.territories, "atlantis"])
    n = r.randint(-1, 12)
    cards = tuple(r.sample(sorted(ALL_CARDS), 3))
    return r.choice([
        Claim(player, t1), Place(player, t1, n), TradeCards(player, cards),
        Attack(player, t1, t2, n), ChooseDefence(player, n), Blitz(player, t1, t2, n),
        MoveIn(player, n), EndAttack(player), Fortify(player, t1, t2, n), EndTurn(player),
        PickHQ(player, t1), PlaceNeutral(player, t2, n)])


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32), rules=rules_strategy)
def test_illegal_commands_change_nothing(variant, seed, rules):
    r = random.Random(seed)
    rng = SeededSource(seed)
    state = new_game(variant, COLOURS[:seats(variant, seed)], rules, rng).state
    for _ in range(300):
        if state.winner is not None:
            break
        command = random_command(r, state)
        before = state.to_dict()
        try:
            state = apply(state, command, rng).state
        except RuleError as err:
            assert err.code and err.message
            assert state.to_dict() == before
        player = waiting_for(state)
        if player is not None:
            state = apply(state, BOT.choose(state, player), rng).state
        check_invariants(state)
