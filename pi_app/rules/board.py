"""The map, the RISK deck and the player colours, loaded from `pi_app/data/*.json` and validated.

`load_map()` checks: 42 territories with unique ids, every territory in exactly one
continent, symmetric adjacency naming only known territories, one connected graph.
`load_cards(board)` checks: one card per territory, 14 of each symbol, 2 wilds.
A broken file raises `BoardDataError` whose message names the problem.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import Any

TERRITORY_COUNT = 42
CARDS_PER_SYMBOL = 14
WILD_COUNT = 2


class BoardDataError(ValueError):
    """A data file of the map, deck or missions is broken; the message names the problem."""


@dataclass(frozen=True)
class Board:
    """The immutable map: territory ids in data order, names, continents, bonuses, adjacency."""

    name: str
    territories: tuple[str, ...]
    names: MappingProxyType[str, str]
    continents: tuple[str, ...]
    continent_names: MappingProxyType[str, str]
    bonuses: MappingProxyType[str, int]
    continent_of: MappingProxyType[str, str]
    members: MappingProxyType[str, frozenset[str]]
    adjacency: MappingProxyType[str, frozenset[str]]
    neighbours: MappingProxyType[str, tuple[str, ...]]

    def are_adjacent(self, a: str, b: str) -> bool:
        """True if `a` and `b` share a border or a sea lane."""
        return b in self.adjacency[a]


@dataclass(frozen=True)
class Deck:
    """The RISK deck edition: card id -> symbol ('wild' for wilds) and trade values."""

    symbols: MappingProxyType[str, str]
    territory_cards: tuple[str, ...]
    wilds: tuple[str, ...]
    trade_values: tuple[int, ...]
    trade_increment: int
    territory_bonus: int

    @property
    def all_cards(self) -> tuple[str, ...]:
        """Every card id of the deck (territory cards then wilds)."""
        return self.territory_cards + self.wilds

    def trade_value(self, trade_count: int) -> int:
        """Armies for the set traded when `trade_count` sets were already traded at the table."""
        values = self.trade_values
        if trade_count < len(values):
            return values[trade_count]
        return values[-1] + self.trade_increment * (trade_count - len(values) + 1)


@dataclass(frozen=True)
class Roster:
    """The colours players may use, in canonical order, and starting armies per player count."""

    colours: tuple[str, ...]
    colour_names: MappingProxyType[str, str]
    starting_armies: MappingProxyType[int, int]
    min_players: int
    max_players: int


def _read(name: str) -> Any:
    try:
        text = resources.files("pi_app.data").joinpath(name).read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise BoardDataError(f"data file pi_app/data/{name} is missing") from exc
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise BoardDataError(f"data file pi_app/data/{name} is not valid JSON: {exc}") from exc


def _need(data: Any, key: str, kind: type, where: str) -> Any:
    if not isinstance(data, dict) or key not in data:
        raise BoardDataError(f"{where}: missing key {key!r}")
    value = data[key]
    if not isinstance(value, kind):
        raise BoardDataError(f"{where}: {key!r} must be a {kind.__name__}")
    return value


def validate_map(data: Any) -> Board:
    """Build a `Board` from map JSON data, raising `BoardDataError` naming the first problem."""
    where = "map.json"
    raw_territories = _need(data, "territories", list, where)
    raw_continents = _need(data, "continents", list, where)
    raw_adjacency = _need(data, "adjacency", dict, where)
    ids: list[str] = []
    names: dict[str, str] = {}
    for item in raw_territories:
        tid = _need(item, "id", str, f"{where} territory")
        if tid in names:
            raise BoardDataError(f"{where}: territory {tid!r} is listed twice")
        ids.append(tid)
        names[tid] = _need(item, "name", str, f"{where} territory {tid!r}")
    if len(ids) != TERRITORY_COUNT:
        raise BoardDataError(f"{where}: expected {TERRITORY_COUNT} territories, found {len(ids)}")
    continent_of: dict[str, str] = {}
    continents: list[str] = []
    continent_names: dict[str, str] = {}
    bonuses: dict[str, int] = {}
    members: dict[str, frozenset[str]] = {}
    for item in raw_continents:
        cid = _need(item, "id", str, f"{where} continent")
        if cid in bonuses:
            raise BoardDataError(f"{where}: continent {cid!r} is listed twice")
        bonus = _need(item, "bonus", int, f"{where} continent {cid!r}")
        if bonus < 0:
            raise BoardDataError(f"{where}: continent {cid!r} has a negative bonus")
        continents.append(cid)
        continent_names[cid] = _need(item, "name", str, f"{where} continent {cid!r}")
        bonuses[cid] = bonus
        listed = _need(item, "territories", list, f"{where} continent {cid!r}")
        for tid in listed:
            if tid not in names:
                raise BoardDataError(f"{where}: continent {cid!r} lists unknown territory {tid!r}")
            if tid in continent_of:
                raise BoardDataError(
                    f"{where}: territory {tid!r} is in two continents "
                    f"({continent_of[tid]!r} and {cid!r})")
            continent_of[tid] = cid
        members[cid] = frozenset(listed)
    for tid in ids:
        if tid not in continent_of:
            raise BoardDataError(f"{where}: territory {tid!r} is in no continent")
        declared = next((t.get("continent") for t in raw_territories if t["id"] == tid), None)
        if declared is not None and declared != continent_of[tid]:
            raise BoardDataError(
                f"{where}: territory {tid!r} says continent {declared!r} but is listed "
                f"under {continent_of[tid]!r}")
    adjacency: dict[str, frozenset[str]] = {}
    for tid, neighbours in raw_adjacency.items():
        if tid not in names:
            raise BoardDataError(f"{where}: adjacency names unknown territory {tid!r}")
        if not isinstance(neighbours, list):
            raise BoardDataError(f"{where}: adjacency of {tid!r} must be a list")
        for other in neighbours:
            if other not in names:
                raise BoardDataError(
                    f"{where}: adjacency of {tid!r} names unknown territory {other!r}")
            if other == tid:
                raise BoardDataError(f"{where}: territory {tid!r} is adjacent to itself")
        adjacency[tid] = frozenset(neighbours)
    for tid in ids:
        if tid not in adjacency:
            raise BoardDataError(f"{where}: territory {tid!r} has no adjacency entry")
    for tid, neighbours in adjacency.items():
        for other in neighbours:
            if tid not in adjacency[other]:
                raise BoardDataError(
                    f"{where}: adjacency is not symmetric: {tid!r} lists {other!r} "
                    f"but {other!r} does not list {tid!r}")
    seen = {ids[0]}
    frontier = [ids[0]]
    while frontier:
        for other in adjacency[frontier.pop()]:
            if other not in seen:
                seen.add(other)
                frontier.append(other)
    if len(seen) != len(ids):
        cut_off = sorted(set(ids) - seen)
        raise BoardDataError(
            f"{where}: the map is not one connected graph; unreachable from {ids[0]!r}: "
            + ", ".join(cut_off))
    order = {tid: i for i, tid in enumerate(ids)}
    return Board(
        name=str(data.get("name", "map")),
        territories=tuple(ids),
        names=MappingProxyType(names),
        continents=tuple(continents),
        continent_names=MappingProxyType(continent_names),
        bonuses=MappingProxyType(bonuses),
        continent_of=MappingProxyType(continent_of),
        members=MappingProxyType(members),
        adjacency=MappingProxyType(adjacency),
        neighbours=MappingProxyType(
            {t: tuple(sorted(adjacency[t], key=order.__getitem__)) for t in ids}),
    )


def validate_cards(data: Any, board: Board) -> Deck:
    """Build a `Deck` from cards JSON data: one card per territory, 14 per symbol, 2 wilds."""
    where = "cards.json"
    symbols_allowed = _need(data, "symbols", list, where)
    mapping = _need(data, "territory_cards", dict, where)
    wilds = _need(data, "wilds", list, where)
    for tid in mapping:
        if tid not in board.names:
            raise BoardDataError(f"{where}: card for unknown territory {tid!r}")
    missing = [t for t in board.territories if t not in mapping]
    if missing:
        raise BoardDataError(f"{where}: no card for territory {missing[0]!r}")
    counts = {s: 0 for s in symbols_allowed}
    for tid, symbol in mapping.items():
        if symbol not in counts:
            raise BoardDataError(f"{where}: card {tid!r} has unknown symbol {symbol!r}")
        counts[symbol] += 1
    if len(counts) != 3:
        raise BoardDataError(f"{where}: expected 3 symbols, found {len(counts)}")
    for symbol, count in counts.items():
        if count != CARDS_PER_SYMBOL:
            raise BoardDataError(
                f"{where}: expected {CARDS_PER_SYMBOL} {symbol} cards, found {count}")
    if len(wilds) != WILD_COUNT or len(set(wilds)) != WILD_COUNT:
        raise BoardDataError(f"{where}: expected {WILD_COUNT} distinct wild cards, found {wilds}")
    for wild in wilds:
        if wild in board.names:
            raise BoardDataError(f"{where}: wild card id {wild!r} clashes with a territory")
    values = _need(data, "trade_values", list, where)
    if not values or any(not isinstance(v, int) or v < 1 for v in values):
        raise BoardDataError(f"{where}: trade_values must be positive integers")
    symbols = {t: mapping[t] for t in board.territories}
    symbols.update({w: "wild" for w in wilds})
    return Deck(
        symbols=MappingProxyType(symbols),
        territory_cards=board.territories,
        wilds=tuple(wilds),
        trade_values=tuple(values),
        trade_increment=int(_need(data, "trade_increment_after", int, where)),
        territory_bonus=int(_need(data, "territory_bonus", int, where)),
    )


def validate_roster(data: Any) -> Roster:
    """Build the `Roster` (colours, starting armies) from players JSON data."""
    where = "players.json"
    colours = _need(data, "colours", list, where)
    if len(set(colours)) != len(colours) or not all(isinstance(c, str) for c in colours):
        raise BoardDataError(f"{where}: colours must be distinct strings")
    names = _need(data, "colour_names", dict, where)
    starting = {int(k): int(v) for k, v in _need(data, "starting_armies", dict, where).items()}
    return Roster(
        colours=tuple(colours),
        colour_names=MappingProxyType({c: str(names.get(c, c)) for c in colours}),
        starting_armies=MappingProxyType(starting),
        min_players=int(_need(data, "min_players", int, where)),
        max_players=int(_need(data, "max_players", int, where)),
    )


@cache
def load_map() -> Board:
    """The classic 42-territory map from `pi_app/data/map.json`, validated (cached)."""
    return validate_map(_read("map.json"))


@cache
def load_cards() -> Deck:
    """The RISK deck from `pi_app/data/cards.json`, validated against the map (cached)."""
    return validate_cards(_read("cards.json"), load_map())


@cache
def load_roster() -> Roster:
    """The player colours and starting armies from `pi_app/data/players.json` (cached)."""
    return validate_roster(_read("players.json"))


@cache
def load_missions() -> dict[str, Any]:
    """The secret mission decks (`us12`, `euro14`) as plain data, checked for shape."""
    data = _read("missions.json")
    decks = _need(data, "decks", dict, "missions.json")
    board = load_map()
    for name, deck in decks.items():
        for card in _need(deck, "cards", list, f"missions.json deck {name!r}"):
            for cid in card.get("continents", []):
                if cid not in board.bonuses:
                    raise BoardDataError(
                        f"missions.json deck {name!r}: card {card.get('id')!r} names "
                        f"unknown continent {cid!r}")
    return data


@cache
def load_strike() -> dict[str, Any]:
    """The RISK Strike deck (continent cards, tactics, domination numbers) as plain data."""
    data = _read("strike.json")
    total = sum(int(c["cards"]) for c in _need(data, "continents", list, "strike.json"))
    if total != data.get("continent_card_total"):
        raise BoardDataError(f"strike.json: continent cards add up to {total}, not 42")
    tactics = sum(int(t["count"]) for t in _need(data, "tactics", list, "strike.json"))
    if tactics != data.get("tactics_card_total"):
        raise BoardDataError(f"strike.json: tactics cards add up to {tactics}, not 40")
    return data
