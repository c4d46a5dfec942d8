"""The service over HTTP as the checks reach it (tools/pibox/web.py)."""

from __future__ import annotations

from typing import Any

import pytest

from tools.pibox import web
from tools.pibox.errors import CheckFailed


def test_a_rate_limited_read_is_waited_out_as_a_phone_would(
        monkeypatch: pytest.MonkeyPatch) -> None:
    answers = [(429, {"error": {"code": "rate_limited"}})] * 3 + [(200, {"state": {"seq": 7}})]
    monkeypatch.setattr(web, "http_request", lambda *a, **k: answers.pop(0))
    slept: list[float] = []
    monkeypatch.setattr(web.time, "sleep", slept.append)
    assert web.get_json("/api/state", {"X-Seat-Token": "t"}) == {"state": {"seq": 7}}
    assert slept == [1, 1, 1]


def test_a_read_refused_otherwise_fails_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    answers: list[tuple[int, Any]] = [(403, "no seat")]
    monkeypatch.setattr(web, "http_request", lambda *a, **k: answers.pop(0))
    with pytest.raises(CheckFailed, match="GET /api/state answered 403: no seat"):
        web.get_json("/api/state")
