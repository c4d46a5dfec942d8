"""Seat codes: a short text a player types on `/join` instead of scanning the seat's QR code
(a laptop, or a phone whose camera cannot scan).

A seat's code is 6 characters from an alphabet without look-alikes (no 0/O, 1/I/L, U),
derived from the seat's secret token (`code_of`): it exists only while the token does, so a
reissued seat gets a new code and the old one is dead; and it is answered only while no phone
holds the seat, so a claimed seat's code is dead too. `POST /api/join {code}` trades a live
code for the seat token, claiming the seat for the asking phone (`X-Seat-Phone`) exactly as
its QR link's first request would; the page then opens `/me` with that token.

30^6 = 729 million codes, at most 6 live: a guest on the Wi-Fi guesses against the same
machinery as the host PIN (`pi_app.web.limits.PinGuard`, issue 21.3): wrong codes are limited
per address (5 a minute) and at the whole table (30 a minute, whatever the number of
addresses); past the table's limit no code is even judged, right or wrong, so a crowd learns
nothing. At 30 guesses a minute a 4-hour game leaves a guesser about 1 chance in 17,000
(7,200 guesses, each 6 in 30^6).
"""

from __future__ import annotations

import hashlib
import hmac

from flask import jsonify, request

from pi_app.web.api import api
from pi_app.web.context import PHONE_HEADER, client_key, ctx, json_object, limit
from pi_app.web.errors import ApiError
from pi_app.web.seats import SeatHeld, SeatTokens

ALPHABET = "23456789ABCDEFGHJKMNPQRSTVWXYZ"
LENGTH = 6


def code_of(token: str) -> str:
    """The seat code of a seat token (6 characters of ALPHABET; shown as `ABC-DEF`)."""
    number = int.from_bytes(hashlib.sha256(b"riskboard seat code\0" + token.encode()).digest())
    chars = []
    for _ in range(LENGTH):
        number, digit = divmod(number, len(ALPHABET))
        chars.append(ALPHABET[digit])
    return "".join(chars)


def shown(code: str) -> str:
    """A code as the host page shows it: two groups of three (`K7M-4PX`)."""
    return f"{code[:3]}-{code[3:]}"


def normal_code(text: str) -> str | None:
    """What a player typed, as a code: upper case, spaces and dashes dropped; None when it
    cannot be a code (another length, or a character outside the alphabet)."""
    cleaned = "".join(ch for ch in text.upper() if ch not in " -_.\u00a0\u3000")
    if len(cleaned) != LENGTH or any(ch not in ALPHABET for ch in cleaned):
        return None
    return cleaned


def unclaimed_seat(seats: SeatTokens, code: str) -> tuple[str, str] | None:
    """(colour, token) of the seat whose live code this is (a seat no phone holds yet), or
    None; every seat is compared in constant time."""
    found = None
    unclaimed = {s["player"] for s in seats.seats() if not s["claimed"]}
    for player, token in seats.tokens().items():
        if hmac.compare_digest(code_of(token), code) and player in unclaimed:
            found = (player, token)
    return found


@api.post("/join")
def join():
    """Trade a seat code for its seat token: 200 `{player, token}` (the seat is now this
    phone's, as after its QR link), or a refusal with a stable code."""
    c = ctx()
    limit(c.join_limit)
    body = json_object({"code"}, {"code"})
    typed = body["code"]
    code = normal_code(typed) if isinstance(typed, str) and len(typed) <= 32 else None
    if code is None:
        raise ApiError(400, "bad_code_format", "A seat code is 6 letters and digits, like "
                       "K7M-4PX; type it as the host page shows it.")
    found = unclaimed_seat(c.seats, code)
    verdict = c.code_guard.check(client_key(), found is not None)
    if not verdict.ok:
        raise ApiError(verdict.status, verdict.code, verdict.message,
                       params=verdict.params or None)
    if found is None:  # not reached: a wrong code is refused by the guard
        raise ApiError(403, "bad_seat_code", "No seat has this code now.")
    token = found[1]
    try:
        seated = c.seats.seat_for(token, request.headers.get(PHONE_HEADER) or None)
    except SeatHeld:
        raise ApiError(409, "seat_held", "Another phone already holds this seat. If it is "
                       "yours, ask the host to move it to this phone.") from None
    if seated is None:  # a new game is being dealt this moment
        raise ApiError(403, "bad_seat_code", "No seat has this code now. Check it on the host "
                       "page.")
    return jsonify({"player": seated, "token": token})
