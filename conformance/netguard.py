"""Refuse outbound connections to anything but loopback, for the length of a `with` block.

CI has no network, and a replay that silently tried the vendor would look like a vendor
outage. Inside `loopback_only()`, a connection to any non-loopback address raises
NetworkBlockedError at once, naming the address and how to run live instead.

The pytest plugin wraps each scenario item's run in it, and nothing else: a project's own
tests (a CI database host, say) never meet the guard. The block restores exactly what it
found, so guards nest (this repository's own tests run under one for the whole session).
Standard library only: the plugin imports it in any pytest run.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from conformance.errors import NetworkBlockedError  # defined with the suite's other errors


def _loopback(host: Any) -> bool:
    if not isinstance(host, str):
        return False
    if host in {"localhost", "localhost.localdomain"}:
        return True
    try:
        return ipaddress.ip_address(host.split("%")[0]).is_loopback
    except ValueError:
        return False


def _refuse(address: Any) -> NetworkBlockedError:
    return NetworkBlockedError(
        f"outbound network blocked by provider-conformance: {address!r} is not loopback. "
        "Replays and emulator runs never leave 127.0.0.1; to reach a vendor, run live with "
        "a key (`conformance run --backend live`, or pytest `--conformance-backend live`).")


def _inet(sock: socket.socket) -> bool:
    return sock.family in (socket.AF_INET, socket.AF_INET6)


Patched = tuple[Callable[..., Any], Callable[..., Any], Callable[..., Any]]


def _current() -> Patched:
    return socket.socket.connect, socket.socket.connect_ex, socket.getaddrinfo


def _put(functions: Patched) -> None:
    socket.socket.connect, socket.socket.connect_ex, socket.getaddrinfo = functions  # type: ignore[method-assign]


def _guarded(found: Patched) -> Patched:
    """Guards in front of the functions in place now (which may be another guard)."""
    connect, connect_ex, getaddrinfo = found

    def guarded_connect(self: socket.socket, address: Any) -> None:
        if _inet(self) and not _loopback(address[0]):
            raise _refuse(address)
        connect(self, address)

    def guarded_connect_ex(self: socket.socket, address: Any) -> int:
        if _inet(self) and not _loopback(address[0]):
            raise _refuse(address)
        return int(connect_ex(self, address))

    def guarded_getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
        if host is not None and not _loopback(host if isinstance(host, str) else str(host)):
            raise _refuse(host)
        return getaddrinfo(host, *args, **kwargs)

    return guarded_connect, guarded_connect_ex, guarded_getaddrinfo


@contextmanager
def loopback_only() -> Iterator[None]:
    """Loopback only inside the block; on the way out (raised or not) the socket functions
    are exactly what they were on the way in."""
    found = _current()
    _put(_guarded(found))
    try:
        yield
    finally:
        _put(found)
