"""The JSON API under /api/: state, commands, odds, dice, health, the virtual board.

Every answer about the game comes from the TableService, already redacted for the viewer;
the web never edits state itself, it forwards commands to the table queue.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any

from flask import Blueprint, jsonify, request

from pi_app.rules import load_cards, load_map
from pi_app.rules.odds import MAX_ARMIES
from pi_app.table_api import Viewer
from pi_app.version import installed_version
from pi_app.web.context import (
    PIN_HEADER,
    TOKEN_HEADER,
    ctx,
    json_object,
    limit,
    require_host,
    seat_player,
    viewer_for,
)
from pi_app.web.dice_stats import dice_statistics
from pi_app.web.errors import ApiError
from pi_app.web.own_addresses import from_this_machine
from pi_app.web.seats import HOST_TICKET
from pi_app.web.variants import variant_catalogue
from pi_app.web.virtual_frames import frame_after, frame_stream

api = Blueprint("api", __name__, url_prefix="/api")

_TERRITORY_MAX = 64


@lru_cache(maxsize=1)
def board_map() -> dict[str, Any]:
    """The map drawn by the pages: the rules' territories, continents and adjacency, with
    the web's screen positions (`static/map_layout.json`) and the cards' symbols."""
    text = resources.files("pi_app.web").joinpath("static/map_layout.json").read_text("utf-8")
    positions = json.loads(text)["positions"]
    board = load_map()
    edges = sorted({tuple(sorted((a, b))) for a in board.territories
                    for b in board.neighbours[a]})
    return {
        "continents": [
            {"id": c, "name": board.continent_names[c], "bonus": board.bonuses[c],
             # in the map's order: members are a set, whose order changes with each start
             "territories": [t for t in board.territories if t in board.members[c]]}
            for c in board.continents
        ],
        "territories": [
            {"id": t, "name": board.names[t], "continent": board.continent_of[t], **positions[t]}
            for t in board.territories
        ],
        "edges": [list(e) for e in edges],
        "card_symbols": dict(load_cards().symbols),
        "strike": strike_cards(),
    }


def strike_cards() -> dict[str, Any]:
    """What RISK Strike pages need to label cards: each continent's domination number and
    linked continents, the tactics cards' names, and how many coins win."""
    from pi_app.rules.strike import load_strike_deck

    deck = load_strike_deck()
    return {
        "domination": dict(deck.domination),
        "links": {c: sorted(deck.links[c]) for c in deck.continents},
        "tactic_names": dict(deck.tactic_names),
        "coins_to_win": deck.coins_to_win,
    }


def check_game(game: Any) -> None:
    """Refuse a request naming a game that is not the table's current one."""
    if game is None:
        return
    current = ctx().table.status().get("game_id")
    if str(game) != str(current):
        raise ApiError(404, "unknown_game", f"There is no game {game!r} at this table.")


@api.get("/map")
def get_map():
    """The board layout (public, static)."""
    response = jsonify(board_map())
    response.headers["Cache-Control"] = "public, max-age=3600"
    return response


@api.get("/variants")
def get_variants():
    """The variants the host may start, their player counts and house-rule inputs."""
    return jsonify(variant_catalogue())


@api.get("/state")
def get_state():
    """A full snapshot for the viewer: a player with a token, else a spectator.

    With a seat token it is rate limited per address, as /api/me is (a token checked is a
    token checked, whichever door it comes by), in a bucket of its own: a seat's page reads
    its snapshot on load and at every update of a trade offer, and must not spend the
    budget its stream tickets need. The public snapshot is not limited."""
    c = ctx()
    if request.headers.get(TOKEN_HEADER):
        limit(c.seat_state_limit)
    check_game(request.args.get("game"))
    player = seat_player(required=False)
    view = c.table.view(viewer_for(player))
    return jsonify({"viewer": {"player": player}, "state": view})


@api.get("/me")
def get_me():
    """Which seat this token belongs to (the phone checks its token on load)."""
    limit(ctx().join_limit)
    player = seat_player(required=True)
    return jsonify({"player": player})


@api.post("/command")
def post_command():
    """Send a command for the token's player to the table queue; 200 with its seq or 4xx."""
    c = ctx()
    limit(c.command_limit)
    player = seat_player(required=True)
    body = json_object({"command", "game"}, {"command"})
    check_game(body.get("game"))
    command = body["command"]
    if not isinstance(command, dict) or not isinstance(command.get("type"), str):
        raise ApiError(400, "bad_command", "The command must be an object with a \"type\".")
    if command.get("player", player) != player:
        raise ApiError(403, "not_your_seat", "You can only act for your own seat.")
    command = {**command, "player": player}
    accepted = c.table.submit(command, viewer_for(player))
    return jsonify({"seq": accepted.seq, "events": accepted.events})


