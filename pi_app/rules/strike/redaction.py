"""THE redaction for RISK Strike states and events: what one viewer may see.

`redact_strike(state, viewer)`: viewer is a colour (that player's private view) or None
(spectator, host screen). Continent cards on the table, coins, the battle (troop cards
deployed are face up) and the tactics cards played in a window are public. Hidden: every
hand but the viewer's own (counts only), the order of both decks (counts only), and spy
reports: a spy sees the hand they spied, as of the moment the Spy resolved, flagged
`"as_of_turn"`; nobody else sees it. `redact_strike_event(event, viewer)` hides drawn
tactics cards and spied hands from everyone but their owner.
"""

from __future__ import annotations

from typing import Any

from pi_app.rules.strike.queries import continent_colours, waiting_for
from pi_app.rules.strike.state import StrikeState

# Events carrying cards only their `player` may see: field -> what others get instead.
_PRIVATE_FIELDS = {"tactics_drawn": "cards", "spied": "hand"}


def redact_strike(state: StrikeState, viewer: str | None) -> dict[str, Any]:
    """The JSON view of a Strike `state` for `viewer` (a colour, or None for public only)."""
    full = state.to_dict()
    hands = full.pop("hands")
    spied = full.pop("spied")
    full["continent_deck_count"] = len(full.pop("continent_deck"))
    full["tactics_deck_count"] = len(full.pop("tactics_deck"))
    full["hand_counts"] = {p: len(h) for p, h in hands.items()}
    full["continent_colours"] = continent_colours(state)
    full["waiting_for"] = waiting_for(state)
    full["viewer"] = viewer
    if viewer is not None and viewer in hands:
        full["my_hand"] = hands[viewer]
        report = spied.get(viewer)
        if report is not None:
            full["spied_hand"] = {"player": report["target"], "cards": report["hand"],
                                  "as_of_turn": report["turn"], "may_have_changed": True}
    return full


def redact_strike_event(event: dict[str, Any], viewer: str | None) -> dict[str, Any]:
    """`event` as `viewer` may see it: private card lists become counts for others."""
    field = _PRIVATE_FIELDS.get(event.get("type"))  # type: ignore[arg-type]
    if field is None or (viewer is not None and viewer == event.get("player")):
        return dict(event)
    hidden = dict(event)
    hidden["count"] = len(hidden.pop(field))
    return hidden
