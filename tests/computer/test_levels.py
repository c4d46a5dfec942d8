"""The computer's levels are different players (issue 23.11). How much stronger each is
is measured, with intervals, by `bench/computer_levels.py`; these tests hold what makes
them differ, in decisions a test can see."""

from __future__ import annotations

from collections import Counter

import pytest

from pi_app.computer import ComputerPlayer
from pi_app.computer.strategy import Strategist
from pi_app.computer.strike_bot import StrikeBot
from pi_app.dice import SeededSource
from pi_app.redaction import redact
from pi_app.rules import HouseRules, apply, new_game, waiting_for
from pi_app.rules.strike import apply as strike_apply
from pi_app.rules.strike import new_game as strike_new_game
from pi_app.rules.strike import waiting_for as strike_waiting_for

COLOURS = ["red", "blue", "green", "yellow"]
REACTION_PLAYS = {"strike_play_sabotage", "strike_play_artillery", "strike_play_rally",
                  "strike_play_bombard"}


def _strike_commands_of(level: str, games: int) -> Counter[str]:
    """What a computer of `level` in red's seat played in seeded Strike games against
    three StrikeBots: command types, and 'troops' for the troop cards it deployed."""
    played: Counter[str] = Counter()
    bot = StrikeBot()
    for game in range(games):
        rng = SeededSource(f"levels-test:{game}")
        computer = ComputerPlayer(level)
        state = strike_new_game(COLOURS, None, rng).state
        while state.winner is None and state.turn <= 400:
            seat = strike_waiting_for(state)[0]
            if seat == "red":
                command = computer.decide(redact(state, seat))
                played[command.type] += 1
                if command.type == "strike_deploy":
                    played["troops"] += command.to_dict()["count"]
            else:
                command = bot.choose(state, seat)
            state = strike_apply(state, command, rng).state
    return played


@pytest.fixture(scope="module")
def strike_play() -> dict[str, Counter[str]]:
    return {level: _strike_commands_of(level, 6) for level in ("easy", "normal", "hard")}


def test_strike_hard_turns_battles_with_its_tactics_cards(strike_play):
    assert sum(strike_play["hard"][kind] for kind in REACTION_PLAYS) > 0


def test_strike_normal_answers_only_cards_played_against_it(strike_play):
    assert sum(strike_play["normal"][kind] for kind in REACTION_PLAYS) == 0
    assert strike_play["normal"]["troops"] > 0  # it fights with its troops


def test_strike_easy_plays_nothing_in_a_window_and_keeps_its_troops(strike_play):
    easy = strike_play["easy"]
    assert sum(easy[kind] for kind in REACTION_PLAYS) == 0
    assert easy["strike_play_cancel_orders"] == 0
    assert easy["strike_deploy"] > 0 and easy["troops"] == 0


def test_board_hard_works_on_a_continent_and_normal_has_no_plan():
    rng = SeededSource("levels-test")
    state = new_game("classic", COLOURS, HouseRules(), rng).state
    while state.turn < 3:  # the opening of a bot game: everyone holds bits of every continent
        seat = waiting_for(state)
        state = apply(state, Strategist("hard").choose(state, seat), rng).state
    seat = state.current_player
    assert Strategist("hard")._target_continent(state, seat) is not None
    assert Strategist("normal")._target_continent(state, seat) is None
