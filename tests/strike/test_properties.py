"""Property tests: bots mixed with random (often illegal) commands keep Strike's invariants.

After every command: all 82 cards are somewhere exactly once (decks, hands, tables, battle,
window, discard and surrendered piles); each of the 6 coins has at most one holder, a
player; the state round-trips through to_dict/from_dict (and JSON); a refused command
changed nothing. At the end, replaying the recorded draws reproduces the identical state.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pi_app.computer.strike_bot import StrikeBot
from pi_app.dice import RecordingSource, ReplaySource, SeededSource
from pi_app.rules.strike import (
    CloseWindow,
    DeclareAttack,
    Deploy,
    Draw,
    EndAttack,
    Pass,
    PassTurn,
    PlayArtillery,
    PlayBombard,
    PlayCancelOrders,
    PlayExpand,
    PlayRally,
    PlaySabotage,
    PlaySpy,
    Roll,
    RuleError,
    StrikeState,
    apply,
    available_commands,
    load_strike_deck,
    new_game,
    playable_tactics,
    waiting_for,
)

from .builders import ALL_CARDS, all_cards

DECK = load_strike_deck()
COLOURS = ["red", "blue", "green", "yellow", "black"]
BOT = StrikeBot()


def random_command(state: StrikeState, pick: random.Random):
    """Any command at all, for a player the game may or may not wait for."""
    awaited = waiting_for(state)
    player = pick.choice(awaited) if awaited and pick.random() < 0.7 else pick.choice(
        state.players)
    other = pick.choice([*state.players, "pink"])
    continent = pick.choice(DECK.continents)
    c = pick.randint(0, 2)
    makers = [
        lambda: Draw(player, c, pick.choice([2 - c, 2 - c, 1, 3])),
        lambda: PassTurn(player),
        lambda: DeclareAttack(player, other, continent, pick.choice(DECK.continents)),
        lambda: Deploy(player, pick.randint(-1, 3), pick.choice([None, "attacker",
                                                                 "defender", "up"])),
        lambda: Roll(player),
        lambda: EndAttack(player),
        lambda: Pass(player, pick.choice(["window", "window", "card", "battle", "turn"])),
        lambda: CloseWindow(pick.choice(["table", player]),
                            pick.choice([None, state.next_window - 1, state.next_window - 2])),
        lambda: PlaySpy(player, other),
        lambda: PlayExpand(player, pick.choice(["continents", "tactics", "coins"])),
        lambda: PlayCancelOrders(player, pick.randint(0, state.next_play)),
        lambda: PlayRally(player),
        lambda: PlayBombard(player, pick.randint(-2, 3)),
        lambda: PlayArtillery(player, other),
        lambda: PlaySabotage(player),
    ]
    return pick.choice(makers)()


def check_invariants(state: StrikeState) -> None:
    assert all_cards(state) == ALL_CARDS
    assert set(state.coins) == set(DECK.continents)
    for holder in state.coins.values():
        assert holder is None or holder in state.players
    leaders = [p for p in state.players if len(state.coins_of(p)) >= DECK.coins_to_win]
    assert leaders == ([state.winner] if state.winner else [])
    data = state.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert StrikeState.from_dict(data).to_dict() == data


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), players=st.integers(2, 5), steps=st.integers(50, 400),
       chaos=st.floats(0.0, 0.8))
def test_random_play_keeps_the_invariants_and_replays_identically(seed, players, steps,
                                                                   chaos):
    pick = random.Random(seed)
    colours = COLOURS[:players]
    rng = RecordingSource(SeededSource(seed))
    state = new_game(colours, None, rng).state
    journal = [(None, rng.take_draws())]
    check_invariants(state)
    for _ in range(steps):
        if state.winner is not None:
            break
        if pick.random() < chaos:
            command = random_command(state, pick)
        else:
            command = BOT.choose(state, waiting_for(state)[0])
        before = state.to_dict()
        playable = playable_tactics(state, command.player)
        offered = available_commands(state, command.player)
        try:
            apply(state, command, rng)
        except RuleError:
            assert state.to_dict() == before, command
            assert rng.take_draws() == []
            continue
        if command.type != "strike_close_window":
            assert command.type in offered, (command, offered)
        if command.type.startswith("strike_play_"):
            assert command.type.removeprefix("strike_play_").replace("_", "-") in playable
        journal.append((command, rng.take_draws()))
        check_invariants(state)
    replayed = new_game(colours, None, ReplaySource(journal[0][1])).state
    for command, draws in journal[1:]:
        source = ReplaySource(draws)
        replayed = apply(replayed, command, source).state
        assert source.exhausted
    assert replayed == state


def test_copy_is_independent():
    state = new_game(["red", "blue"], None, SeededSource(5)).state
    twin = state.copy()
    assert twin == state
    twin.hands["red"].clear()
    twin.coins["asia"] = "red"
    assert state.hands["red"] and state.coins["asia"] is None
