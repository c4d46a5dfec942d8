"""The web port, bound before anything else of the service starts.

`riskboard serve` binds and listens here first (standard library only, so it costs no
import time): a port already taken, an address that is not this machine's or a port below
1024 without the right to it stops the service with one sentence (`PortUnavailable`,
exit code `EXIT_PORT_UNAVAILABLE`) before the journal is opened or a device touched, and
from the moment `open_listeners` returns the port accepts connections (the kernel queues
them until waitress takes them over with `sockets=`), so READY can be told to systemd
truthfully.
"""

from __future__ import annotations

import errno
import socket

EXIT_PORT_UNAVAILABLE = 3
BACKLOG = 1024  # waitress's own default


class PortUnavailable(OSError):
    """The web port cannot be bound; the message is the sentence to print."""


def _sentence(host: str, port: int, exc: OSError) -> str:
    where = f"port {port} on {host or 'every address'}"
    if exc.errno == errno.EADDRINUSE:
        return (f"{where} is already in use by another program (another riskboard? "
                "`systemctl status riskboard` shows the service); stop it, or choose another "
                "port with --port or web.port in the config")
    if exc.errno in (errno.EACCES, errno.EPERM):
        return (f"{where} needs privileges this user does not have (ports below 1024 do); "
                "use a port of 1024 or more, e.g. --port 8080")
    if exc.errno == errno.EADDRNOTAVAIL:
        return (f"{host} is not an address of this machine, so {where} cannot be used; "
                "use 0.0.0.0 (every address) or 127.0.0.1 in --host or web.host")
    return f"{where} cannot be opened: {exc.strerror or exc}"


def open_listeners(host: str, port: int) -> list[socket.socket]:
    """Bind and listen on `host`:`port` (every address `host` resolves to, as waitress
    would); raise `PortUnavailable` with a sentence when that is not possible."""
    try:
        infos = socket.getaddrinfo(host or None, port, socket.AF_UNSPEC, socket.SOCK_STREAM,
                                   0, socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise PortUnavailable(
            f"the web address {host!r} is not a name or address this machine knows "
            f"({exc.strerror}); use 0.0.0.0 (every address) or 127.0.0.1") from None
    sockets: list[socket.socket] = []
    seen = set()
    try:
        for family, kind, proto, _name, address in infos:
            if port:  # port 0 asked: every address of a name takes the port the first got
                address = (address[0], port, *address[2:])
            if address in seen:
                continue
            seen.add(address)
            sock = socket.socket(family, kind, proto)
            sockets.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            try:
                sock.bind(address)
            except OSError as exc:
                raise PortUnavailable(_sentence(host, port, exc)) from None
            sock.listen(BACKLOG)
            port = sock.getsockname()[1]
    except BaseException:
        for sock in sockets:
            sock.close()
        raise
    return sockets


def bound_port(sockets: list[socket.socket]) -> int:
    """The port the listeners are bound to (the chosen one when asked for port 0)."""
    return int(sockets[0].getsockname()[1])
