"""Errors as JSON with a stable code and a sentence: never a bare 500 page."""

from __future__ import annotations

import logging
from typing import Any

from flask import Flask, Response, jsonify, request
from werkzeug.exceptions import HTTPException

from pi_app.table_api import CommandRejected
from pi_app.web.own_addresses import from_this_machine

log = logging.getLogger("riskboard.web")


class ApiError(Exception):
    """A request the web refuses: HTTP status, stable code, a sentence for the player, and
    the `params` a page fills its own words for that code with (e.g. `wait` seconds)."""

    def __init__(self, status: int, code: str, message: str,
                 fields: dict[str, str] | None = None,
                 params: dict[str, Any] | None = None,
                 problems: dict[str, dict[str, Any]] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.fields = fields
        self.params = params
        self.problems = problems


def error_response(status: int, code: str, message: str,
                   fields: dict[str, str] | None = None,
                   params: dict[str, Any] | None = None,
                   problems: dict[str, dict[str, Any]] | None = None) -> tuple[Response, int]:
    """The one JSON error shape: `{"error": {"code": ..., "message": ...}}`, plus
    `"params": {...}` that the page's words for the code are filled with, and when several
    inputs of a form were wrong `"fields": {name: sentence}` with
    `"problems": {name: {"code": ..., "params": {...}}}` (the same, by stable code).
    `message` and `fields` are English, for API users and the CLI; pages word the codes."""
    error: dict[str, object] = {"code": code, "message": message}
    if params:
        error["params"] = params
    if fields:
        error["fields"] = fields
    if problems:
        error["problems"] = problems
    return jsonify({"error": error}), status


def _public(exc: CommandRejected) -> str:
    """The refusal's sentence as the requester may read it: why the table could not start
    names the machine's paths and devices (a journal, the Pico's port), so only the
    machine itself reads it; everyone else learns that it did not start."""
    if exc.code == "table_starting" and "could not start" in exc.message \
            and not from_this_machine():
        return ("The table is not ready: it could not start. The Pi's console and "
                "`riskboard doctor` on the Pi say why.")
    return exc.message


def install_error_handlers(app: Flask) -> None:
    """Turn every refusal, HTTP error and unexpected crash into the JSON error shape."""

    @app.errorhandler(ApiError)
    def _api_error(exc: ApiError):
        return error_response(exc.status, exc.code, exc.message, exc.fields, exc.params,
                              exc.problems)

    @app.errorhandler(CommandRejected)
    def _rejected(exc: CommandRejected):
        return error_response(exc.status, exc.code, _public(exc))

    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException):
        code = (exc.name or "error").lower().replace(" ", "_")
        messages = {
            404: "There is nothing at this address.",
            405: "This address does not accept that method.",
            413: "The request body is too large.",
        }
        message = messages.get(exc.code or 0, exc.description or exc.name)
        return error_response(exc.code or 500, code, message)

    @app.errorhandler(Exception)
    def _crash(exc: Exception):
        log.exception("event=web.error path=%s", request.path)
        return error_response(500, "internal", "The table hit an internal error; it was logged.")
