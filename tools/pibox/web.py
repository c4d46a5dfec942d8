"""The service over HTTP, as a phone or the host page reaches it (the box shares the network)."""

from __future__ import annotations

import http.client
import json
import socket
import time
from typing import Any

from tools.pibox.constants import PORT
from tools.pibox.errors import CheckFailed


def get_json(path: str, headers: dict[str, str] | None = None) -> Any:
    """GET that must answer 200; a 429 (a seat's /api/state is rate limited per address since
    issue 34.5, and the checks read it at every move) is waited out as a phone would, up to
    a minute."""
    status, data = http_request("GET", path, headers=headers)
    for _ in range(60):
        if status != 429:
            break
        time.sleep(1)
        status, data = http_request("GET", path, headers=headers)
    if status != 200:
        raise CheckFailed(f"GET {path} answered {status}: {str(data)[:300]}")
    return data


def http_request(method: str, path: str, body: Any = None,
                 headers: dict[str, str] | None = None, timeout: float = 60,
                 source: str = "127.0.0.1") -> tuple[int, Any]:
    """One request to the service; returns (status, decoded JSON or text)."""
    conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=timeout,
                                      source_address=(source, 0))
    try:
        data = json.dumps(body) if body is not None else None
        hdrs = dict(headers or {})
        if data is not None:
            hdrs["Content-Type"] = "application/json"
        conn.request(method, path, body=data, headers=hdrs)
        resp = conn.getresponse()
        raw = resp.read().decode("utf-8", "replace")
        try:
            return resp.status, json.loads(raw)
        except ValueError:
            return resp.status, raw
    finally:
        conn.close()


def post_json(path: str, body: Any, headers: dict[str, str]) -> Any:
    """POST that must answer 200; a 429 (the service's rate limit for one phone) is waited
    out as a phone would, up to a minute."""
    status, data = http_request("POST", path, body, headers)
    for _ in range(60):
        if status != 429:
            break
        time.sleep(1)
        status, data = http_request("POST", path, body, headers)
    if status != 200:
        raise CheckFailed(f"POST {path} {json.dumps(body)[:200]} answered {status}: "
                          f"{str(data)[:300]}")
    return data


def port_accepts(timeout: float = 2.0) -> bool:
    """Whether the web port accepts a TCP connection right now."""
    try:
        with socket.create_connection(("127.0.0.1", PORT), timeout=timeout):
            return True
    except OSError:
        return False


def wait_port(timeout: float = 180) -> None:
    """Wait until the web port accepts connections (the service is serving)."""
    deadline = time.monotonic() + timeout
    while not port_accepts():
        if time.monotonic() > deadline:
            raise CheckFailed(f"the web port {PORT} did not accept connections within "
                              f"{timeout:.0f} s")
        time.sleep(0.5)


def link_status() -> dict[str, Any]:
    """/api/status's link part."""
    return dict(get_json("/api/status").get("link") or {})


def wait_link(other_than_epoch: int | None = None, timeout: float = 300) -> dict[str, Any]:
    """The link's status once it is connected (to a Pico boot other than
    `other_than_epoch`, if given), or as it stands after `timeout` seconds: the emulated Pico
    boots MicroPython 5-20x slower than a real one."""
    deadline = time.monotonic() + timeout
    link = link_status()
    while not (link.get("connected") and (other_than_epoch is None
                                          or link.get("epoch") != other_than_epoch)):
        if time.monotonic() > deadline:
            break
        time.sleep(1)
        link = link_status()
    return link
