"""Pure RISK rules: `new_game(...)`, `apply(state, command, rng)`, commands, events, queries.

No I/O beyond reading the packaged map/card data, no clock, no randomness of its own:
chance comes from the `RandomSource` argument (contract A), so a journal of commands and
their recorded draws replays a game exactly.

Phases: claim -> setup_place -> [hq_pick] -> (reinforce -> attack -> [allied] -> fortify)
per turn -> game_over. `hq_pick` is Capital's secret HQ choice (`PickHQ` from any seat);
`allied` is the Allied Army's phase, commanded by the opponent (`current_player` is then
that opponent). `state.pending` names a decision the game waits for, and from whom:
`defend` (ChooseDefence; for a neutral or Allied territory the seat not attacking
decides), `move_in` (MoveIn; after an Allied conquest its commander decides, and
`pending.army` is "allied"), `trade_down` (TradeCards, then Place).

Variants (`new_game(variant, ...)`): classic, mission, capital, two-player, allied; each is
a small module in `pi_app.rules.variants` overriding Classic's hooks. RISK Strike has its
own engine in `pi_app.rules.strike`.

>>> from pi_app.dice import SeededSource
>>> rng = SeededSource(1)
>>> state = new_game("classic", ["red", "blue", "green"], HouseRules(), rng).state
>>> state.phase, len(state.deck)
('claim', 44)
>>> outcome = apply(state, Claim(state.current_player, "alaska"), rng)
>>> [e.to_dict()["type"] for e in outcome.events]
['claimed']
>>> try:
...     apply(state, Claim(state.current_player, "alaska"), rng)
... except RuleError as err:
...     print(err.code)
territory_taken
"""

from pi_app.rules.board import Board, BoardDataError, Deck, load_cards, load_map
from pi_app.rules.commands import (
    Attack,
    Blitz,
    ChooseDefence,
    Claim,
    Command,
    EndAttack,
    EndTurn,
    Fortify,
    MoveIn,
    PickHQ,
    Place,
    PlaceNeutral,
    TradeCards,
)
from pi_app.rules.commands import (
    command_from_dict as board_command_from_dict,
)
from pi_app.rules.errors import ERROR_CODES, RuleError
from pi_app.rules.events import Event, Outcome
from pi_app.rules.games import (
    STRIKE,
    apply,
    command_from_dict,
    is_strike,
    new_game,
    state_from_dict,
)
from pi_app.rules.house_rules import HouseRules
from pi_app.rules.legal import (
    attack_dice_range,
    awaiting_players,
    card_sets,
    continents_owned,
    defence_dice_range,
    fortify_destinations,
    legal_attacks_from,
    legal_commands,
    reinforcements_for,
    selectable_territories,
    trade_value_next,
    waiting_for,
)
from pi_app.rules.state import GameState
from pi_app.rules.variants import GAMES, VARIANT_NAMES, GameInfo, game_info, get_variant

__all__ = [
    "ERROR_CODES",
    "GAMES",
    "STRIKE",
    "VARIANT_NAMES",
    "Attack",
    "Blitz",
    "Board",
    "BoardDataError",
    "ChooseDefence",
    "Claim",
    "Command",
    "Deck",
    "EndAttack",
    "EndTurn",
    "Event",
    "Fortify",
    "GameInfo",
    "GameState",
    "HouseRules",
    "MoveIn",
    "Outcome",
    "PickHQ",
    "Place",
    "PlaceNeutral",
    "RuleError",
    "TradeCards",
    "apply",
    "attack_dice_range",
    "awaiting_players",
    "board_command_from_dict",
    "card_sets",
    "command_from_dict",
    "continents_owned",
    "defence_dice_range",
    "fortify_destinations",
    "game_info",
    "get_variant",
    "is_strike",
    "legal_attacks_from",
    "legal_commands",
    "load_cards",
    "load_map",
    "new_game",
    "reinforcements_for",
    "selectable_territories",
    "state_from_dict",
    "trade_value_next",
    "waiting_for",
]
