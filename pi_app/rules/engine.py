"""The rules engine: `new_game(...)` and `apply(state, command, rng)`.

`apply` resolves the game's variant once per command (from a cache): the variant's
handler table (Classic's handlers from `pi_app.rules.steps`, some overridden by the
variant) and its after-command hook. It checks who may act now (the turn, a pending
decision, a command any seat may give), then runs the handler, which validates the
command completely before touching the state. An illegal command raises
`RuleError(code, message)` and changes nothing. Classic's table has no hook, so its hot
path is one dictionary lookup. The decisions the steps take are written out in
`pi_app.rules.steps`; see also docs/RULES.md.

Layering (imports point down only; `tests/rules/test_layers.py` keeps it so): data
(errors, events, commands, state, board, cards, battle, odds, house rules) → Classic's steps
(`steps`, `setup`, `queries`), taking the variant as a parameter → the variants
(`variants.base` and a module per variant) → this engine, `legal`, the registry
(`variants/__init__`) and `games` → the package's face (`pi_app.rules`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pi_app.rules.board import load_roster
from pi_app.rules.commands import ChooseDefence, Command, MoveIn, Place, TradeCards
from pi_app.rules.errors import RuleError
from pi_app.rules.events import Event, Outcome
from pi_app.rules.house_rules import HouseRules
from pi_app.rules.queries import connected_through_own
from pi_app.rules.state import ALLIED, GAME_OVER, GameState
from pi_app.rules.steps import (
    ADJ,
    BOARD,
    CARD_LIMIT_AFTER_TAKEOVER,
    CLASSIC_HANDLERS,
    DECK,
    FORCED_TRADE_AT,
    TAKEOVER_TRADE_AT,
    Handler,
    check_count,
)
from pi_app.rules.variants import Variant, get_variant

if TYPE_CHECKING:
    from pi_app.dice import RandomSource

# Names other packages (and older code) import from here.
__all__ = ["ADJ", "BOARD", "CARD_LIMIT_AFTER_TAKEOVER", "DECK", "FORCED_TRADE_AT",
           "TAKEOVER_TRADE_AT", "apply", "check_count", "connected_through_own", "new_game"]


def new_game(variant: str, players: list[str], house_rules: HouseRules | None,
             rng: RandomSource) -> Outcome[GameState]:
    """Start a game: validate players, then run the variant's setup with `rng`."""
    rules = house_rules if house_rules is not None else HouseRules()
    if not isinstance(rules, HouseRules):
        raise RuleError("bad_house_rules", "house_rules must be a HouseRules object")
    var = get_variant(variant)
    roster = load_roster()
    low, high = var.player_limits
    if not isinstance(players, list | tuple) or not low <= len(players) <= high:
        raise RuleError("bad_players",
                        f"{var.name} needs {low} to {high} players, got "
                        f"{len(players) if isinstance(players, list | tuple) else players!r}.")
    for p in players:
        if p not in roster.colours:
            raise RuleError("bad_players", f"{p!r} is not a colour; use one of "
                            + ", ".join(roster.colours) + ".")
    if len(set(players)) != len(players):
        raise RuleError("bad_players", "Every player needs a different colour.")
    state = GameState(var.name, list(players), rules, BOARD.territories)
    events: list[Event] = [Event("game_started", variant=var.name, players=list(players))]
    var.setup(state, BOARD, DECK, roster, rng, events)
    return Outcome(state, events)


def apply(state: GameState, command: Command, rng: RandomSource) -> Outcome[GameState]:
    """Apply `command` to `state` (in place) and return the new state and its events."""
    rules = _RULES.get(state.variant)
    if rules is None:
        rules = _rules_for(state.variant)
    variant, table, after = rules
    handler = table.get(type(command))
    if handler is None:
        raise RuleError("bad_command", f"{type(command).__name__} is not a command of this game.")
    if state.phase == GAME_OVER:
        raise RuleError("game_over", f"The game is over; {state.winner} won.")
    player = command.player
    if player not in state.reserves:
        raise RuleError("unknown_player", f"{player!r} is not playing in this game.")
    pending = state.pending
    if pending is None and type(command) in _NEED_PENDING:
        raise RuleError("nothing_pending", "Nothing is waiting for that answer now.")
    if pending is not None:
        if player != pending["player"]:
            raise RuleError("not_your_turn", _waiting_sentence(pending))
        if type(command) not in _ANSWERS[pending["kind"]]:
            raise RuleError("awaiting_decision", _waiting_sentence(pending))
    elif player != state.current_player and type(command) not in variant.any_seat_commands:
        raise RuleError("not_your_turn", _turn_sentence(state, player))
    events: list[Event] = []
    handler(variant, state, command, rng, events)
    if after is not None:
        after(state, command, events)
    return Outcome(state, events)


def _rules_for(name: str) -> tuple[Variant, dict[type, Handler], Handler | None]:
    """Variant `name`, its command handlers (Classic's, overridden by its own) and its
    after-command hook, built once."""
    variant = get_variant(name)
    table = dict(CLASSIC_HANDLERS)
    table.update(variant.handlers)
    rules = _RULES[name] = (variant, table, variant.after_command)
    return rules


def _turn_sentence(state: GameState, player: str) -> str:
    if state.phase == ALLIED:
        return (f"{state.current_player} commands the Allied Army now; {player} continues "
                "when that phase ends.")
    return f"It is {state.current_player}'s turn, not {player}'s."


def _waiting_sentence(pending: dict[str, Any]) -> str:
    kind = pending["kind"]
    who = pending["player"]
    if kind == "defend":
        return f"Waiting for {who} to choose how many dice defend {pending['to']}."
    if kind == "move_in":
        return f"Waiting for {who} to move armies into {pending['to']}."
    return f"Waiting for {who} to trade cards down to {CARD_LIMIT_AFTER_TAKEOVER} and place them."


_ANSWERS: dict[str, tuple[type, ...]] = {
    "defend": (ChooseDefence,),
    "move_in": (MoveIn,),
    "trade_down": (TradeCards, Place),
}
_NEED_PENDING = (ChooseDefence, MoveIn)
# Per variant: the variant, its handler table and its after-command hook.
_RULES: dict[str, tuple[Variant, dict[type, Handler], Handler | None]] = {
    "classic": (get_variant("classic"), CLASSIC_HANDLERS, None)}
