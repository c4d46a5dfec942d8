"""Security of the web: headers, no inline scripts, debug impossible, tokens (size,
constant-time lookup, persistence with mode 0600), tickets, rate limiter."""

from __future__ import annotations

import re
import stat

import pytest

from pi_app.web import create_app
from pi_app.web.limits import RateLimiter
from pi_app.web.seats import SeatTokens, StreamTickets

from .conftest import PIN, seat


@pytest.mark.slow
@pytest.mark.parametrize("path", ["/", "/me", "/host", "/dice", "/virtual", "/api/state",
                                  "/api/nothing"])
def test_every_response_carries_the_security_headers(client, path):
    res = client.get(path)
    csp = res.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert "frame-ancestors 'none'" in csp
    assert res.headers["Referrer-Policy"] == "no-referrer"
    assert res.headers["X-Content-Type-Options"] == "nosniff"


@pytest.mark.parametrize("path", ["/", "/me", "/host", "/dice", "/virtual"])
def test_pages_have_no_inline_script_or_handler(client, path):
    html = client.get(path).get_data(as_text=True)
    # inert JSON data blocks (the page's words and map) are not scripts: nothing runs them
    assert not re.search(r'<script(?![^>]*\bsrc=)(?![^>]*\btype="application/json")[^>]*>', html)
    assert not re.search(r"\son[a-z]+\s*=", html)


def test_debug_mode_is_impossible(table, tmp_path, monkeypatch):
    monkeypatch.setenv("FLASK_DEBUG", "1")
    app = create_app(table, host_pin=PIN, data_dir=tmp_path)
    assert app.debug is False and app.config["DEBUG"] is False


def test_a_short_host_pin_is_refused(table, tmp_path):
    with pytest.raises(ValueError):
        create_app(table, host_pin="123", data_dir=tmp_path)


def test_tokens_have_at_least_128_random_bits_and_differ(tmp_path):
    tokens = SeatTokens(tmp_path).issue_all(["red", "blue", "green"])
    assert len(set(tokens.values())) == 3
    assert all(len(t) >= 43 for t in tokens.values())  # 32 bytes, url-safe base64


def test_tokens_survive_a_restart_in_a_private_file(table, tmp_path):
    app = create_app(table, host_pin=PIN, data_dir=tmp_path)
    tokens = app.extensions["riskboard"].seats.issue_all(["red", "blue", "green"])
    mode = stat.S_IMODE((tmp_path / SeatTokens.FILE_NAME).stat().st_mode)
    assert mode == 0o600
    restarted = create_app(table, host_pin=PIN, data_dir=tmp_path).test_client()
    assert restarted.get("/api/me", headers=seat(tokens["green"])).get_json() == {
        "player": "green"}


def test_token_lookup_rejects_prefixes_and_near_misses(tmp_path):
    seats = SeatTokens(tmp_path)
    token = seats.issue_all(["red"])["red"]
    assert seats.player_for(token) == "red"
    assert seats.player_for(token[:-1]) is None
    assert seats.player_for(token + "A") is None
    assert seats.player_for("") is None and seats.player_for(None) is None
    assert seats.player_for("é" * 43) is None


def test_tickets_are_single_use_and_expire():
    now = [0.0]
    tickets = StreamTickets(ttl_seconds=30, clock=lambda: now[0])
    t = tickets.issue("red")
    assert tickets.redeem(t) == "red"
    assert tickets.redeem(t) is None
    late = tickets.issue("blue")
    now[0] = 31.0
    assert tickets.redeem(late) is None


def test_rate_limiter_refills_over_time():
    now = [0.0]
    limiter = RateLimiter(rate=1.0, burst=2, clock=lambda: now[0])
    assert [limiter.allow("a") for _ in range(3)] == [True, True, False]
    assert limiter.allow("b") is True  # per client
    now[0] = 1.0
    assert limiter.allow("a") is True and limiter.allow("a") is False


def test_the_token_never_appears_in_a_response_header(client, tokens):
    res = client.get("/api/state", headers=seat(tokens["red"]))
    assert tokens["red"] not in str(res.headers)
