"""The game-kind seam: the only place in the table that asks "board game or RISK Strike?".

Everything the table does differently for the two kinds of game goes through the
`GameKind` of the running game (`kind_of(state)`): how a touch or press is read
(`interpret`), what is left of a selection after a change (`settle`), whom the game awaits
(`awaited`), what the table waits for as every page says it (`awaiting`), whom a refusal
addresses (`actor`), what the lights highlight and the scene's basics (`scene`), where a
refusal blinks (`refusal_places`), whether marker tracking applies and battles are fought
on the map, the open reaction window's timer, and what a seat's phone may do now
(`may_act`). The rest of the table (core, timers, publishing, the web service) holds a kind
and calls it; a test (tests/table/test_layers.py) keeps `is_strike` out of it.

`BoardKind` is every variant of the board engine (`gestures.py`), `StrikeKind` RISK Strike
(`strike_gestures.py`, lit as coin-holder continents). The web sees the kind's `name` in
every view (`table.kind`: "board" or "strike").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from pi_app.rules import awaiting_players, is_strike
from pi_app.rules.strike import SETTING_COMMANDS
from pi_app.table import gestures, strike_gestures
from pi_app.table.awaiting import Awaiting, TableFacts, board_awaiting, strike_awaiting
from pi_app.table.gestures import Count, Decision, InputEvent, Selection
from pi_app.table.lights import Battle, Effect, Highlight, Mismatch, Scene


class GameKind(Protocol):
    """What the table needs to know about one kind of game (see the module docstring)."""

    name: str
    tracks_markers: bool  # NFC markers on the map mirror the game's owners
    map_battles: bool  # battles are between territories with armies (odds make sense)
    settings: frozenset[str]  # command types a seat may send at any time (standing settings)

    def interpret(self, state: Any, selection: Selection, event: InputEvent) -> Decision:
        """A touch or press read as a decision."""

    def settle(self, state: Any, selection: Selection) -> Selection:
        """What the game still allows of `selection` after a change."""

    def awaited(self, state: Any) -> list[str]:
        """Every colour the game waits for now."""

    def actor(self, state: Any) -> str | None:
        """The one seat a refusal on the board is addressed to (None: no one)."""

    def count(self, state: Any, selection: Selection) -> Count | None:
        """The count Roll / Confirm would use now (None where the kind has none)."""

    def highlight(self, state: Any, selection: Selection, hold: Any) -> Highlight:
        """The selection and any pending decision as the lights show them; `hold` is the
        computer's held step the table waits on (`awaiting.Held`, its `copy`; None: none)."""

    def scene(self, state: Any, *, highlight: Highlight, effects: tuple[Effect, ...],
              winner_since: float, last_battle: Battle | None,
              mismatches: Mapping[str, Mismatch], over: bool = False) -> Scene:
        """The scene of `state` with the table's own parts; `over`: the game is over (won,
        or ended by the host: no one's turn, nothing awaited)."""

    def refusal_places(self, state: Any, selection: Selection, actor: str | None) -> list[str]:
        """Where a refusal with no territory of its own blinks."""

    def window(self, state: Any) -> tuple[int, float] | None:
        """The open reaction window: (its id, the seconds the table gives it; 0: no timer),
        or None."""

    def may_act(self, state: Any, player: str, touch: bool) -> tuple[bool, list[str]]:
        """(True if `player`'s phone may act now, the seats the game awaits)."""

    def player_view(self, state: Any, player: str) -> dict[str, Any]:
        """What a seated player's view carries besides the redacted state."""

    def awaiting(self, state: Any, facts: TableFacts) -> Awaiting:
        """What the table waits for now (`pi_app.table.awaiting`)."""


