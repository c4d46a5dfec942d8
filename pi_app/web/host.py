"""Host actions under /api/host/ (all need the host PIN header): new game, seats and their
QR codes (one seat at a time, only while no phone holds it), undo, pause, resume, end the
game (reveals the dice seed), journal download."""

from __future__ import annotations

import io
import json
import re
import socket
import sqlite3
import tempfile
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, jsonify, request, send_file

from pi_app.journal import row_checksum
from pi_app.redaction import redact_journal_command
from pi_app.table_api import Viewer
from pi_app.web.context import ctx, host_device, json_object, require_host
from pi_app.web.errors import ApiError
from pi_app.web.own_addresses import interface_addresses
from pi_app.web.variants import NewGameInvalid, check_new_game

host = Blueprint("host", __name__, url_prefix="/api/host")

_SIMPLE_ACTIONS = {
    "undo": {"count", "override"},
    "pause": set(),
    "resume": set(),
    "end_game": set(),
}


def seat_base() -> str:
    """Where phones reach the table (a seat link is `<base>/me#t=<token>`: the token is in the
    fragment, never sent to a server): `public_url` if the service was given one, else the
    address the host page was opened with, if it names this machine (a forged Host header
    must not put another site in the QR codes); 400 `bad_host` otherwise."""
    c = ctx()
    if c.public_url:
        return c.public_url
    name = request.host.rsplit(":", 1)[0] if not request.host.endswith("]") else request.host
    if name.strip("[]").lower() not in this_machine(c.bind_host):
        raise ApiError(400, "bad_host", f"Open the host page by this table's address (not "
                       f"{name[:64]!r}), or give the service its public address.")
    if c.bind_host in ("0.0.0.0", "::", "") and not _phone_reachable(name.strip("[]")):
        # The host page on the Pi itself, or by a name (.local fails on many Android
        # phones): phones get the address the Pi has now.
        address = address_now(socket.AF_INET6 if c.bind_host == "::" else socket.AF_INET)
        if address:
            port = request.host[len(name) + 1:] if request.host != name else ""
            address = f"[{address}]" if ":" in address else address
            return f"{request.scheme}://{address}{':' + port if port else ''}/"
    return request.host_url


LOOPBACK = ("localhost", "127.0.0.1", "::1")


def _phone_reachable(name: str) -> bool:
    """Whether a phone can use `name` as it is: an IP address that is not loopback (a
    host name, `raspberrypi.local` or `localhost`, is not)."""
    import ipaddress

    try:
        return not ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def address_now(family: int) -> str | None:
    """This machine's address for phones at this moment, of `family`: the one on the
    network of its default route, else an interface's (a Pi that is its own Wi-Fi hotspot
    has no default route); None with no network at all."""
    probe = "192.0.2.1" if family == socket.AF_INET else "2001:db8::1"
    try:  # a UDP "connect" sends nothing; it names the address of the default route
        with socket.socket(family, socket.SOCK_DGRAM) as s:
            s.connect((probe, 9))
            address = str(s.getsockname()[0])
            if address not in LOOPBACK and not address.startswith("127."):
                return address
    except OSError:
        pass
    ipv4 = family == socket.AF_INET
    others = sorted(a for a in interface_addresses() if ("." in a) == ipv4 and
                    not a.startswith(("127.", "fe80")) and a != "::1")
    return others[0] if others else None


def this_machine(bind_host: str | None) -> set[str]:
    """The names and addresses a browser may use for this machine (lower case)."""
    hostname = socket.gethostname().lower()
    names = {"localhost", "127.0.0.1", "::1", hostname, f"{hostname}.local"}
    if bind_host and bind_host not in ("0.0.0.0", "::", ""):
        names.add(bind_host.lower())
    try:
        names.update(str(info[4][0]).lower() for info in socket.getaddrinfo(hostname, None))
    except OSError:
        pass
    names.update(interface_addresses())
    for family, probe in ((socket.AF_INET, "192.0.2.1"), (socket.AF_INET6, "2001:db8::1")):
        try:  # a UDP "connect" sends nothing; it names the address of the default route
            with socket.socket(family, socket.SOCK_DGRAM) as s:
                s.connect((probe, 9))
                names.add(str(s.getsockname()[0]).lower())
        except OSError:
            pass
    return names