@api.post("/stream-ticket")
def post_stream_ticket():
    """A single-use ticket (30 s) that opens this player's private event stream, or with
    the host PIN the host's stream (public view; like a seat's, always admitted)."""
    c = ctx()
    limit(c.join_limit)
    if request.headers.get(PIN_HEADER):
        require_host()
        return jsonify({"ticket": c.tickets.issue(HOST_TICKET), "expires_in": 30})
    seat_player(required=True)
    return jsonify({"ticket": c.tickets.issue(request.headers[TOKEN_HEADER]),
                    "expires_in": 30})


def _territory_arg(name: str) -> str:
    value = request.args.get(name, "")
    if not value or len(value) > _TERRITORY_MAX:
        raise ApiError(400, "bad_territory", f"Give the {name} territory id as ?{name}=...")
    return value


@api.get("/odds")
def get_odds():
    """Exact odds of the attack set up from ?source= to ?target= (the rules' odds).

    Rate limited; answers are cached per (territories, armies), and armies beyond the odds
    command's cap (MAX_ARMIES) are refused, since the cost grows with their product."""
    c = ctx()
    limit(c.read_limit)
    source, target = _territory_arg("source"), _territory_arg("target")
    ids = {t["id"] for t in board_map()["territories"]}
    for tid in (source, target):
        if tid not in ids:
            raise ApiError(400, "unknown_territory", f"There is no territory {tid!r}.")
    armies = c.table.view(Viewer("spectator")).get("armies") or {}
    attackers, defenders = armies.get(source), armies.get(target)
    if not isinstance(attackers, int) or not isinstance(defenders, int):
        return jsonify(c.table.odds(source, target))  # no map battle: the table says why
    if max(attackers, defenders) > MAX_ARMIES:
        raise ApiError(400, "too_many_armies", f"Odds are worked out for up to {MAX_ARMIES} "
                       "armies on each side; this attack has more.")
    try:
        return jsonify(_cached_odds(c.table, source, target, attackers, defenders))
    except _ArmiesMoved as moved:
        return jsonify(moved.odds)


class _ArmiesMoved(Exception):
    """The armies changed between the view and the table's answer: not to be cached."""

    def __init__(self, odds: dict[str, Any]) -> None:
        super().__init__("armies moved")
        self.odds = odds


@lru_cache(maxsize=512)
def _cached_odds(table: Any, source: str, target: str, attackers: int,
                 defenders: int) -> dict[str, Any]:
    odds = table.odds(source, target)
    if (odds.get("attackers"), odds.get("defenders")) != (attackers, defenders):
        raise _ArmiesMoved(odds)  # lru_cache keeps no exception
    return odds


@api.get("/dice")
def get_dice():
    """The fairness page's data: commitment, face counts, chi-square, luck, seed and draws.

    Rate limited, and built once per table state (game, seq, status): the record is read
    on the table's own thread."""
    c = ctx()
    limit(c.read_limit)
    view = c.table.view(Viewer("spectator"))
    key = (view.get("game_id"), view.get("seq"), view.get("game_status"), view.get("history"))
    cached = c.dice_cache
    if cached is None or cached[0] != key:
        events = [e for u in c.table.updates_since(-1, Viewer("spectator")) for e in u.events]
        record = c.table.dice_record()
        cached = c.dice_cache = (key, {**dice_statistics(events), **record})
    return jsonify(cached[1])


@api.get("/status")
def get_status():
    """The board's health. Everyone sees what the pages show of it (`public_status`); the
    host (PIN header) and this machine itself (`riskboard doctor` beside the service) see
    all of it: the Pico's device path, the data folder, the service's checks, each part's
    fault sentence and every statistic."""
    status = ctx().table.status()
    if request.headers.get(PIN_HEADER):
        require_host()
        return jsonify({**status, "version": installed_version()})
    if from_this_machine():
        return jsonify({**status, "version": installed_version()})
    return jsonify(public_status(status))


def public_status(status: dict[str, Any]) -> dict[str, Any]:
    """What anyone on the Wi-Fi may see of the board's health: an allow-list (anything the
    table adds later stays the host's until it is named here), never a path or a device."""
    link = status.get("link") or {}
    parts = status.get("parts") or {}
    loop = status.get("loop") or {}
    return {
        **{k: status[k] for k in ("game_id", "seq", "game_status", "paused", "simulated",
                                  "mismatches") if k in status},
        "link": {k: link[k] for k in ("state", "connected", "healthy") if k in link},
        "parts": {name: {"state": part.get("state")} for name, part in parts.items()
                  if isinstance(part, dict)},
        "loop": {"running": loop.get("running")},
    }


@api.get("/virtual/board")
def get_virtual_board():
    """The in-memory LED frame (with its `version`) and LED map in simulation; 404 on real
    hardware. `?after=<version>`: when that is still the frame, first wait for another
    (`pi_app.web.virtual_frames`)."""
    c = ctx()
    board = c.table.virtual_board()
    if board is None:
        raise ApiError(404, "no_virtual_board", "This table runs real hardware; no virtual board.")
    return jsonify(frame_after(c, board, request.args.get("after")))


