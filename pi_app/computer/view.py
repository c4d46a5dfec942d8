"""A game state rebuilt from one seat's redacted view: what the computer player reasons on.

The computer never reads the table's state. It gets the same JSON view a phone of its seat
gets (`pi_app.redaction.redact(state, seat)`) and turns it back into a state object only so
the rules' pure queries (legal attacks, card sets, fortify reach) can answer it. Everything
the view hides stays hidden: other seats' hands and the deck become placeholder cards of
the right count (`HIDDEN_CARD`), other seats' missions and unrevealed HQs are absent, and a
Strike view's decks and other hands likewise. Decisions made on such a state cannot depend
on hidden information, because it is not there.
"""

from __future__ import annotations

from typing import Any

from pi_app.rules import GameState

HIDDEN_CARD = "hidden"

# Keys a redacted view carries that are no part of a state.
_VIEW_ONLY = ("hand_counts", "deck_count", "viewer", "my_hand", "my_mission", "my_hq",
              "my_hq_cards", "hq_chosen", "missions_revealed")


def _hidden(count: int) -> list[str]:
    return [HIDDEN_CARD] * count


def board_state_from_view(view: dict[str, Any]) -> GameState:
    """The board-game state as `view["viewer"]` knows it (see the module docstring)."""
    seat = view["viewer"]
    data = {k: v for k, v in view.items() if k not in _VIEW_ONLY}
    counts = view["hand_counts"]
    data["hands"] = {p: (list(view.get("my_hand") or []) if p == seat else _hidden(n))
                     for p, n in counts.items()}
    data["deck"] = _hidden(view["deck_count"])
    mission = view.get("my_mission")
    data["missions"] = {seat: mission} if mission is not None else {}
    if view.get("hq_revealed"):
        data["hq"] = dict(view.get("hq") or {})
    else:
        data["hq"] = {seat: view["my_hq"]} if view.get("my_hq") else {}
    return GameState.from_dict(data)


def strike_state_from_view(view: dict[str, Any]) -> Any:
    """The RISK Strike state as `view["viewer"]` knows it (see the module docstring)."""
    from pi_app.rules.strike.state import StrikeState

    seat = view["viewer"]
    data = {k: v for k, v in view.items()
            if k not in ("hand_counts", "continent_deck_count", "tactics_deck_count",
                         "continent_colours", "waiting_for", "viewer", "my_hand",
                         "spied_hand")}
    data["hands"] = {p: (list(view.get("my_hand") or []) if p == seat else _hidden(n))
                     for p, n in view["hand_counts"].items()}
    data["continent_deck"] = _hidden(view["continent_deck_count"])
    data["tactics_deck"] = _hidden(view["tactics_deck_count"])
    data["spied"] = {}
    return StrikeState.from_dict(data)