class BoardKind:
    """Every variant of the board engine: armies on the map, one awaited seat at a time."""

    name = "board"
    tracks_markers = True
    map_battles = True
    settings: frozenset[str] = frozenset()

    def interpret(self, state: Any, selection: Selection, event: InputEvent) -> Decision:
        """`gestures.interpret`."""
        return gestures.interpret(state, selection, event)

    def settle(self, state: Any, selection: Selection) -> Selection:
        """`gestures.settle`."""
        return gestures.settle(state, selection)

    def awaited(self, state: Any) -> list[str]:
        """The rules' `awaiting_players` (a list for the HQ pick)."""
        return awaiting_players(state)

    def actor(self, state: Any) -> str | None:
        """The seat a pending decision asks, else the current player."""
        return gestures.waiting_for(state)

    def count(self, state: Any, selection: Selection) -> Count | None:
        """`gestures.current_count`."""
        return gestures.current_count(state, selection)

    def highlight(self, state: Any, selection: Selection, hold: Any) -> Highlight:
        """Source, target, dice and counts of the step being chosen; nothing during the
        secret HQ pick; the computer's pieces to move by hand while it holds its step."""
        sel = selection
        pending = state.pending
        if hold is not None and pending is None:  # the computer's pieces to move by hand
            return Highlight(copy=hold.copy, mode="copy", mover=hold.player)
        if state.phase == "hq_pick":
            return Highlight()  # the pick is secret until every seat has chosen
        count = gestures.current_count(state, sel)
        if pending is not None and pending["kind"] == "defend":
            dice: int | None = sel.defence or int(pending["max_dice"])
            return Highlight(source=pending["from"], target=pending["to"], mode="defend",
                             dice=dice, dice_on=pending["to"], mover=pending["attacker"])
        if pending is not None and pending["kind"] == "move_in":
            return Highlight(source=pending["from"], target=pending["to"], mode="move",
                             mover=pending["player"], count=count.value if count else None)
        if state.phase == "attack" or (state.phase == "allied" and sel.target):
            dice = None
            if sel.source and sel.target:
                dice = sel.dice or min(3, state.armies[sel.source] - 1)
            return Highlight(source=sel.source, target=sel.target, mode="attack", dice=dice,
                             dice_on=sel.source)
        if state.phase == "fortify":
            return Highlight(source=sel.source, target=sel.target, mode="fortify",
                             mover=state.current_player,
                             count=count.value if count and sel.target else None)
        return Highlight(selected=sel.source)

    def scene(self, state: Any, *, highlight: Highlight, effects: tuple[Effect, ...],
              winner_since: float, last_battle: Battle | None,
              mismatches: Mapping[str, Mismatch], over: bool = False) -> Scene:
        """Owners' colours, the phase, the awaited defender, revealed HQs, mismatches; once
        the game is over, no turn, phase or decision."""
        return Scene.build(
            state.owner,
            None if state.winner or over else state.current_player,
            phase=None if over else state.phase,
            claiming=state.phase == "claim" and not over,
            awaiting=(str(state.pending["player"]) if state.pending is not None
                      and state.winner is None and not over else None),
            winner=state.winner,
            winner_since=winner_since,
            highlight=highlight,
            effects=effects,
            mismatches=mismatches,
            last_battle=last_battle,
            hq=set(state.hq.values()) if state.hq_revealed else set(),
        )

    def refusal_places(self, state: Any, selection: Selection, actor: str | None) -> list[str]:
        """The selection's territories, else all of the actor's land (always all of it
        during the HQ pick: never blink the secret HQ being chosen)."""
        if state.phase == "hq_pick":
            return state.territories_of(actor) if actor else []
        places = [t for t in (selection.source, selection.target) if t]
        if not places and actor is not None:
            places = state.territories_of(actor)
        return places

    def window(self, state: Any) -> tuple[int, float] | None:
        """The board game has no reaction windows."""
        return None

    def may_act(self, state: Any, player: str, touch: bool) -> tuple[bool, list[str]]:
        """The seats the game awaits, or any seat during Capital's secret HQ pick (a pick
        may change until the last seat has picked)."""
        awaited = awaiting_players(state)
        return (player in awaited or (state.phase == "hq_pick" and player in state.players),
                awaited)

    def player_view(self, state: Any, player: str) -> dict[str, Any]:
        """Nothing beyond the redacted state."""
        return {}

    def awaiting(self, state: Any, facts: TableFacts) -> Awaiting:
        """`awaiting.board_awaiting`."""
        return board_awaiting(state, facts)