def qr_svg(data: str) -> str:
    """An SVG QR code (segno) for `data`, scaled for a phone camera at arm's length."""
    import segno  # imported on first use: not on serve's path to its first answer

    out = io.BytesIO()
    # omitsize: a viewBox only, so the page can scale the code without cropping it
    segno.make(data, error="m").save(out, kind="svg", scale=5, border=4, xmldecl=False,
                                     svgns=True, omitsize=True, title="Seat QR code")
    return out.getvalue().decode("utf-8")


def _seats_payload() -> list[dict[str, Any]]:
    """Each seat and whether a phone holds it: never a token (SECURITY.md)."""
    return ctx().seats.seats()


def _seat_code(player: str, token: str) -> dict[str, Any]:
    """A seat's QR code and link, and for a device that cannot scan its short code and the
    page to type it on (`pi_app.web.seat_codes`)."""
    from pi_app.web.seat_codes import code_of, shown

    base = seat_base().rstrip("/")
    url = f"{base}/me#t={token}"
    return {"player": player, "url": url, "qr_svg": qr_svg(url),
            "code": shown(code_of(token)), "join_url": f"{base}/join"}


@host.get("/check")
def check_pin() -> Response:
    """200 when the PIN is right (the host page's login), with the last burst of PIN
    guessing at this table if there was one (`pin_guessing`, shown on the host page), and
    for a device the table does not know yet a new host-device id (`device`, which the
    page keeps and sends as `X-Host-Device`; made here, never taken from the device)."""
    require_host()
    answer: dict[str, Any] = {"ok": True, "pin_guessing": ctx().pin_guard.alert()}
    devices = ctx().pin_guard.devices
    if not devices.known(host_device()):
        answer["device"] = devices.issue()
    return jsonify(answer)


@host.post("/new_game")
def new_game():
    """Start a new game and issue a fresh seat token per player (old phones are unseated);
    answers the seats, whose codes the host then shows one at a time (`/seats/<p>/code`),
    and the new game's public view (`state`, as /api/state gives it).

    The variant, its player count and every house rule are checked first
    (`pi_app.web.variants`): a 400 names each bad field in a sentence. A physical-dice game
    takes the typed first-player roll as `faces`; the table answers `dice_needed` (naming
    any tie to re-roll) until they are complete."""
    require_host()
    seat_base()  # a forged Host header is refused before anything changes
    body = json_object({"variant", "players", "house_rules", "faces", "computers"},
                       {"variant", "players"})
    try:
        variant, players, house_rules = check_new_game(body)
    except NewGameInvalid as bad:
        raise ApiError(400, bad.code, str(bad), bad.fields, problems={
            name: problem.to_dict() for name, problem in bad.problems.items()}) from None
    params = {"variant": variant, "players": players, "house_rules": house_rules}
    if body.get("faces"):
        params["faces"] = body["faces"]  # the first-player roll, typed (physical dice)
    if body.get("computers"):
        params["computers"] = body["computers"]  # seats the Pi plays (checked by the table)
    c = ctx()
    tokens = c.seats.fresh(players)
    params["seat_tokens"] = tokens  # journaled with the new game, in one transaction
    with c.seats.suspended():  # no old phone may read the new seats before they get tokens
        result = c.table.host_action("new_game", params)
        c.seats.install(tokens)
    # the new game's public view at once: the host page shows it, not the old game's until
    # its next read (issue 32.6)
    return jsonify({"result": result, "seats": _seats_payload(),
                    "state": c.table.view(Viewer("spectator"))})


@host.get("/seats")
def seats():
    """Each seat and whether a phone holds it (`claimed`); no links, no tokens."""
    require_host()
    return jsonify({"seats": _seats_payload()})


@host.get("/seats/<player>/code")
def seat_code(player: str):
    """One seat's link and QR code (SVG markup), only while no phone holds that seat:
    409 `seat_taken` afterwards (the host moves a seat with a reissue instead)."""
    require_host()
    seat_base()  # a forged Host header never gets a code
    try:
        token = ctx().seats.unclaimed_token(player)
    except KeyError:
        raise ApiError(404, "unknown_seat", f"No seat {player!r} in this game.",
                       params={"colour": player[:20]}) from None
    if token is None:
        raise ApiError(409, "seat_taken", f"A phone already holds {player}'s seat. To move it "
                       "to another phone, give the seat a new code; the old phone is told.",
                       params={"colour": player})
    return jsonify({"seat": _seat_code(player, token)})


