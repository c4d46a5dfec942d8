"""Seat tokens and stream tickets: how a phone proves which player it is.

A seat token is 256 random bits (`secrets.token_urlsafe(32)`), handed to one phone by the
host's QR code, kept in the phone's localStorage and sent in the `X-Seat-Token` header.
Tokens persist in `<data_dir>/seat_tokens.json` (mode 0600) so a service restart does not
unseat phones. A table with a journal keeps them in the journal too (`journaled`, `store`):
a new game journals its seats in the transaction that creates it, so after a crash the
journal's tokens are the ones that count, never an older file's. Lookups compare against
every stored token with `hmac.compare_digest`.

What the host may see (the trust model, SECURITY.md): a seat's link and QR code only while
no phone holds it. The first request a phone makes with a token claims it (`player_for`);
from then on `unclaimed_token` answers None for that seat, and the only way to move the
seat is `reissue`: a new token, the old one retired, and a phone still sending it is told
its seat moved (`moved`; only a hash of a retired token is kept). Which seats are claimed
and the retired hashes live in the file beside the tokens (kept while its tokens are the
journal's).

One phone per seat (`seat_for`): the pages send a random key of their own browser with
the token (`X-Seat-Phone`). The first phone key a seat's token comes with binds the seat
to that phone (its hash is kept with the claims); the token with another key, or with
none, is then refused with `SeatHeld`, so of two phones scanning one code at the same
moment the first holds the seat and the other is told. A request with no key (an API
client) uses an unbound seat without binding it. A reissue or a new game unbinds.

How many phones opened a seat's link (`seats()`'s `phones`, for the host only): the phone
holding the seat and every other phone key its token came with and was refused, counted by
hash (at most `PHONES_NOTED` per seat) until a reissue or a new game. Two means the link or
its QR code reached a second phone: the host sees it, and moves the seat if the wrong one
holds it. Requests with no key are not counted (nothing tells two of them apart).

EventSource cannot send headers, so a private stream is opened with a stream ticket: a
short-lived (30 s), single-use random value obtained with the token header. A ticket holds
the seat TOKEN, not the colour: the stream re-checks that token before every message and
ends when a new game or a reissue retired it (`pi_app.web.stream`), and new tokens clear
every outstanding ticket.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path


class SeatHeld(Exception):
    """The seat of this token is held by another phone (`player`: its colour)."""

    def __init__(self, player: str) -> None:
        super().__init__(player)
        self.player = player


class SeatTokens:
    """The seat token of each player colour of the current game, persisted in the data dir."""

    FILE_NAME = "seat_tokens.json"
    PHONES_NOTED = 16  # other phones' key hashes kept per seat (a count, not a record)

    def __init__(self, data_dir: Path, on_change: Callable[[], None] | None = None, *,
                 journaled: dict[str, str] | None = None,
                 store: Callable[[dict[str, str]], None] | None = None) -> None:
        """`journaled`: the running game's tokens as the journal holds them (they win over
        the file); `store(tokens)` journals every later change before it takes effect."""
        self._path = Path(data_dir) / self.FILE_NAME
        self._lock = threading.Lock()
        self._tokens: dict[str, str] = {}
        self._claimed: set[str] = set()  # seats whose token a phone has used
        self._moved: set[str] = set()  # hashes of tokens retired by a reissue (this game)
        self._phones: dict[str, str] = {}  # seat -> hash of the phone key that holds it
        self._refused: dict[str, set[str]] = {}  # seat -> hashes of other phones' keys
        self._suspended = 0
        self._on_change = on_change or (lambda: None)
        self._store = store or (lambda tokens: None)
        loaded: dict = {}
        if self._path.exists():
            loaded = json.loads(self._path.read_text(encoding="utf-8"))
            self._tokens = {str(k): str(v) for k, v in loaded.get("seats", {}).items()}
        if journaled is not None and dict(journaled) != self._tokens:
            self._tokens = dict(journaled)  # the journal's tokens win; the file's notes go
            loaded = {}
        self._claimed = {str(p) for p in loaded.get("claimed", []) if p in self._tokens}
        self._moved = {str(h) for h in loaded.get("moved", [])}
        self._phones = {str(p): str(h) for p, h in (loaded.get("phones") or {}).items()
                        if p in self._claimed}
        self._refused = {str(p): {str(h) for h in hashes}
                         for p, hashes in (loaded.get("refused") or {}).items()
                         if p in self._phones}
        if journaled is not None:
            self._save()

    @staticmethod
    def fresh(players: list[str]) -> dict[str, str]:
        """A new token for each player, not yet in force (see `install`)."""
        return {player: secrets.token_urlsafe(32) for player in players}

    def issue_all(self, players: list[str]) -> dict[str, str]:
        """Forget every seat and issue a fresh token for each player (a new game)."""
        tokens = self.fresh(players)
        with self._lock:
            self._store(tokens)
            self._tokens = tokens
            self._claimed = set()
            self._moved = set()
            self._phones = {}
            self._refused = {}
            self._save()
            issued = dict(self._tokens)
        self._on_change()
        return issued

    def install(self, tokens: dict[str, str]) -> None:
        """Put tokens already journaled with their game in force (a new game)."""
        with self._lock:
            self._tokens = dict(tokens)
            self._claimed = set()
            self._moved = set()
            self._phones = {}
            self._refused = {}
            self._save()
        self._on_change()

    def reissue(self, player: str) -> str:
        """Replace one player's token (a lost or shared phone, or a seat to move): the old
        one stops working at once, and a phone still sending it is told its seat moved."""
        with self._lock:
            if player not in self._tokens:
                raise KeyError(player)
            tokens = {**self._tokens, player: secrets.token_urlsafe(32)}
            self._store(tokens)
            self._moved.add(_digest(self._tokens[player]))
            self._tokens = tokens
            self._claimed.discard(player)
            self._phones.pop(player, None)
            self._refused.pop(player, None)
            self._save()
            token = self._tokens[player]
        self._on_change()
        return token

    def seats(self) -> list[dict[str, object]]:
        """Each seat, whether a phone holds it and how many phones opened its link
        (`{"player", "claimed", "phones"}`, the host's), no token."""
        with self._lock:
            return [{"player": p, "claimed": p in self._claimed,
                     "phones": int(p in self._phones) + len(self._refused.get(p, ()))}
                    for p in self._tokens]

    def unclaimed_token(self, player: str) -> str | None:
        """`player`'s token for the host's QR code, or None once a phone holds it. Raises
        KeyError for a seat that is not in the game."""
        with self._lock:
            token = self._tokens[player]
            return None if player in self._claimed else token

    def moved(self, token: str | None) -> bool:
        """True if `token` was this game's token of a seat the host has since reissued."""
        if not token:
            return False
        with self._lock:
            return _digest(token) in self._moved

    @contextmanager
    def suspended(self) -> Iterator[None]:
        """No token is valid inside the block: a new game swaps the table's players before
        it can issue their tokens, and no old phone may see the new seats meanwhile."""
        with self._lock:
            self._suspended += 1
        try:
            yield
        finally:
            with self._lock:
                self._suspended -= 1

    def tokens(self) -> dict[str, str]:
        """Colour -> token (tests and the table's own tools; the host API never hands a
        claimed token out: `unclaimed_token`)."""
        with self._lock:
            return dict(self._tokens)

    def player_for(self, token: str | None) -> str | None:
        """The colour whose token this is, or None; constant time per stored token. A
        token found here is claimed: a phone holds it now."""
        if not token:
            return None
        candidate = token.encode("utf-8", "replace")
        found: str | None = None
        with self._lock:
            for player, stored in self._tokens.items():
                if hmac.compare_digest(candidate, stored.encode()):
                    found = player
            if self._suspended:
                return None
            if found is not None and found not in self._claimed:
                self._claimed.add(found)
                self._save()
        return found

    def seat_for(self, token: str | None, phone: str | None) -> str | None:
        """The colour whose token this is (None if none), as `player_for`, for a request
        from the phone with key `phone` (None: no key sent). The first key a seat's token
        comes with binds the seat to that phone; raises `SeatHeld` when the seat is bound to
        another phone (or to one, and no key is sent). Claim, bind and check happen under
        one lock: of two phones at the same moment, exactly one holds the seat."""
        if not token:
            return None
        candidate = token.encode("utf-8", "replace")
        key = _digest(phone) if phone else None
        found: str | None = None
        with self._lock:
            for player, stored in self._tokens.items():
                if hmac.compare_digest(candidate, stored.encode()):
                    found = player
            if self._suspended or found is None:
                return None
            bound = self._phones.get(found)
            if bound is not None and not hmac.compare_digest(bound, key or ""):
                refused = self._refused.setdefault(found, set())
                if key is not None and key not in refused and len(refused) < self.PHONES_NOTED:
                    refused.add(key)  # another phone has this seat's link: the host is shown
                    self._save()
                raise SeatHeld(found)
            changed = found not in self._claimed
            self._claimed.add(found)
            if key is not None and bound is None:
                self._phones[found] = key
                changed = True
            if changed:
                self._save()
        return found

    def _save(self) -> None:
        from pi_app.storage import make_data_dir

        make_data_dir(self._path.parent)  # durable, like every creation of the data folder
        tmp = self._path.with_suffix(".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump({"seats": self._tokens, "claimed": sorted(self._claimed),
                       "moved": sorted(self._moved), "phones": self._phones,
                       "refused": {p: sorted(h) for p, h in self._refused.items()}}, out)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, self._path)


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


