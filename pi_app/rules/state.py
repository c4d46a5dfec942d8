"""The whole game as one mutable, JSON-serialisable object.

The engine validates a command fully, then mutates the state in place (no copies per
command). `to_dict()` has a stable key order and `GameState.from_dict` round-trips it.
"""

from __future__ import annotations

import copy
from typing import Any

from pi_app.rules.house_rules import HouseRules

# Phases of a game, in the order a turn visits them.
CLAIM = "claim"                      # setup: claim empty territories one by one
SETUP_PLACE = "setup_place"          # setup: place remaining starting armies one by one
REINFORCE = "reinforce"              # trade cards, place reinforcements
ATTACK = "attack"
FORTIFY = "fortify"
HQ_PICK = "hq_pick"                  # Capital: every player secretly picks a headquarters
ALLIED = "allied"                    # Allied Army: the opponent commands it (between the
                                     # turn owner's attack and fortify phases)
GAME_OVER = "game_over"
PHASES = (CLAIM, SETUP_PLACE, HQ_PICK, REINFORCE, ATTACK, ALLIED, FORTIFY, GAME_OVER)

_LIST_FIELDS = ("players", "deck", "discard", "eliminated")


class GameState:
    """Everything about a game in progress.

    Attributes (all JSON-ready):
      variant, players (seat order), house_rules, phase, current_player, turn (1-based once
      play starts, 0 during setup), first_player, owner[territory] (colour or None),
      armies[territory], reserves[colour] (armies still to place), hands[colour] (card ids),
      deck (last item is the top; Capital's HQ cards leave it at the reveal), discard,
      trade_count (sets traded at the table),
      pending (the decision awaited: {"kind": "defend"|"move_in"|"trade_down", "player": ...}
      or None), conquered_this_turn, territory_bonus_used, eliminated (in order),
      winner, missions[colour] (private; Secret Mission), hq[colour] (Capital; private
      until hq_revealed), variant_data (public variant extras: Capital `hq_holders`,
      `hq_needed`; Secret Mission `revealed_mission` after the win; two-player and Allied
      the third army: `army`, `reserve`, `quota`, `placing`, `destroyed`, `allied_turn`).
    Owners may be colours that are no seat: "neutral" (two-player) and "allied".
    """

    __slots__ = (
        "armies", "conquered_this_turn", "current_player", "deck", "discard", "eliminated",
        "first_player", "hands", "house_rules", "hq", "hq_revealed", "missions", "owner",
        "pending", "phase", "players", "reserves", "territory_bonus_used", "trade_count",
        "turn", "variant", "variant_data", "winner",
    )

    def __init__(self, variant: str, players: list[str], house_rules: HouseRules,
                 territories: tuple[str, ...]) -> None:
        self.variant = variant
        self.players = list(players)
        self.house_rules = house_rules
        self.phase = CLAIM
        self.current_player = players[0]
        self.first_player = players[0]
        self.turn = 0
        self.owner: dict[str, str | None] = dict.fromkeys(territories)
        self.armies: dict[str, int] = dict.fromkeys(territories, 0)
        self.reserves: dict[str, int] = dict.fromkeys(players, 0)
        self.hands: dict[str, list[str]] = {p: [] for p in players}
        self.deck: list[str] = []
        self.discard: list[str] = []
        self.trade_count = 0
        self.pending: dict[str, Any] | None = None
        self.conquered_this_turn = False
        self.territory_bonus_used = False
        self.eliminated: list[str] = []
        self.winner: str | None = None
        self.missions: dict[str, Any] = {}
        self.hq: dict[str, str] = {}
        self.hq_revealed = False
        self.variant_data: dict[str, Any] = {}

    # --- queries that read like the rule book -------------------------------------------
    def territories_of(self, player: str) -> list[str]:
        """The territories `player` owns, in map order."""
        return [t for t, o in self.owner.items() if o == player]

    def territory_count(self, player: str) -> int:
        """How many territories `player` owns."""
        return sum(1 for o in self.owner.values() if o == player)

    def active_players(self) -> list[str]:
        """Players not eliminated, in seat order."""
        gone = self.eliminated
        return [p for p in self.players if p not in gone]

    def total_armies(self) -> int:
        """Armies on the board (not counting reserves)."""
        return sum(self.armies.values())

    # --- serialisation -------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """JSON-ready snapshot with a stable key order (diffs well, round-trips)."""
        return {
            "variant": self.variant,
            "players": list(self.players),
            "house_rules": self.house_rules.to_dict(),
            "phase": self.phase,
            "turn": self.turn,
            "current_player": self.current_player,
            "first_player": self.first_player,
            "owner": dict(self.owner),
            "armies": dict(self.armies),
            "reserves": dict(self.reserves),
            "hands": {p: list(h) for p, h in self.hands.items()},
            "deck": list(self.deck),
            "discard": list(self.discard),
            "trade_count": self.trade_count,
            "pending": copy.deepcopy(self.pending),
            "conquered_this_turn": self.conquered_this_turn,
            "territory_bonus_used": self.territory_bonus_used,
            "eliminated": list(self.eliminated),
            "winner": self.winner,
            "missions": copy.deepcopy(self.missions),
            "hq": dict(self.hq),
            "hq_revealed": self.hq_revealed,
            "variant_data": copy.deepcopy(self.variant_data),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameState:
        """Rebuild a state from `to_dict()` output."""
        state = cls.__new__(cls)
        for name in cls.__slots__:
            if name not in data:
                raise ValueError(f"game state is missing {name!r}")
        state.variant = data["variant"]
        state.house_rules = HouseRules.from_dict(data["house_rules"])
        state.phase = data["phase"]
        state.turn = int(data["turn"])
        state.current_player = data["current_player"]
        state.first_player = data["first_player"]
        state.owner = dict(data["owner"])
        state.armies = {t: int(n) for t, n in data["armies"].items()}
        state.reserves = {p: int(n) for p, n in data["reserves"].items()}
        state.hands = {p: list(h) for p, h in data["hands"].items()}
        for name in _LIST_FIELDS:
            setattr(state, name, list(data[name]))
        state.trade_count = int(data["trade_count"])
        state.pending = copy.deepcopy(data["pending"])
        state.conquered_this_turn = bool(data["conquered_this_turn"])
        state.territory_bonus_used = bool(data["territory_bonus_used"])
        state.winner = data["winner"]
        state.missions = copy.deepcopy(data["missions"])
        state.hq = dict(data["hq"])
        state.hq_revealed = bool(data["hq_revealed"])
        state.variant_data = copy.deepcopy(data["variant_data"])
        return state

    def copy(self) -> GameState:
        """An independent deep copy."""
        return GameState.from_dict(self.to_dict())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameState) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"GameState(variant={self.variant!r}, phase={self.phase!r}, turn={self.turn}, "
                f"current_player={self.current_player!r})")