@host.post("/seats/<player>/reissue")
def reissue(player: str):
    """A new token for one seat (a lost phone, a seat to move): the old token stops working
    at once (its phone is told its seat moved); answers the new code of that seat only."""
    require_host()
    seat_base()
    try:
        token = ctx().seats.reissue(player)
    except KeyError:
        raise ApiError(404, "unknown_seat", f"No seat {player!r} in this game.",
                       params={"colour": player[:20]}) from None
    return jsonify({"seat": _seat_code(player, token), "seats": _seats_payload()})


@host.post("/computer")
def computer():
    """The computer seats (issue 16): `seats` {colour: "easy"|"normal"|"hard", or null to
    give the seat back to a phone}, `paused`, `confirm_after_s`, `trust_lights` (the table
    copies a whole computer turn with one Confirm); journaled by the table. Answers the
    computer settings as every page sees them."""
    require_host()
    body = json_object({"seats", "paused", "confirm_after_s", "trust_lights"})
    return jsonify({"result": ctx().table.host_action("computer", body)})


@host.post("/<action>")
def simple_action(action: str):
    """undo {count?, override?}, pause, resume, end_game (reveals the dice seed)."""
    require_host()
    if action not in _SIMPLE_ACTIONS:
        raise ApiError(404, "unknown_action", f"There is no host action {action!r}.")
    # read the body itself: a chunked request has a body but no Content-Length
    body = json_object(_SIMPLE_ACTIONS[action]) if request.get_data(cache=True) else {}
    if "count" in body and (not isinstance(body["count"], int) or not 1 <= body["count"] <= 50):
        raise ApiError(400, "bad_count", "count must be a whole number from 1 to 50.")
    if "override" in body and not isinstance(body["override"], bool):
        raise ApiError(400, "bad_override", "override must be true or false.")
    return jsonify({"result": ctx().table.host_action(action, body)})


@host.get("/journal")
def journal():
    """Download the SQLite journal of the table (unrevealed dice seeds blanked)."""
    require_host()
    path = Path(ctx().table.journal_path())
    if not path.is_file():
        raise ApiError(404, "no_journal", "There is no journal yet.")
    name = re.sub(r"[^A-Za-z0-9._-]", "_", path.name)
    response = send_file(journal_snapshot(path), as_attachment=True, download_name=name,
                         max_age=0, mimetype="application/octet-stream")
    response.headers["Cache-Control"] = "no-store"
    return response


def journal_snapshot(path: Path) -> io.BytesIO:
    """The journal's bytes; a live SQLite database (WAL) is copied with SQLite's backup API
    so the download is consistent and holds the commits still in the write-ahead log.

    The copy holds nothing a player of a game whose seed is not revealed yet could not see
    (`_hide_unrevealed_secrets`, then VACUUM with secure_delete so no old page keeps it):
    the seed would let the host foresee every roll, the draws give away the deck order,
    everyone's cards and mission and the Strike hands, and Capital's HQ picks are secret
    until the reveal. Tables the download does not know are emptied."""
    with path.open("rb") as f:
        is_sqlite = f.read(16) == b"SQLite format 3\x00"
    if not is_sqlite:
        return io.BytesIO(path.read_bytes())
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "journal.sqlite"
        source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        target = sqlite3.connect(copy)
        try:
            source.backup(target)
            source.close()
            _hide_unrevealed_secrets(target, copy)
        finally:
            target.close()
            source.close()
        return io.BytesIO(copy.read_bytes())


# The journal's tables the download keeps (`pi_app.journal`); every other table is emptied:
# the seat tokens, the state snapshots (hands, deck, missions) and whatever comes later.
_JOURNAL_TABLES = frozenset({"games", "commands", "torn_rows", "sqlite_sequence"})