HOST_TICKET = " host"  # what a host's ticket stands for (no seat token has a space)


class StreamTickets:
    """Single-use, short-lived tickets that open one private event stream for one seat token
    (or for the host: `HOST_TICKET`)."""

    def __init__(self, ttl_seconds: float = 30.0, clock=time.monotonic) -> None:
        self._ttl = ttl_seconds
        self._clock = clock
        self._lock = threading.Lock()
        self._tickets: dict[str, tuple[str, float]] = {}

    def issue(self, token: str) -> str:
        """A new ticket for the seat `token`, valid once within the TTL."""
        ticket = secrets.token_urlsafe(24)
        now = self._clock()
        with self._lock:
            self._tickets = {t: v for t, v in self._tickets.items() if v[1] > now}
            self._tickets[ticket] = (token, now + self._ttl)
        return ticket

    def redeem(self, ticket: str | None) -> str | None:
        """The ticket's seat token if it is valid (and consume it), else None."""
        if not ticket:
            return None
        with self._lock:
            entry = self._tickets.pop(ticket, None)
        if entry is None or entry[1] <= self._clock():
            return None
        return entry[0]

    def clear(self) -> None:
        """Forget every outstanding ticket (the seat tokens changed)."""
        with self._lock:
            self._tickets.clear()


def new_host_pin(digits: int = 8) -> str:
    """A fresh random host PIN to print on the Pi's console at start (wrong guesses are
    rate limited to 5 a minute, so 8 digits keep a guesser busy for decades)."""
    return "".join(secrets.choice("0123456789") for _ in range(digits))
