"""Redaction (contract B): no hand, mission, HQ pick or deck order leaks to another viewer."""

from __future__ import annotations

import json

import pytest

from pi_app.dice import SeededSource
from pi_app.redaction import redact, redact_event
from pi_app.rules import GameState, HouseRules, new_game


def game_with_secrets() -> GameState:
    state = new_game("classic", ["red", "blue", "green"], HouseRules(setup="deal"),
                     SeededSource(5)).state
    state.hands["red"] = [state.deck.pop(), state.deck.pop()]
    state.hands["blue"] = [state.deck.pop()]
    state.missions = {"red": {"id": "occupy-24"}, "blue": {"id": "destroy-green"}}
    state.hq = {"red": "alaska", "blue": "japan"}
    return state


def text_of(view: dict) -> str:
    return json.dumps(view, sort_keys=True)


def test_spectator_sees_counts_only():
    state = game_with_secrets()
    view = redact(state, None)
    assert view["hand_counts"] == {"red": 2, "blue": 1, "green": 0}
    assert view["deck_count"] == len(state.deck)
    for hidden in ("hands", "deck", "missions", "hq", "my_hand", "my_mission", "my_hq"):
        assert hidden not in view
    assert view["hq_chosen"] == ["blue", "red"]  # who has chosen is public, not what
    text = text_of(view)
    for card in state.hands["red"] + state.hands["blue"]:
        assert f'"{card}"' not in text.replace(f'"{card}":', "")  # only as a map key
    assert "destroy-green" not in text and "occupy-24" not in text


def test_a_player_sees_their_own_hand_mission_and_hq_but_nobody_elses():
    state = game_with_secrets()
    view = redact(state, "red")
    assert view["my_hand"] == state.hands["red"]
    assert view["my_mission"] == {"id": "occupy-24"}
    assert view["my_hq"] == "alaska"
    text = text_of({k: v for k, v in view.items() if k not in ("owner", "armies")})
    assert state.hands["blue"][0] not in text
    assert "destroy-green" not in text and "japan" not in text


def test_deck_order_never_leaks_to_any_viewer():
    state = game_with_secrets()
    for viewer in (None, "red", "blue", "green"):
        view = redact(state, viewer)
        assert "deck" not in view
        assert view["deck_count"] == len(state.deck)


def test_hq_picks_are_public_once_revealed():
    state = game_with_secrets()
    state.hq_revealed = True
    assert redact(state, None)["hq"] == {"red": "alaska", "blue": "japan"}


def test_public_board_is_the_same_for_everyone():
    state = game_with_secrets()
    views = [redact(state, v) for v in (None, "red", "blue")]
    for key in ("owner", "armies", "phase", "current_player", "trade_count", "discard"):
        assert views[0][key] == views[1][key] == views[2][key]


def test_drawn_card_is_seen_only_by_its_holder():
    event = {"type": "card_drawn", "player": "red", "card": "alaska"}
    assert redact_event(event, "red") == event
    assert redact_event(event, "blue") == {"type": "card_drawn", "player": "red", "count": 1}
    assert redact_event(event, None) == {"type": "card_drawn", "player": "red", "count": 1}


def test_taken_cards_are_hidden_from_others_and_private_events_dropped():
    taken = {"type": "cards_taken", "player": "red", "source": "blue", "cards": ["a", "b"]}
    assert redact_event(taken, "green") == {"type": "cards_taken", "player": "red",
                                            "source": "blue", "count": 2}
    mission = {"type": "mission_dealt", "player": "red", "mission": "occupy-24"}
    assert redact_event(mission, "red") == mission
    assert redact_event(mission, "blue") is None and redact_event(mission, None) is None


def test_public_events_pass_unchanged():
    battle = {"type": "battle", "attacker": "red", "attack_dice": [6, 5, 1]}
    assert redact_event(battle, None) == battle


# --- variants: missions and HQ picks over whole games ---------------------------------------
def _step_through(variant: str, players: int, seed: str, house_rules: HouseRules | None = None):
    """Yield (state, events) after setup and after every command of a bot game."""
    from pi_app.computer.simple_bot import SimpleBot
    from pi_app.rules import apply, waiting_for

    bot = SimpleBot()
    rng = SeededSource(seed)
    colours = ["red", "blue", "green", "yellow", "black", "pink"][:players]
    outcome = new_game(variant, colours, house_rules or HouseRules(), rng)
    yield outcome.state, outcome.events
    state = outcome.state
    while state.winner is None:
        outcome = apply(state, bot.choose(state, waiting_for(state)), rng)
        yield state, outcome.events


def _with_others_secrets_swapped(state: GameState, viewer: str | None) -> GameState:
    """The same game with every other player's mission and HQ pick moved around."""
    other = state.copy()
    others = [p for p in state.players if p != viewer]
    missions = [other.missions[p] for p in others if p in other.missions]
    if len(missions) == len(others) > 1:
        for p, m in zip(others, missions[1:] + missions[:1]):
            other.missions[p] = m
    for p in others:
        if p in other.hq:
            mine = other.territories_of(p)
            other.hq[p] = mine[(mine.index(other.hq[p]) + 1) % len(mine)]
    return other


@pytest.mark.slow
def test_no_other_viewer_ever_sees_a_mission_before_the_win():
    for state, events in _step_through("mission", 4, "secret-missions"):
        for viewer in (None, *state.players):
            view = redact(state, viewer)
            assert "missions" not in view
            assert view.get("my_mission") == (state.missions[viewer] if viewer else None)
            if state.winner is None:
                assert redact(_with_others_secrets_swapped(state, viewer), viewer) == view
            for event in events:
                seen = redact_event(event.to_dict(), viewer)
                if event.type in ("mission_dealt", "mission_changed"):
                    assert (seen is not None) == (event["player"] == viewer)
    winner = state.winner
    for viewer in (None, *state.players):
        view = redact(state, viewer)
        assert view["missions_revealed"] == {winner: state.missions[winner]}  # the winner's
        shown = text_of({k: v for k, v in view.items() if k != "my_mission"})
        for p, m in state.missions.items():
            if p not in (winner, viewer) and m["card"] != state.missions[winner]["card"]:
                assert m["card"] not in shown


def test_no_other_viewer_ever_sees_an_hq_pick_before_the_reveal():
    revealed_seen = False
    for state, events in _step_through("capital", 4, "secret-hqs"):
        for viewer in (None, *state.players):
            view = redact(state, viewer)
            if not state.hq_revealed:
                assert "hq" not in view and view["hq_chosen"] == sorted(state.hq)
                assert view.get("my_hq") == (state.hq.get(viewer) if viewer else None)
                assert redact(_with_others_secrets_swapped(state, viewer), viewer) == view
            else:
                assert view["hq"] == state.hq  # marked for everyone once revealed
            for event in events:
                seen = redact_event(event.to_dict(), viewer)
                if event.type == "hq_chosen":
                    assert (seen is not None) == (event["player"] == viewer)
                if event.type == "hq_revealed":
                    revealed_seen = True
                    assert seen == event.to_dict()
    assert revealed_seen
