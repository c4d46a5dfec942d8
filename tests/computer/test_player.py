"""The computer player decides from its seat's redacted view only, legally, in every variant."""

from __future__ import annotations

import hashlib
import json
import random
import subprocess
import sys

import pytest

from pi_app.computer import ComputerPlayer
from pi_app.computer.matches import computer_seats, play_match
from pi_app.computer.simple_bot import SimpleBot
from pi_app.computer.strategy import Strategist, expected_losses, p_conquer
from pi_app.computer.view import HIDDEN_CARD, board_state_from_view, strike_state_from_view
from pi_app.dice import SeededSource
from pi_app.redaction import redact
from pi_app.rules import (
    Blitz,
    HouseRules,
    TradeCards,
    apply,
    is_strike,
    new_game,
    waiting_for,
)
from pi_app.rules.odds import battle_odds

FOUR = ["red", "blue", "green", "yellow"]
BOARD_VARIANTS = [("classic", FOUR), ("mission", FOUR), ("capital", FOUR),
                  ("two-player", ["red", "blue"]), ("allied", ["red", "blue"])]


def _awaited(state):
    if is_strike(state):
        from pi_app.rules.strike.queries import waiting_for as strike_waiting_for

        return strike_waiting_for(state)[0]
    return waiting_for(state)


def _positions(variant: str, colours: list[str], seed: str, every: int = 7):
    """States met along a bot game of `variant`, one every `every` commands."""
    rng = SeededSource(seed)
    rules = None if variant == "strike" else HouseRules()
    state = new_game(variant, colours, rules, rng).state
    if variant == "strike":
        from pi_app.computer.strike_bot import StrikeBot

        bot = StrikeBot()
    else:
        bot = SimpleBot()
    count = 0
    while state.winner is None and count < 2500:
        if count % every == 0:
            yield state.copy()
        state = apply(state, bot.choose(state, _awaited(state)), rng).state
        count += 1


def _scramble(state, seat: str, rnd: random.Random):
    """A copy of `state` whose hidden parts (for `seat`) are changed: other hands, the
    deck order, other missions, other unrevealed HQ picks."""
    other = state.copy()
    if is_strike(other):
        pool = [c for p in other.players if p != seat for c in other.hands[p]]
        pool += other.tactics_deck
        rnd.shuffle(pool)
        for p in other.players:
            if p != seat:
                n = len(other.hands[p])
                other.hands[p], pool = pool[:n], pool[n:]
        other.tactics_deck = pool
        rnd.shuffle(other.continent_deck)
        return other
    pool = [c for p in other.players if p != seat for c in other.hands[p]] + other.deck
    rnd.shuffle(pool)
    for p in other.players:
        if p != seat:
            n = len(other.hands[p])
            other.hands[p], pool = pool[:n], pool[n:]
    other.deck = pool
    missions = [m for p, m in other.missions.items() if p != seat]
    rnd.shuffle(missions)
    for p in [p for p in other.missions if p != seat]:
        other.missions[p] = missions.pop()
    if not other.hq_revealed:
        for p in list(other.hq):
            if p != seat:
                other.hq[p] = rnd.choice(other.territories_of(p) or [other.hq[p]])
    return other


@pytest.mark.parametrize("variant,colours", [*BOARD_VARIANTS, ("strike", FOUR)])
@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_scrambled_hidden_parts_change_no_choice(variant, colours, level):
    rnd = random.Random(f"{variant}{level}")
    changed_hidden = 0
    for state in _positions(variant, colours, f"scramble:{variant}"):
        seat = _awaited(state)
        other = _scramble(state, seat, rnd)
        if is_strike(state):
            changed_hidden += other.hands != state.hands or other.tactics_deck != state.tactics_deck
        else:
            changed_hidden += (other.hands != state.hands or other.deck != state.deck
                               or other.missions != state.missions or other.hq != state.hq)
        mine = ComputerPlayer(level).decide(redact(state, seat))
        theirs = ComputerPlayer(level).decide(redact(other, seat))
        assert mine == theirs, (state, seat)
    assert changed_hidden > 10  # the scramble really changed hidden things


def test_the_rebuilt_state_holds_no_hidden_card():
    for state in _positions("mission", FOUR, "hidden", every=40):
        seat = _awaited(state)
        known = board_state_from_view(redact(state, seat))
        for p in state.players:
            if p == seat:
                assert known.hands[p] == state.hands[p]
            else:
                assert known.hands[p] == [HIDDEN_CARD] * len(state.hands[p])
        assert known.deck == [HIDDEN_CARD] * len(state.deck)
        assert known.missions == {seat: state.missions[seat]}
        assert known.owner == state.owner and known.armies == state.armies


def test_the_rebuilt_strike_state_holds_no_hidden_card():
    for state in _positions("strike", FOUR, "hidden-strike", every=25):
        seat = _awaited(state)
        known = strike_state_from_view(redact(state, seat))
        for p in state.players:
            expected = state.hands[p] if p == seat else [HIDDEN_CARD] * len(state.hands[p])
            assert known.hands[p] == expected
        assert set(known.tactics_deck) <= {HIDDEN_CARD}
        assert set(known.continent_deck) <= {HIDDEN_CARD}
        assert known.spied == {}


