"""The bring-up page (/bringup) and its API under /api/host/bringup (host PIN, as every
host route): start and stop a bring-up, answer it, read it (long-polled: `after` and
`wait`), preview the profile it learned (text, diff, sensor CRC) and save it, which loads
it live. The table side is `pi_app.table.bringup_desk`; a table without one (the test
doubles) answers 404 `no_bringup_here`."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, render_template, request

from pi_app.web.context import ctx, json_object, require_host
from pi_app.web.errors import ApiError

bringup_api = Blueprint("bringup_api", __name__, url_prefix="/api/host/bringup")
bringup_pages = Blueprint("bringup_pages", __name__)
LONGEST_WAIT_S = 10.0


@bringup_pages.get("/bringup")
def bringup_page():
    """The maker's bring-up page: phone first, host only."""
    return render_template("bringup.html", page="bringup", title="Bring-up")


def _desk() -> Any:
    finder = getattr(ctx().table, "bringup_desk", None)  # the starting table forwards it
    desk = finder() if finder is not None else None
    if desk is None:
        raise ApiError(404, "no_bringup_here", "This table cannot run a bring-up.")
    return desk


def _call(action: Any) -> Any:
    from pi_app.table.bringup_desk import BringUpRefused

    try:
        return action()
    except BringUpRefused as exc:
        raise ApiError(exc.status, exc.code, exc.message, params=exc.params or None) from exc


@bringup_api.get("")
def read():
    """The bring-up's state; `after=<desk_revision>&wait=<s>` waits for a change first."""
    require_host()
    desk = _desk()
    after = request.args.get("after", type=int)
    wait = min(max(request.args.get("wait", 0.0, type=float), 0.0), LONGEST_WAIT_S)
    if after is not None and wait > 0:
        desk.wait(after, wait)
    return jsonify(desk.state())


@bringup_api.post("/start")
def start():
    """Begin a bring-up (a running game is paused until it ends)."""
    require_host()
    body = json_object({"pace"}) if request.content_length else {}
    pace = body.get("pace")
    if pace is not None and (not isinstance(pace, int | float) or isinstance(pace, bool)):
        raise ApiError(400, "bad_pace", "The pace is a number of seconds.")
    desk = _desk()
    return jsonify(_call(lambda: desk.start(None if pace is None else float(pace))))


@bringup_api.post("/stop")
def stop():
    """End the bring-up without saving; the game comes back as it was."""
    require_host()
    desk = _desk()
    return jsonify(_call(desk.stop))


@bringup_api.post("/answer")
def answer():
    """One answer of the maker: {"what": ..., "value": ...}."""
    require_host()
    body = json_object({"what", "value"}, {"what"})
    what = body["what"]
    if not isinstance(what, str) or len(what) > 32:
        raise ApiError(400, "bad_answer", "An answer names what it answers.")
    value = body.get("value")
    if not (value is None or (isinstance(value, str | int) and len(str(value)) <= 64)):
        raise ApiError(400, "bad_answer", "An answer's value is a short word or a number.")
    desk = _desk()
    return jsonify(_call(lambda: desk.answer(what, value)))


@bringup_api.get("/preview")
def preview():
    """What saving would write: the profile text, its diff and its sensor CRC."""
    require_host()
    desk = _desk()
    return jsonify(_call(desk.preview))


@bringup_api.post("/save")
def save():
    """Validate, write (the previous file kept as .bak) and load the profile live."""
    require_host()
    body = json_object({"pico_later"})
    desk = _desk()
    return jsonify(_call(lambda: desk.save(pico_later=body.get("pico_later") is True)))
