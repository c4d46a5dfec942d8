"""House rules: a typed, validated settings object with the defaults of docs/RULES.md.

Variant-specific options (missions, capitals, two-player placement, allied army) live here
too so that later variant work only adds behaviour, never new settings plumbing.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from pi_app.rules.errors import RuleError

_CHOICES: dict[str, tuple[str, ...]] = {
    "fortify": ("connected", "adjacent"),
    "setup": ("default", "claim", "deal"),
    "mission_deck": ("us12", "euro14"),
    "allied_initial": ("even", "free"),
}


@dataclass(frozen=True, slots=True)
class HouseRules:
    """Table options. Defaults follow docs/RULES.md; `setup="default"` means the variant's own.

    - physical_dice: players type real dice faces (the session supplies them; rules unchanged).
    - defender_chooses_dice: an Attack waits for the defender's ChooseDefence (Blitz always
      defends with the maximum).
    - fortify: "connected" (through own territories) or "adjacent" only.
    - territory_bonus_once_per_turn: the +2 pictured-territory bonus at most once per turn.
    - setup: "claim" | "deal" | "default" (classic: claim; secret mission: deal).
    - setup_armies_per_turn: starting armies a player places before the turn passes in the
      setup placing (1 = docs/RULES.md §2.2, one at a time; more for tables that want speed).
    - mission_deck, capital_short_game, two_player_placement, allied_initial: variant options.
    """

    physical_dice: bool = False
    defender_chooses_dice: bool = True
    fortify: str = "connected"
    territory_bonus_once_per_turn: bool = True
    setup: str = "default"
    mission_deck: str = "us12"
    capital_short_game: bool = False
    two_player_placement: tuple[int, int] = (2, 1)
    allied_initial: str = "even"
    setup_armies_per_turn: int = 1

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.type == "bool" and not isinstance(value, bool):
                raise RuleError("bad_house_rules",
                                f"house_rules.{f.name} must be true or false, got {value!r}")
            if f.name in _CHOICES and value not in _CHOICES[f.name]:
                allowed = ", ".join(_CHOICES[f.name])
                raise RuleError("bad_house_rules",
                                f"house_rules.{f.name} must be one of {allowed}, got {value!r}")
        per_turn = self.setup_armies_per_turn
        if not isinstance(per_turn, int) or isinstance(per_turn, bool) or not 1 <= per_turn <= 50:
            raise RuleError("bad_house_rules", "house_rules.setup_armies_per_turn must be a "
                            f"whole number from 1 to 50, got {per_turn!r}")
        placement = self.two_player_placement
        if (not isinstance(placement, tuple) or len(placement) != 2
                or not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0
                           for n in placement) or placement[0] < 1):
            raise RuleError("bad_house_rules",
                            "house_rules.two_player_placement must be two whole numbers "
                            f"[own >= 1, neutral >= 0], got {placement!r}")

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict of every option."""
        data = asdict(self)
        data["two_player_placement"] = list(self.two_player_placement)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> HouseRules:
        """Build from a (possibly partial) dict; unknown keys or bad values raise RuleError."""
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise RuleError("bad_house_rules", "house rules must be an object of options")
        known = {f.name for f in fields(cls)}
        for key in data:
            if key not in known:
                raise RuleError("bad_house_rules", f"unknown house rule {key!r}")
        values = dict(data)
        if "two_player_placement" in values and isinstance(values["two_player_placement"], list):
            values["two_player_placement"] = tuple(values["two_player_placement"])
        return cls(**values)
