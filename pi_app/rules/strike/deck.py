"""The RISK Strike cards as the engine sees them: 82 card ids, domination numbers, links.

Built once from `pi_app/data/strike.json` (via `load_strike()`). Every physical card has its
own id so that all 82 can be accounted for: continent cards are `"<continent>.<n>"`
(`"asia.1"` .. `"asia.12"`), tactics cards `"<kind>.<n>"` (`"troops.1"` .. `"troops.18"`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from types import MappingProxyType

from pi_app.rules.board import BoardDataError, load_map, load_strike

TROOPS = "troops"
SPY = "spy"
CANCEL = "cancel-orders"
RALLY = "rally"
ARTILLERY = "artillery"
SABOTAGE = "sabotage"
EXPAND = "expand"
BOMBARD = "bombard"
TACTIC_KINDS = (TROOPS, SPY, CANCEL, RALLY, ARTILLERY, SABOTAGE, EXPAND, BOMBARD)


@dataclass(frozen=True)
class StrikeDeck:
    """The edition's data: card ids per deck, domination numbers, continent links, coins to win."""

    continents: tuple[str, ...]
    continent_names: MappingProxyType[str, str]
    domination: MappingProxyType[str, int]
    links: MappingProxyType[str, frozenset[str]]
    continent_cards: tuple[str, ...]
    tactics_cards: tuple[str, ...]
    tactic_names: MappingProxyType[str, str]
    coins_to_win: int

    @property
    def all_cards(self) -> tuple[str, ...]:
        """All 82 card ids (continent cards, then tactics cards)."""
        return self.continent_cards + self.tactics_cards

    def may_attack(self, attack_continent: str, defence_continent: str) -> bool:
        """True if the two continents are the same or connected on the reference map."""
        return (attack_continent == defence_continent
                or defence_continent in self.links[attack_continent])


def kind_of(card: str) -> str:
    """The continent id of a continent card, or the tactic kind of a tactics card."""
    return card.rpartition(".")[0]


@cache
def load_strike_deck() -> StrikeDeck:
    """The Strike deck from `strike.json`, checked against the map's continents (cached)."""
    data = load_strike()
    board = load_map()
    continents = tuple(c["continent"] for c in data["continents"])
    if set(continents) != set(board.continents):
        raise BoardDataError("strike.json: continents differ from map.json's continents")
    links: dict[str, set[str]] = {c: set() for c in continents}
    for a, b in data["continent_links"]:
        if a not in links or b not in links:
            raise BoardDataError(f"strike.json: link {a!r}-{b!r} names an unknown continent")
        links[a].add(b)
        links[b].add(a)
    kinds = tuple(t["id"] for t in data["tactics"])
    if set(kinds) != set(TACTIC_KINDS):
        raise BoardDataError(f"strike.json: tactics kinds are {kinds}, expected {TACTIC_KINDS}")
    continent_cards = tuple(f"{c['continent']}.{n}" for c in data["continents"]
                            for n in range(1, int(c["cards"]) + 1))
    tactics_cards = tuple(f"{t['id']}.{n}" for t in data["tactics"]
                          for n in range(1, int(t["count"]) + 1))
    return StrikeDeck(
        continents=continents,
        continent_names=MappingProxyType(
            {c: board.continent_names[c] for c in continents}),
        domination=MappingProxyType({c["continent"]: int(c["domination"])
                                     for c in data["continents"]}),
        links=MappingProxyType({c: frozenset(v) for c, v in links.items()}),
        continent_cards=continent_cards,
        tactics_cards=tactics_cards,
        tactic_names=MappingProxyType({t["id"]: t["name"] for t in data["tactics"]}),
        coins_to_win=int(data["coins_to_win"]),
    )