def test_a_public_view_is_refused():
    state = new_game("classic", FOUR, HouseRules(), SeededSource(1)).state
    with pytest.raises(ValueError):
        ComputerPlayer("hard").decide(redact(state, None))


@pytest.mark.parametrize("variant,colours", [*BOARD_VARIANTS, ("strike", FOUR)])
def test_every_variant_plays_to_its_end_with_computer_seats(variant, colours):
    """Every seat but one is a computer (all three levels); every command it plays is
    accepted by the rules (apply raises on an illegal one) and the game is won."""
    levels = ["hard", "normal", "easy"]
    seats = {c: levels[i % 3] for i, c in enumerate(colours[:-1] if len(colours) > 2
                                                    else colours)}
    result = play_match(variant, colours, seats, SeededSource(f"end:{variant}"))
    assert result.state.winner in colours
    assert result.decision_seconds


def test_exact_odds_table_matches_the_rules_odds():
    for source, target in [(2, 1), (3, 2), (6, 4), (12, 9), (25, 30)]:
        odds = battle_odds(source, target)
        assert p_conquer(source, target) == pytest.approx(float(odds.p_conquer), abs=1e-9)
        assert expected_losses(source, target) == pytest.approx(
            float(odds.expected_attacker_losses), abs=1e-9)


def _reinforce_position():
    """A Classic position in the reinforce phase where red holds a set of three cards."""
    rng = SeededSource("set")
    state = new_game("classic", FOUR, HouseRules(), rng).state
    bot = SimpleBot()
    while not (state.phase == "reinforce" and state.current_player == "red"
               and state.pending is None and state.turn > 1):
        state = apply(state, bot.choose(state, waiting_for(state)), rng).state
    state.hands["red"] = ["alaska", "peru", "egypt"]  # three infantry: a set
    return state


def test_hard_trades_a_set_and_easy_keeps_it_like_a_beginner():
    state = _reinforce_position()
    from pi_app.rules import card_sets

    assert card_sets(state, "red"), "Alaska, Peru and Egypt must be three infantry: a set"
    assert isinstance(Strategist("hard").choose(state, "red"), TradeCards)
    assert not isinstance(Strategist("easy").choose(state, "red"), TradeCards)


def test_hard_completes_a_continent_it_can_take():
    """Red owns all Australia but Western Australia, next to it with 12 armies against 1
    (and Siam beside it, as weak, in an Asia nobody holds): it completes Australia."""
    state = new_game("classic", FOUR, HouseRules(), SeededSource(2)).state
    board_owner = {t: FOUR[1 + i % 3] for i, t in enumerate(state.owner)}
    for t in ("indonesia", "new-guinea", "eastern-australia"):
        board_owner[t] = "red"
    state.owner = board_owner
    state.armies = dict.fromkeys(state.owner, 3)
    state.armies["indonesia"] = 12
    state.armies["western-australia"] = 1
    state.phase, state.current_player, state.turn = "attack", "red", 5
    command = Strategist("hard").choose(state, "red")
    assert isinstance(command, Blitz)
    assert (command.source, command.target) == ("indonesia", "western-australia")


def test_simulate_seats_computer_players(tmp_path):
    out = subprocess.run([sys.executable, "-m", "pi_app", "simulate", "--computer", "hard",
                          "--games", "2", "--seed", "5", "--json"],
                         capture_output=True, text=True, check=True, timeout=300)
    summary = json.loads(out.stdout)
    assert summary["games"] == 2 and summary["finished"] == 2
    computer = summary["computer"]
    assert computer["levels"] == ["hard"] and computer["decisions"] > 0
    # the same games in this process: the computer's seat rotates (red, then blue), and
    # its wins are the games won by the seat it held
    digests, hard_wins = hashlib.sha256(), 0
    for game in range(2):
        seats = computer_seats(FOUR, ["hard"], game)
        assert seats == {FOUR[game]: "hard"}
        result = play_match("classic", FOUR, seats, SeededSource(f"5:{game}"), HouseRules())
        digests.update(result.digest.encode())
        hard_wins += result.state.winner in seats
    assert summary["digest"] == digests.hexdigest()
    assert computer["wins"]["hard"] == hard_wins
    refused = subprocess.run([sys.executable, "-m", "pi_app", "simulate", "--variant",
                              "two-player", "--computer", "easy", "--computer", "easy",
                              "--computer", "easy"], capture_output=True, text=True,
                             timeout=120)
    assert refused.returncode == 2 and "--computer" in refused.stderr


@pytest.mark.slow
@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_a_table_of_one_level_finishes_its_games(level):
    """Four computers of one level (serve --sim --autoplay's table): no stalemate of
    escalating stacks; before the long-game boldness, most of these games ran to 1000
    turns."""
    colours = FOUR
    for game in range(4):
        result = play_match("classic", colours, dict.fromkeys(colours, level),
                            SeededSource(f"all:{game}"), max_turns=400)
        assert result.state.winner in colours, (level, game)
