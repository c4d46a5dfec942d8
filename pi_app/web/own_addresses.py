"""This machine's own addresses, and whether a request comes from this machine itself.

The bottom of the web's imports: the error handlers, the request context, the API and the
host's pages all ask it, and it asks none of them.
"""

from __future__ import annotations

import ipaddress
import socket
import time
from pathlib import Path

from flask import request


def from_this_machine() -> bool:
    """True when the request comes from this machine itself (a loopback address or one of
    its own interfaces' addresses): its owner, who may read the data folder anyway."""
    try:
        address = ipaddress.ip_address((request.remote_addr or "").split("%", 1)[0])
    except ValueError:
        return False
    mapped = getattr(address, "ipv4_mapped", None)
    address = mapped or address
    if address.is_loopback:
        return True
    return str(address) in _own_addresses()


_OWN: tuple[float, frozenset[str]] = (0.0, frozenset())


def _own_addresses() -> frozenset[str]:
    """This machine's interface addresses, looked up at most once a minute."""
    global _OWN
    now = time.monotonic()
    if now - _OWN[0] > 60.0 or not _OWN[0]:
        _OWN = (now, frozenset(interface_addresses()))
    return _OWN[1]


def interface_addresses() -> set[str]:
    """Every interface's IPv4 address (SIOCGIFADDR) and IPv6 addresses (/proc/net/if_inet6)
    on Linux, e.g. a Pi that is its own Wi-Fi access point and has no default route."""
    found: set[str] = set()
    try:
        import fcntl
        import struct

        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            for _index, name in socket.if_nameindex():
                try:
                    packed = fcntl.ioctl(s.fileno(), 0x8915,  # SIOCGIFADDR
                                         struct.pack("256s", name[:15].encode()))
                except OSError:
                    continue
                found.add(socket.inet_ntoa(packed[20:24]))
    except (ImportError, OSError, AttributeError):
        pass
    try:
        for line in Path("/proc/net/if_inet6").read_text().splitlines():
            raw = bytes.fromhex(line.split()[0])
            found.add(socket.inet_ntop(socket.AF_INET6, raw))
    except (OSError, ValueError, IndexError):
        pass
    return found
