"""The whole RISK Strike game as one mutable, JSON-serialisable object, and its table options.

The engine validates a command fully, then mutates the state in place. `to_dict()` has a
stable key order and `StrikeState.from_dict` round-trips it; `copy()` is a deep copy.
"""

from __future__ import annotations

import copy
from dataclasses import asdict, dataclass, fields
from typing import Any

from pi_app.rules.errors import RuleError

VARIANT = "strike"

# Phases of a turn.
DRAW = "draw"            # the current player draws 2 cards
CHOOSE = "choose"        # attack or pass
BATTLE = "battle"        # an attack is in progress (see `battle["step"]`)
GAME_OVER = "game_over"
PHASES = (DRAW, CHOOSE, BATTLE, GAME_OVER)

# Steps of a battle (`battle["step"]`).
ATTACKER_DEPLOY = "attacker_deploy"   # the attacker plays troop cards (or none)
DEFENDER_DEPLOY = "defender_deploy"   # then the defender
SUPPORT = "support"                   # Strike 2 only: since Strike 3 supporters add troops
#                                       in the window after deployment (DEPLOYED)
DEPLOYED = "deployed"                 # window right after deployment (Sabotage, Artillery)
READY = "ready"                       # the attacker rolls (again) or stops
ROLLED = "rolled"                     # window after a roll (Rally, Bombard, Artillery)

# Kinds of reaction window (`window["kind"]`); the first three match battle steps.
TACTICS_WINDOW = "tactics"            # opened by a tactics card played outside any window
WINDOW_KINDS = (SUPPORT, DEPLOYED, ROLLED, TACTICS_WINDOW)

# A seat's standing choice of when a reaction window asks it (RULES §7, "Passing"):
# "result": only while it holds a card that could change the result (the default, for a
# seat that never chose); "every": whenever a window might (its pace then tells nothing of
# its hand, as in Strike 3).
RESULT = "result"
EVERY = "every"
PASSING_CHOICES = (RESULT, EVERY)
DEFAULT_PASSING = RESULT

ATTACKER = "attacker"
DEFENDER = "defender"
SIDES = (ATTACKER, DEFENDER)


@dataclass(frozen=True, slots=True)
class StrikeRules:
    """Table options of a Strike game.

    - reaction_seconds: how long the table waits in a reaction window before it issues
      `CloseWindow` (0 = no timer: the window waits until every player has passed). The
      engine only stores it; the table runs the timer.
    - physical_dice: players type real dice faces (the session supplies them).
    """

    reaction_seconds: int = 20
    physical_dice: bool = False

    def __post_init__(self) -> None:
        seconds = self.reaction_seconds
        if isinstance(seconds, bool) or not isinstance(seconds, int) or not 0 <= seconds <= 600:
            raise RuleError("bad_house_rules", "house_rules.reaction_seconds must be a whole "
                            f"number of seconds from 0 to 600, got {seconds!r}")
        if not isinstance(self.physical_dice, bool):
            raise RuleError("bad_house_rules", "house_rules.physical_dice must be true or "
                            f"false, got {self.physical_dice!r}")

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict of every option."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> StrikeRules:
        """Build from a (possibly partial) dict; unknown keys or bad values raise RuleError."""
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise RuleError("bad_house_rules", "house rules must be an object of options")
        known = {f.name for f in fields(cls)}
        for key in data:
            if key not in known:
                raise RuleError("bad_house_rules", f"unknown Strike house rule {key!r}")
        return cls(**data)


