"""THE one redaction function (contract B): what a viewer may see of a game and its events.

`redact(state, viewer)`: viewer is a colour (that player's private view) or None (spectator,
host screen: public only). Other players' hands appear as counts, the deck as a count.
Secret Mission: `my_mission` for its owner only; once the game is won the winner's card is
public (`missions_revealed` = {winner: mission}, also `variant_data.revealed_mission`); the
other missions stay secret.
Capital: before the reveal `hq_chosen` lists who has picked (not what) and `my_hq` shows
the viewer's own pick; after it `hq` maps every colour to its HQ territory (public, for
the map and the LEDs) and `variant_data.hq_holders` says who holds each HQ card; a seat's
`my_hq_cards` lists the HQ cards it holds (never in `my_hand`: they are no RISK cards).
`redact_event(event, viewer)` hides drawn and taken cards from everyone but their holder
and drops private events (mission dealt or changed, HQ chosen) for other viewers.
`redact_journal_command(command, state)` is a journaled command as the host's journal
download may show it while its game's seed is secret: a Capital HQ pick keeps its
territory only once it is that seat's revealed HQ. (Every other command is public as
played; hands, missions, deck orders and Strike hands and spy results come from the dice
draws, which the download drops with the seed: `pi_app.web.host.journal_snapshot`.)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from pi_app.rules import GameState, game_info

if TYPE_CHECKING:
    from pi_app.rules.strike import StrikeState

# RISK Strike events that carry hidden cards (its own redaction decides what each viewer sees).
_STRIKE_EVENTS = frozenset({"tactics_drawn", "spied"})

# Events whose whole content is private to `player` (other viewers do not see them at all).
_PRIVATE_EVENTS = frozenset({"mission_dealt", "mission_changed", "hq_chosen"})
# Events carrying cards only their `player` may see; others get the count.
_CARD_EVENTS = {"card_drawn": "card", "cards_taken": "cards"}


def redact(state: GameState | StrikeState, viewer: str | None) -> dict[str, Any]:
    """The JSON view of `state` for `viewer` (a colour, or None for public only)."""
    if game_info(state.variant).card_game:
        from pi_app.rules.strike import redact_strike

        return redact_strike(cast("StrikeState", state), viewer)
    return _redact_board(cast(GameState, state), viewer)


def _redact_board(state: GameState, viewer: str | None) -> dict[str, Any]:
    """`redact` of a board game: hands, missions, HQs and the deck hidden as the rules say."""
    full = state.to_dict()
    hands = full.pop("hands")
    missions = full.pop("missions")
    hq = full.pop("hq")
    deck = full.pop("deck")
    full["hand_counts"] = {p: len(h) for p, h in hands.items()}
    full["deck_count"] = len(deck)
    if state.hq_revealed:
        full["hq"] = hq
    else:
        full["hq_chosen"] = sorted(hq)
    full["viewer"] = viewer
    if viewer is not None and viewer in hands:
        full["my_hand"] = hands[viewer]
        full["my_mission"] = missions.get(viewer)
        full["my_hq"] = hq.get(viewer)
        if state.hq_revealed:
            holders = state.variant_data.get("hq_holders", {})
            full["my_hq_cards"] = [hq[p] for p in hq if holders.get(p) == viewer]
    if state.winner is not None and state.winner in missions:
        # the winner shows their card; the other missions stay secret
        full["missions_revealed"] = {state.winner: missions[state.winner]}
    return full


def redact_event(event: dict[str, Any], viewer: str | None) -> dict[str, Any] | None:
    """`event` as `viewer` may see it, or None if that viewer must not see it at all."""
    if event.get("type") in _STRIKE_EVENTS:
        from pi_app.rules.strike import redact_strike_event

        return redact_strike_event(event, viewer)
    kind = event.get("type")
    owner = event.get("player")
    if kind in _PRIVATE_EVENTS:
        return dict(event) if viewer is not None and viewer == owner else None
    field = _CARD_EVENTS.get(kind)  # type: ignore[arg-type]
    if field is not None and (viewer is None or viewer != owner):
        hidden = dict(event)
        value = hidden.pop(field)
        hidden["count"] = len(value) if isinstance(value, list) else 1
        return hidden
    return dict(event)


# Commands whose field is secret until the game makes it public: type -> field.
_SECRET_COMMAND_FIELDS = {"pick_hq": "territory"}


def redact_journal_command(command: dict[str, Any], state: Any) -> dict[str, Any]:
    """`command` (a journaled command dict) as anyone may read it now, given its game's
    current `state` (None when unknown: then every secret field is blanked).

    A Capital `pick_hq` keeps its territory only if the HQs are revealed and that territory
    is the seat's HQ; a pick changed before the reveal, or any pick before it, reads
    `"territory": ""`."""
    field = _SECRET_COMMAND_FIELDS.get(command.get("type"))  # type: ignore[arg-type]
    if field is None or field not in command:
        return dict(command)
    public = (state is not None and not game_info(state.variant).card_game
              and state.hq_revealed
              and state.hq.get(command.get("player")) == command[field])
    return dict(command) if public else {**command, field: ""}