def _hide_unrevealed_secrets(db: sqlite3.Connection, copy: Path) -> None:
    """Blank what is secret in every game whose seed is not revealed: the seed, the draws
    (they hold the shuffles: deck order, hands, missions, Strike decks) and the secret
    fields of commands (`pi_app.redaction.redact_journal_command`, judged on the game's
    state now). Rows get their checksum again (`pi_app.journal.row_checksum`), so the copy
    is a sound journal; once a game's seed is revealed its rows are copied whole."""
    columns = {row[1] for row in db.execute("PRAGMA table_info(games)")}
    if not {"seed_hex", "revealed"} <= columns:
        return
    db.execute("PRAGMA journal_mode=DELETE")  # one self-contained file, no -wal beside it
    db.execute("PRAGMA secure_delete=ON")
    _redact_commands(db, copy)
    tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    for name in sorted(tables - _JOURNAL_TABLES):
        db.execute(f'DELETE FROM "{name.replace(chr(34), chr(34) * 2)}"')
    db.create_function("row_checksum", 6, row_checksum, deterministic=True)
    hidden = "SELECT id FROM games WHERE revealed = 0"
    commands = {row[1] for row in db.execute("PRAGMA table_info(commands)")}
    dice_at = "dice_at" if "dice_at" in commands else "NULL"  # version-2 dice position
    db.execute("UPDATE games SET seed_hex = '' WHERE revealed = 0")
    db.execute(f"UPDATE commands SET draws_json = '[]', checksum = row_checksum(game_id, seq,"
               f" command_json, '[]', created_at, {dice_at}) WHERE game_id IN ({hidden})")
    if "torn_rows" in tables:
        db.execute(f"UPDATE torn_rows SET draws_json = '[]' WHERE game_id IN ({hidden})")
    db.commit()
    db.execute("VACUUM")


def _redact_commands(db: sqlite3.Connection, copy: Path) -> None:
    """Pass every command of an unrevealed game through the redaction; a game holding a
    command with a secret field is replayed (from the copy, before anything is blanked) to
    judge it on the game's state now."""
    rows = db.execute("SELECT game_id, seq, command_json, draws_json, created_at FROM commands"
                      " WHERE game_id IN (SELECT id FROM games WHERE revealed = 0)").fetchall()
    states: dict[int, Any] = {}
    changed = []
    for game_id, seq, command_json, draws_json, created_at in rows:
        try:
            command = json.loads(command_json)
        except (TypeError, ValueError):
            continue  # an unreadable row: the journal's own checks report it
        if not isinstance(command, dict):
            continue
        if game_id not in states and redact_journal_command(command, None) != command:
            states[game_id] = _current_state(copy, game_id)
        if game_id not in states:
            continue
        public = redact_journal_command(command, states[game_id])
        if public != command:
            text = json.dumps(public, separators=(",", ":"))
            changed.append((text, row_checksum(game_id, seq, text, draws_json, created_at),
                            game_id, seq))
    db.executemany("UPDATE commands SET command_json = ?, checksum = ? WHERE game_id = ? AND "
                   "seq = ?", changed)
    tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if "torn_rows" in tables:  # leftovers of a torn write: nothing of them is judged public
        torn = db.execute("SELECT rowid, command_json FROM torn_rows WHERE game_id IN "
                          "(SELECT id FROM games WHERE revealed = 0)").fetchall()
        for rowid, command_json in torn:
            try:
                command = json.loads(command_json)
                redacted: str | None = json.dumps(redact_journal_command(command, None),
                                                  separators=(",", ":"))
            except (TypeError, ValueError, AttributeError):
                redacted = None
            db.execute("UPDATE torn_rows SET command_json = ? WHERE rowid = ?", (redacted, rowid))
    db.commit()


def _current_state(copy: Path, game_id: int) -> Any:
    """The game's state now, replayed from the journal copy; None if it does not replay."""
    from pi_app.journal import Journal, JournalError
    from pi_app.session import replay_state

    try:
        journal = Journal(copy, read_only=True)
    except (JournalError, sqlite3.DatabaseError, OSError):
        return None
    try:
        return replay_state(journal.load(game_id))
    except (JournalError, sqlite3.DatabaseError, ValueError, AssertionError, KeyError):
        return None
    finally:
        journal.close()