@api.get("/virtual/frames")
def get_virtual_frames():
    """The virtual board's frames as an event stream (`pi_app.web.virtual_frames`); 404 on
    real hardware."""
    c = ctx()
    if c.table.virtual_board() is None:
        raise ApiError(404, "no_virtual_board", "This table runs real hardware; no virtual board.")
    return frame_stream(c)


@api.post("/virtual/touch")
def post_virtual_touch():
    """Touch a territory's sensor through the emulator (simulation only).

    `action`: "touch" (the default: down and up at once), "down" or "up", so a territory can
    be held as on the board. `tag` (NFC boards, host only): "token" (the default) or
    "marker-N", `player`'s N-th marker. Needs the host PIN (which may name any `player` as
    the NFC token touching) or a seat token: the touch is that seat's (`player` may only
    name it) and is refused with 403 `not_your_turn`, changing nothing, unless that seat may
    act now. `heard` is false when the sensor is plugged into a port the Pico does not scan."""
    c = ctx()
    limit(c.command_limit)
    toucher = _virtual_toucher()
    body = json_object({"territory", "player", "action", "tag"}, {"territory"})
    territory = body["territory"]
    if not isinstance(territory, str) or territory not in {
        t["id"] for t in board_map()["territories"]
    }:
        raise ApiError(400, "unknown_territory", f"There is no territory {territory!r}.")
    player = body.get("player")
    if player is not None and not isinstance(player, str):
        raise ApiError(400, "bad_player", "player must be a colour id.")
    action = body.get("action", "touch")
    if action not in ("touch", "down", "up"):
        raise ApiError(400, "bad_action", "action is touch, down or up.")
    tag = body.get("tag")
    if tag is not None and not isinstance(tag, str):
        raise ApiError(400, "bad_tag", 'tag is "token" or "marker-N".')
    if toucher is not None:
        if player not in (None, toucher):
            raise ApiError(403, "not_your_seat", "You can only touch with your own seat's token.")
        # the table checks that this seat may act now, on its own thread (403 otherwise)
        heard = c.table.virtual_touch(territory, toucher, seat=True, action=action, tag=tag)
        return jsonify({"ok": True, "heard": heard})
    heard = c.table.virtual_touch(territory, player, action=action, tag=tag)
    return jsonify({"ok": True, "heard": heard})


@api.post("/virtual/replug")
def post_virtual_replug():
    """Move a territory's sensor cable to another mux port of the practice board (host PIN;
    `serve --sim --miswired` only), as the maker's hands would; the emulated Pico then
    restarts to look for its readers. Returns the board's sensor ports."""
    c = ctx()
    limit(c.command_limit)
    require_host()
    body = json_object({"territory", "port"}, {"territory", "port"})
    territory, port = body["territory"], body["port"]
    if not isinstance(territory, str):
        raise ApiError(400, "unknown_territory", f"There is no territory {territory!r}.")
    if isinstance(port, bool) or not isinstance(port, int):
        raise ApiError(400, "bad_port", "port must be a whole number.")
    return jsonify(c.table.virtual_replug(territory, port))


@api.post("/virtual/button")
def post_virtual_button():
    """Press (`action` "down") or release ("up") a control button of the virtual board
    (simulation only; the buttons' own hold time makes a long press). Same rights as a
    touch: the host PIN, or a seat token acting for its own seat when it may act."""
    c = ctx()
    limit(c.command_limit)
    presser = _virtual_toucher()
    body = json_object({"button", "action"}, {"button", "action"})
    button, action = body["button"], body["action"]
    if not isinstance(button, str) or action not in ("down", "up"):
        raise ApiError(400, "bad_button", "Name a button and whether it goes down or up.")
    c.table.virtual_button(button, action, presser, seat=presser is not None)
    return jsonify({"ok": True})


@api.post("/virtual/pico")
def post_virtual_pico():
    """Reset, unplug or replug the emulated Pico (simulation only; the host PIN): what the
    table does when the Pico reboots or its cable is pulled, practised on the virtual
    board (and driven by bench.night)."""
    c = ctx()
    limit(c.command_limit)
    require_host()
    body = json_object({"action"}, {"action"})
    action = body["action"]
    if not isinstance(action, str):
        raise ApiError(400, "bad_action", "Say reset, unplug or replug.")
    c.table.virtual_pico(action)
    return jsonify({"ok": True})


def _virtual_toucher() -> str | None:
    """None for the host (PIN header), else the seat token's colour; 401 with neither."""
    if request.headers.get(PIN_HEADER):
        require_host()
        return None
    if not request.headers.get(TOKEN_HEADER):
        raise ApiError(401, "pin_required", "The virtual board needs the host PIN (from the "
                       "Pi's console) or a seat token.")
    return seat_player(required=True)