class StrikeKind:
    """RISK Strike: cards and dice, no armies on the map; continents lit for coin holders."""

    name = "strike"
    tracks_markers = False
    map_battles = False
    settings = SETTING_COMMANDS  # the passing choice (RULES §7, "Passing")

    def interpret(self, state: Any, selection: Selection, event: InputEvent) -> Decision:
        """`strike_gestures.interpret`."""
        return strike_gestures.interpret(state, selection, event)

    def settle(self, state: Any, selection: Selection) -> Selection:
        """`strike_gestures.settle`."""
        return strike_gestures.settle(state, selection)

    def awaited(self, state: Any) -> list[str]:
        """The decider, or a reaction window's eligible players."""
        from pi_app.rules.strike import waiting_for

        return waiting_for(state)

    def actor(self, state: Any) -> str | None:
        """No one: several seats may act at once."""
        return None

    def count(self, state: Any, selection: Selection) -> Count | None:
        """Strike's counts are on the phones."""
        return None

    def highlight(self, state: Any, selection: Selection, hold: Any) -> Highlight:
        """`strike_gestures.highlight`: the battle's continents."""
        return strike_gestures.highlight(state, selection)

    def scene(self, state: Any, *, highlight: Highlight, effects: tuple[Effect, ...],
              winner_since: float, last_battle: Battle | None,
              mismatches: Mapping[str, Mismatch], over: bool = False) -> Scene:
        """Continents in their coin holders' colours; the decider pulses (no one once the
        game is over)."""
        from pi_app.rules.strike import decider, territory_colours

        return Scene.build(
            territory_colours(state),
            None if state.winner or over else (decider(state) or state.current_player),
            winner=state.winner,
            winner_since=winner_since,
            highlight=highlight,
            effects=effects,
            last_battle=last_battle,
        )

    def refusal_places(self, state: Any, selection: Selection, actor: str | None) -> list[str]:
        """Nowhere: a Strike selection is continents, not the place of a mistake."""
        return []

    def window(self, state: Any) -> tuple[int, float] | None:
        """The open window and `house_rules.reaction_seconds`."""
        window = getattr(state, "window", None)
        if window is None:
            return None
        return int(window["id"]), float(state.house_rules.reaction_seconds)

    def may_act(self, state: Any, player: str, touch: bool) -> tuple[bool, list[str]]:
        """The seats awaited; by command also any seat with a command it may send now
        (tactics cards in a window, Spy/Expand on one's own turn). A touch answers only
        what the game waits for."""
        from pi_app.rules.strike import available_commands, waiting_for

        awaited = waiting_for(state)
        return (player in awaited or (not touch and bool(available_commands(state, player))),
                awaited)

    def player_view(self, state: Any, player: str) -> dict[str, Any]:
        """The command types the seat may send now (the page's buttons), the attacks it may
        declare (the attack form offers only those), and its passing choice with the
        choices it has."""
        from pi_app.rules.strike import (
            PASSING_CHOICES,
            attack_choices,
            available_commands,
        )

        commands = available_commands(state, player)
        view: dict[str, Any] = {"available_commands": commands,
                                "passing_choice": {"choice": state.passing_of(player),
                                                   "choices": list(PASSING_CHOICES)}}
        if "strike_declare_attack" in commands:
            view["attack_choices"] = attack_choices(state, player)
        return view

    def awaiting(self, state: Any, facts: TableFacts) -> Awaiting:
        """`awaiting.strike_awaiting`."""
        return strike_awaiting(state, facts)


BOARD_KIND = BoardKind()
STRIKE_KIND = StrikeKind()


def kind_of(state: Any) -> GameKind:
    """The kind of game `state` is (the board game when there is none)."""
    return STRIKE_KIND if state is not None and is_strike(state) else BOARD_KIND


def waits(state: Any, facts: TableFacts) -> Awaiting:
    """What the table waits for now, for every page and the lights (`pi_app.table.awaiting`)."""
    return kind_of(state).awaiting(state, facts)


def awaited(state: Any) -> list[str]:
    """Every colour the game waits for now (a list for RISK Strike and the HQ pick)."""
    return [] if state is None else kind_of(state).awaited(state)
