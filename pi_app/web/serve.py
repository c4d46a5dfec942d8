"""Serve the web app with waitress (never Flask's development server, never debug mode).

Each open event stream holds one waitress worker thread, so the pool is sized for the
phones at a table plus spares (default 64 threads: 30 phones and the host with room);
the app lets streams take at most 64 - RESERVED_THREADS of them (3 per address), so pages
and commands always find a thread. A connection silent for CHANNEL_TIMEOUT seconds is
closed (streams send a heartbeat every 15 s); see SECURITY.md for a per-source connection
cap in the firewall.
Waitress 3 flushes each written chunk at once (`send_bytes` = 1), so SSE messages leave
promptly. On shutdown the app's `stopping` event is set first, so every stream generator
returns within a second and waitress can close its channels.
"""

from __future__ import annotations

import logging
import signal
import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass

from flask import Flask
from waitress.server import create_server

log = logging.getLogger("riskboard.web")

DEFAULT_THREADS = 64
RESERVED_THREADS = 16  # never taken by event streams: pages, commands and host actions
CHANNEL_TIMEOUT = 30  # seconds a silent connection is kept; SSE heartbeats come every 15 s
CONNECTION_LIMIT = 500
# The longest the server's socket loop sleeps. Sockets and its trigger wake it for every
# request and reply; the timeout only paces its sweep for silent connections (every 30 s,
# waitress's cleanup_interval), so an idle table's loop wakes every 10 s, not every second
# (waitress's default), and a silent connection closes 30 to 70 s after its last byte.
LOOP_SLEEP_S = 10


def _server(app: Flask, host: str, port: int, threads: int,
            sockets: list[socket.socket] | None = None):
    if app.debug:
        raise RuntimeError("refusing to serve an app in debug mode")
    where = {"sockets": sockets} if sockets else {"host": host, "port": port}
    return create_server(
        app,
        **where,
        threads=threads,
        ident="riskboard",
        channel_timeout=CHANNEL_TIMEOUT,
        connection_limit=CONNECTION_LIMIT,
        asyncore_loop_timeout=LOOP_SLEEP_S,
        # lets a stream see its client leave (waitress.client_disconnected) and free its
        # thread within a second instead of at the next heartbeat
        channel_request_lookahead=1,
        clear_untrusted_proxy_headers=True,
    )


def serve_app(app: Flask, host: str = "127.0.0.1", port: int = 8080,
              threads: int = DEFAULT_THREADS, *, sockets: list[socket.socket] | None = None,
              on_ready: Callable[[int], object] | None = None) -> None:
    """Serve `app` until interrupted (Ctrl-C / SystemExit), then end every stream cleanly.

    `sockets`: listeners already bound by `pi_app.web_port.open_listeners` (then `host`
    only names the bind address for the app and `port` is unused). `on_ready(port)` is
    called once the port accepts connections, just before requests are served."""
    server = _server(app, host, port, threads, sockets)
    context = app.extensions["riskboard"]
    context.bind_host = host
    stopping = context.stopping
    log.info("event=web.serve host=%s port=%s threads=%s", host, server.effective_port, threads)

    def _interrupt(signum: int, frame: object) -> None:
        # streams must see `stopping` before waitress waits for its worker threads
        stopping.set()
        raise KeyboardInterrupt

    previous = {}
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGINT, signal.SIGTERM):
            previous[sig] = signal.signal(sig, _interrupt)
    try:
        if on_ready is not None:
            on_ready(int(server.effective_port))
        server.run()  # returns after shutting its task threads down on KeyboardInterrupt
    finally:
        stopping.set()
        server.close()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        log.info("event=web.stopped")


@dataclass
class BackgroundServer:
    """A waitress server running in a thread (tests, benchmarks); `stop()` ends it."""

    app: Flask
    server: object
    thread: threading.Thread

    @property
    def port(self) -> int:
        """The port actually bound (useful with port 0)."""
        return int(self.server.effective_port)  # type: ignore[attr-defined]

    @property
    def url(self) -> str:
        """The base URL, e.g. http://127.0.0.1:54321."""
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        """End every stream, close the listening socket and wait for the loop to end."""
        self.app.extensions["riskboard"].stopping.set()
        server = self.server
        # streams end within a second; let their tasks finish while the loop still runs
        server.task_dispatcher.shutdown(cancel_pending=False, timeout=3)  # type: ignore

        def close_everything() -> None:  # runs on the loop's own thread: no select() race
            for channel in list(server._map.values()):  # type: ignore[attr-defined]
                if channel is not server and channel is not server.trigger:  # type: ignore
                    channel.close()
            server.close()  # type: ignore[attr-defined]  # also closes the trigger

        try:
            server.trigger.pull_trigger(close_everything)  # type: ignore[attr-defined]
        except OSError:
            # the loop is ending or has ended and closed its trigger (seen once under
            # heavy load): there is nothing left for it to close; wait for it below
            pass
        self.thread.join(timeout=5)


def start_background(app: Flask, host: str = "127.0.0.1", port: int = 0,
                     threads: int = DEFAULT_THREADS, *,
                     sockets: list[socket.socket] | None = None) -> BackgroundServer:
    """Start serving `app` on a thread and return at once (`sockets`: listeners already
    bound by `pi_app.web_port.open_listeners`, as in `serve_app`)."""
    server = _server(app, host, port, threads, sockets)
    app.extensions["riskboard"].bind_host = host
    thread = threading.Thread(target=server.run, name="waitress", daemon=True)
    thread.start()
    return BackgroundServer(app, server, thread)