class StrikeState:
    """Everything about a Strike game in progress (all attributes JSON-ready).

    variant ("strike"), players (seat order), house_rules (StrikeRules), phase, turn,
    current_player, first_player, continent_deck / tactics_deck (last item is the top),
    tables[colour] (continent cards face up), hands[colour] (tactics cards, hidden),
    discard (tactics), surrendered (continent cards), coins[continent] (holder or None),
    battle (None or {"attacker", "defender", "attack_continent", "defence_continent",
    "step", "troops": [{"player", "side", "card"}...] in deploy order, "supporters"
    {colour: side}, "dice" {"attacker": [...], "defender": [...]} or None, "rolls"}),
    window (None or {"id", "kind", "eligible", "passed", "plays": [{"id", "player", "card",
    "kind", ...parameters}]}), spied[colour] (private: {"target", "hand", "turn"}),
    next_play (id of the next tactics play), next_window (id of the next window), winner,
    sitting_out (players who passed until their next turn: `Pass(until="turn")`; public),
    passing[colour] (a seat's standing passing choice, `ChoosePassing`; public; a seat that
    never chose is absent and gets `DEFAULT_PASSING`).
    """

    __slots__ = (
        "battle", "coins", "continent_deck", "current_player", "discard", "first_player",
        "hands", "house_rules", "next_play", "next_window", "passing", "phase", "players",
        "sitting_out",
        "spied", "surrendered", "tables", "tactics_deck", "turn", "variant", "window", "winner",
    )

    def __init__(self, players: list[str], rules: StrikeRules,
                 continents: tuple[str, ...]) -> None:
        self.variant = VARIANT
        self.players = list(players)
        self.house_rules = rules
        self.phase = DRAW
        self.turn = 0
        self.current_player = players[0]
        self.first_player = players[0]
        self.continent_deck: list[str] = []
        self.tactics_deck: list[str] = []
        self.tables: dict[str, list[str]] = {p: [] for p in players}
        self.hands: dict[str, list[str]] = {p: [] for p in players}
        self.discard: list[str] = []
        self.surrendered: list[str] = []
        self.coins: dict[str, str | None] = dict.fromkeys(continents)
        self.battle: dict[str, Any] | None = None
        self.window: dict[str, Any] | None = None
        self.spied: dict[str, dict[str, Any]] = {}
        self.next_play = 1
        self.next_window = 1
        self.winner: str | None = None
        self.sitting_out: list[str] = []
        self.passing: dict[str, str] = {}

    # --- queries that read like the rule book -------------------------------------------
    def cards_of(self, player: str, continent: str) -> int:
        """How many continent cards of `continent` lie face up in front of `player`."""
        prefix = continent + "."
        return sum(1 for card in self.tables[player] if card.startswith(prefix))

    def passing_of(self, player: str) -> str:
        """`player`'s passing choice: the one they chose, else `DEFAULT_PASSING`."""
        return self.passing.get(player, DEFAULT_PASSING)

    def coins_of(self, player: str) -> list[str]:
        """The continents whose domination coin `player` holds."""
        return [c for c, holder in self.coins.items() if holder == player]

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
            "continent_deck": list(self.continent_deck),
            "tactics_deck": list(self.tactics_deck),
            "tables": {p: list(cards) for p, cards in self.tables.items()},
            "hands": {p: list(cards) for p, cards in self.hands.items()},
            "discard": list(self.discard),
            "surrendered": list(self.surrendered),
            "coins": dict(self.coins),
            "battle": copy.deepcopy(self.battle),
            "window": copy.deepcopy(self.window),
            "spied": copy.deepcopy(self.spied),
            "next_play": self.next_play,
            "next_window": self.next_window,
            "winner": self.winner,
            "sitting_out": list(self.sitting_out),
            "passing": dict(self.passing),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> StrikeState:
        """Rebuild a state from `to_dict()` output."""
        keys = ("variant", "players", "house_rules", "phase", "turn", "current_player",
                "first_player", "continent_deck", "tactics_deck", "tables", "hands", "discard",
                "surrendered", "coins", "battle", "window", "spied", "next_play", "next_window",
                "winner")
        for key in keys:
            if key not in data:
                raise ValueError(f"Strike state is missing {key!r}")
        if data["variant"] != VARIANT:
            raise ValueError(f"not a Strike state: variant {data['variant']!r}")
        state = cls.__new__(cls)
        state.variant = VARIANT
        state.players = list(data["players"])
        state.house_rules = StrikeRules.from_dict(data["house_rules"])
        state.phase = data["phase"]
        state.turn = int(data["turn"])
        state.current_player = data["current_player"]
        state.first_player = data["first_player"]
        state.continent_deck = list(data["continent_deck"])
        state.tactics_deck = list(data["tactics_deck"])
        state.tables = {p: list(cards) for p, cards in data["tables"].items()}
        state.hands = {p: list(cards) for p, cards in data["hands"].items()}
        state.discard = list(data["discard"])
        state.surrendered = list(data["surrendered"])
        state.coins = dict(data["coins"])
        state.battle = copy.deepcopy(data["battle"])
        state.window = copy.deepcopy(data["window"])
        state.spied = copy.deepcopy(data["spied"])
        state.next_play = int(data["next_play"])
        state.next_window = int(data["next_window"])
        state.winner = data["winner"]
        state.sitting_out = list(data.get("sitting_out", []))  # absent before Strike 3
        state.passing = dict(data.get("passing", {}))  # absent before the passing choice
        return state

    def copy(self) -> StrikeState:
        """An independent deep copy."""
        return StrikeState.from_dict(self.to_dict())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, StrikeState) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"StrikeState(phase={self.phase!r}, turn={self.turn}, "
                f"current_player={self.current_player!r})")
