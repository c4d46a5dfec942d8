"""The map, the RISK deck and the player colours, loaded from `pi_app/data/*.json` and validated.

`load_map()` checks: 42 territories with unique ids, every territory in exactly one
continent, symmetric adjacency naming only known territories, one connected graph.
`load_cards(board)` checks: one card per territory, 14 of each symbol, 2 wilds.
A broken file raises `BoardDataError` whose message names the file, the key and the
problem; every value is type-checked (a boolean is never accepted as a number, ids are
strings, no duplicates), so a bad file never surfaces as a bare TypeError or ValueError.
Files are read with `importlib.resources` only (the rules' one allowed read).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import Any, cast

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


_KIND_NAMES = {str: "a string", int: "an integer", list: "a list", dict: "an object"}


def _fits(value: Any, kind: type) -> bool:
    """isinstance, except that a boolean is not an integer here."""
    return isinstance(value, kind) and not (kind is int and isinstance(value, bool))


def _need(data: Any, key: str, kind: type, where: str) -> Any:
    if not isinstance(data, dict) or key not in data:
        raise BoardDataError(f"{where}: missing key {key!r}")
    value = data[key]
    if not _fits(value, kind):
        raise BoardDataError(f"{where}: {key!r} must be {_KIND_NAMES.get(kind, kind.__name__)}"
                             f", got {json.dumps(value)}")
    return value


def _count(data: Any, key: str, where: str, low: int = 0) -> int:
    """An integer value (never a boolean) of at least `low`."""
    value = _need(data, key, int, where)
    if value < low:
        raise BoardDataError(f"{where}: {key!r} must be at least {low}, got {value}")
    return int(value)


def _ids(values: list[Any], where: str, what: str) -> list[str]:
    """A list of distinct string ids; names the first non-string or duplicate."""
    seen: set[str] = set()
    for value in values:
        if not isinstance(value, str):
            raise BoardDataError(f"{where}: {what} must be strings, got {json.dumps(value)}")
        if value in seen:
            raise BoardDataError(f"{where}: {what} lists {value!r} twice")
        seen.add(value)
    return list(values)


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
        bonus = _count(item, "bonus", f"{where} continent {cid!r}")
        continents.append(cid)
        continent_names[cid] = _need(item, "name", str, f"{where} continent {cid!r}")
        bonuses[cid] = bonus
        listed = _ids(_need(item, "territories", list, f"{where} continent {cid!r}"),
                      where, f"continent {cid!r} territories")
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
        if declared is not None and not isinstance(declared, str):
            raise BoardDataError(f"{where}: territory {tid!r} 'continent' must be a string, "
                                 f"got {json.dumps(declared)}")
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
        _ids(neighbours, where, f"adjacency of {tid!r}")
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
    symbols_allowed = _ids(_need(data, "symbols", list, where), where, "'symbols'")
    mapping = _need(data, "territory_cards", dict, where)
    wilds = _need(data, "wilds", list, where)
    if any(not isinstance(w, str) for w in wilds):
        raise BoardDataError(f"{where}: 'wilds' must be string ids, got {json.dumps(wilds)}")
    for tid in mapping:
        if tid not in board.names:
            raise BoardDataError(f"{where}: card for unknown territory {tid!r}")
    missing = [t for t in board.territories if t not in mapping]
    if missing:
        raise BoardDataError(f"{where}: no card for territory {missing[0]!r}")
    counts = {s: 0 for s in symbols_allowed}
    for tid, symbol in mapping.items():
        if not isinstance(symbol, str):
            raise BoardDataError(f"{where}: card {tid!r} symbol must be a string, "
                                 f"got {json.dumps(symbol)}")
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
    if not values or any(not _fits(v, int) or v < 1 for v in values):
        raise BoardDataError(f"{where}: 'trade_values' must be positive integers, "
                             f"got {json.dumps(values)}")
    symbols = {t: mapping[t] for t in board.territories}
    symbols.update({w: "wild" for w in wilds})
    return Deck(
        symbols=MappingProxyType(symbols),
        territory_cards=board.territories,
        wilds=tuple(wilds),
        trade_values=tuple(values),
        trade_increment=_count(data, "trade_increment_after", where),
        territory_bonus=_count(data, "territory_bonus", where),
    )


def validate_roster(data: Any) -> Roster:
    """Build the `Roster` (colours, starting armies) from players JSON data."""
    where = "players.json"
    colours = _ids(_need(data, "colours", list, where), where, "'colours'")
    names = _need(data, "colour_names", dict, where)
    for colour, name in names.items():
        if not isinstance(name, str):
            raise BoardDataError(f"{where}: colour_names {colour!r} must be a string, "
                                 f"got {json.dumps(name)}")
    starting: dict[int, int] = {}
    for key in _need(data, "starting_armies", dict, where):
        if not key.isdigit():
            raise BoardDataError(f"{where}: starting_armies keys are player counts (whole "
                                 f"numbers), got {key!r}")
        starting[int(key)] = _count(data["starting_armies"], key, f"{where} starting_armies",
                                    1)
    return Roster(
        colours=tuple(colours),
        colour_names=MappingProxyType({c: names.get(c, c) for c in colours}),
        starting_armies=MappingProxyType(starting),
        min_players=_count(data, "min_players", where, 1),
        max_players=_count(data, "max_players", where, 1),
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
    return validate_missions(_read("missions.json"))


def validate_missions(data: Any) -> dict[str, Any]:
    """Check missions JSON data's shape and continent ids; return it unchanged."""
    decks = _need(data, "decks", dict, "missions.json")
    board = load_map()
    for name, deck in decks.items():
        for card in _need(deck, "cards", list, f"missions.json deck {name!r}"):
            if not isinstance(card, dict):
                raise BoardDataError(f"missions.json deck {name!r}: a card must be an object, "
                                     f"got {json.dumps(card)}")
            _need(card, "id", str, f"missions.json deck {name!r} card")
            continents = card.get("continents", [])
            if not isinstance(continents, list):
                raise BoardDataError(f"missions.json deck {name!r}: card {card['id']!r} "
                                     "'continents' must be a list")
            for cid in _ids(continents, f"missions.json deck {name!r}",
                            f"card {card['id']!r} continents"):
                if cid not in board.bonuses:
                    raise BoardDataError(
                        f"missions.json deck {name!r}: card {card.get('id')!r} names "
                        f"unknown continent {cid!r}")
    return cast("dict[str, Any]", data)  # an object: _need found its "decks" key


@cache
def load_strike() -> dict[str, Any]:
    """The RISK Strike deck (continent cards, tactics, domination numbers) as plain data."""
    return validate_strike(_read("strike.json"))


def validate_strike(data: Any) -> dict[str, Any]:
    """Check the Strike data's card counts (integers, adding up); return it unchanged."""
    where = "strike.json"
    total = sum(_count(c, "cards", f"{where} continents", 1)
                for c in _need(data, "continents", list, where))
    if total != _count(data, "continent_card_total", where):
        raise BoardDataError(f"{where}: continent cards add up to {total}, not "
                             f"{data['continent_card_total']}")
    tactics = sum(_count(t, "count", f"{where} tactics", 1)
                  for t in _need(data, "tactics", list, where))
    if tactics != _count(data, "tactics_card_total", where):
        raise BoardDataError(f"{where}: tactics cards add up to {tactics}, not "
                             f"{data['tactics_card_total']}")
    return cast("dict[str, Any]", data)  # an object: _need found its keys
