"""What the host may choose for a new game, per variant, and its server-side check.

`VARIANTS` lists every variant the table plays with its player counts and the house rules
that apply to it; the host page builds its form from `variant_catalogue()` (served at
`GET /api/variants`), and `check_new_game(body)` checks a request against the same data,
naming every bad field (`NewGameInvalid.problems`: a stable code, its parameters and an
English sentence), before the table sees it. The host page words each problem by its code
in the page's language (`problem.<code>` in pi_app/web/i18n); the English sentence stays in
the answer for API users and the CLI. The rules engine checks again (`HouseRules`,
`StrikeRules`); this layer exists so the host gets one sentence per field instead of the
first error only.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from pi_app.rules.variants import game_info

COLOURS = ("red", "blue", "green", "yellow", "black", "pink")


@dataclass(frozen=True)
class Problem:
    """What is wrong with one field of a new-game request: a stable `code` (the host page's
    `problem.<code>` words), the `params` those words are filled from, and the English
    `sentence` (the API's `message`)."""

    code: str
    params: dict[str, Any]
    sentence: str

    def to_dict(self) -> dict[str, Any]:
        """JSON form: `{"code": ..., "params": {...}}` (the sentence goes in `fields`)."""
        return {"code": self.code, "params": self.params}


@dataclass(frozen=True)
class RuleField:
    """One house-rule input: `kind` is "bool", "choice", "int" or "pair" (two whole numbers)."""

    name: str
    kind: str
    default: Any
    label: str
    choices: tuple[str, ...] = ()
    low: int = 0
    high: int = 0
    parts: tuple[str, ...] = ()

    def check(self, value: Any) -> Problem | None:
        """None when `value` is acceptable, else what is wrong (`rule_bool`, `rule_choice`,
        `rule_int` or `rule_pair`, with the rule's name, limits and the value given)."""
        params: dict[str, Any] = {"rule": self.name, "given": _shown(value)}
        if self.kind == "bool":
            ok, want = isinstance(value, bool), "true or false"
        elif self.kind == "choice":
            ok, want = value in self.choices, f"one of {', '.join(self.choices)}"
            params["choices"] = list(self.choices)
        elif self.kind == "int":
            ok = _whole(value) and self.low <= value <= self.high
            want = f"a whole number from {self.low} to {self.high}"
            params.update(low=self.low, high=self.high)
        else:
            ok = (isinstance(value, list) and len(value) == 2 and all(map(_whole, value))
                  and 1 <= value[0] <= self.high and self.low <= value[1] <= self.high)
            want = (f"two whole numbers: {self.parts[0]} from 1 to {self.high} and "
                    f"{self.parts[1]} from {self.low} to {self.high}")
            params.update(first=self.parts[0], second=self.parts[1], low=self.low,
                          high=self.high)
        if ok:
            return None
        return Problem(f"rule_{self.kind}", params, f"{self.label} must be {want}, not {value!r}.")

    def to_dict(self) -> dict[str, Any]:
        """JSON form for the host page's form builder."""
        out: dict[str, Any] = {"name": self.name, "kind": self.kind, "default": self.default,
                               "label": self.label}
        if self.choices:
            out["choices"] = list(self.choices)
        if self.kind in ("int", "pair"):
            out.update(low=self.low, high=self.high)
        if self.parts:
            out["parts"] = list(self.parts)
        return out


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _shown(value: Any) -> str:
    """A value as the host typed it, short enough for a sentence (JSON, at most 40 chars)."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 40 else text[:39] + "…"


PHYSICAL = RuleField("physical_dice", "bool", False, "Physical dice (type the faces in)")
DEFENDER = RuleField("defender_chooses_dice", "bool", True,
                     "Defender chooses the number of dice")
FORTIFY = RuleField("fortify", "choice", "connected", "Fortify",
                    choices=("connected", "adjacent"))
BONUS_ONCE = RuleField("territory_bonus_once_per_turn", "bool", True,
                       "Territory card bonus at most once per turn")
SETUP = RuleField("setup", "choice", "default", "Setup", choices=("default", "claim", "deal"))
MISSION_DECK = RuleField("mission_deck", "choice", "us12", "Mission deck",
                         choices=("us12", "euro14"))
SHORT_GAME = RuleField("capital_short_game", "bool", False,
                       "Short game (own HQ plus 2 enemy HQs with 4 players, 3 with 5 or 6)")
PLACEMENT = RuleField("two_player_placement", "pair", [2, 1],
                      "Armies per placing turn", low=0, high=10, parts=("own", "neutral"))
ALLIED_INITIAL = RuleField("allied_initial", "choice", "even", "Allied Army's first armies",
                           choices=("even", "free"))
SETUP_SPEED = RuleField("setup_armies_per_turn", "int", 1,
                        "Starting armies per setup turn (1 = one at a time, the rule book)",
                        low=1, high=50)
REACTION = RuleField("reaction_seconds", "int", 20,
                     "Reaction window (seconds, 0 = wait for everyone)", low=0, high=600)

_BOARD = (PHYSICAL, DEFENDER, FORTIFY, BONUS_ONCE)


@dataclass(frozen=True)
class VariantSpec:
    """A variant: its id, a name for people, and its house rules; how many players it takes
    comes from the rules' one list of games (`pi_app.rules.GAMES`)."""

    id: str
    name: str
    rules: tuple[RuleField, ...]

    @property
    def players(self) -> tuple[int, int]:
        """(fewest, most) players: the game's `player_limits`."""
        return game_info(self.id).player_limits

    def to_dict(self) -> dict[str, Any]:
        """JSON form for the host page."""
        return {"id": self.id, "name": self.name, "min_players": self.players[0],
                "max_players": self.players[1], "house_rules": [f.to_dict() for f in self.rules]}


# The host's words for each game of `GAMES`, in its order (tests/web/test_new_game_variants.py
# holds the two lists together).
VARIANTS: dict[str, VariantSpec] = {v.id: v for v in (
    VariantSpec("classic", "Classic RISK", (*_BOARD, SETUP, SETUP_SPEED)),
    VariantSpec("mission", "Secret Mission RISK",
                (*_BOARD, SETUP, SETUP_SPEED, MISSION_DECK)),
    VariantSpec("capital", "Capital RISK", (*_BOARD, SETUP, SETUP_SPEED, SHORT_GAME)),
    VariantSpec("two-player", "Two players with a neutral army", (*_BOARD, PLACEMENT)),
    VariantSpec("allied", "Two players with the Allied Army", (*_BOARD, ALLIED_INITIAL)),
    VariantSpec("strike", "RISK Strike (cards and dice)", (PHYSICAL, REACTION)),
)}


class NewGameInvalid(Exception):
    """A new-game request the host must fix: one `Problem` per bad field in `problems`
    (`fields` holds their English sentences)."""

    def __init__(self, problems: dict[str, Problem]) -> None:
        super().__init__(" ".join(p.sentence for p in problems.values()))
        self.problems = problems
        self.fields = {name: p.sentence for name, p in problems.items()}

    @property
    def code(self) -> str:
        """`bad_variant`, `bad_players` or `bad_house_rules`; `bad_new_game` for a mix."""
        groups = {name.split(".")[0] for name in self.fields}
        return f"bad_{groups.pop()}" if len(groups) == 1 else "bad_new_game"


def variant_catalogue() -> dict[str, Any]:
    """Every variant with its player counts and house-rule inputs, plus the colours."""
    return {"colours": list(COLOURS), "variants": [v.to_dict() for v in VARIANTS.values()]}


def check_new_game(body: dict[str, Any]) -> tuple[str, list[str], dict[str, Any]]:
    """(variant, players, house_rules) of a valid request; else raise `NewGameInvalid`.

    House rules left out take the variant's defaults in the engine, so only given ones are
    returned; a rule that does not belong to the variant is an error, not silently dropped.
    `faces` (typed setup dice of a physical-dice game) is checked by `check_faces`.
    """
    errors: dict[str, Problem] = {}
    variant = body.get("variant")
    spec = VARIANTS.get(variant) if isinstance(variant, str) else None
    if spec is None:
        errors["variant"] = Problem(
            "variant_unknown", {"given": _shown(variant), "choices": list(VARIANTS)},
            f"Variant must be one of {', '.join(VARIANTS)}, not {variant!r}.")
    players = body.get("players")
    if (not isinstance(players, list) or any(p not in COLOURS for p in players)
            or len(set(players)) != len(players)):
        errors["players"] = Problem(
            "players_colours", {"choices": list(COLOURS)},
            f"Players must be different colours among {', '.join(COLOURS)}.")
    elif spec is not None and not spec.players[0] <= len(players) <= spec.players[1]:
        low, high = spec.players
        wanted = f"exactly {low}" if low == high else f"{low} to {high}"
        errors["players"] = Problem(
            "players_exactly" if low == high else "players_between",
            {"variant": spec.id, "min": low, "max": high, "chosen": len(players)},
            f"{spec.name} is for {wanted} players; "
            f"{len(players)} {'was' if len(players) == 1 else 'were'} chosen.")
    house_rules = body.get("house_rules", {})
    given: dict[str, Any] = {}
    if not isinstance(house_rules, dict):
        errors["house_rules"] = Problem("house_rules_not_object", {},
                                        "House rules must be an object of named options.")
    elif spec is not None:
        fields = {f.name: f for f in spec.rules}
        for name, value in house_rules.items():
            field = fields.get(name)
            if field is None:
                errors[f"house_rules.{name}"] = Problem(
                    "rule_unknown", {"rule": str(name)[:40], "variant": spec.id},
                    f"{name!r} is not a house rule of {spec.name}.")
                continue
            problem = field.check(value)
            if problem:
                errors[f"house_rules.{name}"] = problem
            else:
                given[name] = value
    if "faces" in body:
        problem = check_faces(body["faces"], bool(given.get("physical_dice")))
        if problem:
            errors["faces"] = problem
    if errors:
        raise NewGameInvalid(errors)
    assert isinstance(variant, str) and isinstance(players, list)
    return variant, players, given


MAX_FACES = 60


def check_faces(faces: Any, physical: bool) -> Problem | None:
    """None when `faces` are typed dice a physical-dice game can use, else what is wrong
    (`faces_not_physical`, or `faces_bad` with the most faces one may type)."""
    if not physical:
        return Problem("faces_not_physical", {},
                       "Typed dice are only for a game with physical dice.")
    if (not isinstance(faces, list) or len(faces) > MAX_FACES
            or not all(_whole(f) and 1 <= f <= 6 for f in faces)):
        return Problem("faces_bad", {"max": MAX_FACES}, f"Typed dice must be up to "
                       f"{MAX_FACES} faces, each a whole number from 1 to 6.")
    return None
