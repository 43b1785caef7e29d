"""Refuse outbound connections to anything but loopback.

CI has no network, and a replay that silently tried the vendor would look like a vendor
outage. With the guard on, a connection to any non-loopback address raises
NetworkBlockedError at once, naming the address and how to run live instead.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from conformance.errors import NetworkBlockedError  # defined with the suite's other errors

_original_connect = socket.socket.connect
_original_connect_ex = socket.socket.connect_ex
_original_getaddrinfo = socket.getaddrinfo


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
        "Replays and emulator runs never leave 127.0.0.1; run live with --backend live "
        "(or --live) and a key to reach a vendor.")


def _guarded_connect(self: socket.socket, address: Any) -> None:
    if self.family in (socket.AF_INET, socket.AF_INET6) and not _loopback(address[0]):
        raise _refuse(address)
    _original_connect(self, address)


def _guarded_connect_ex(self: socket.socket, address: Any) -> int:
    if self.family in (socket.AF_INET, socket.AF_INET6) and not _loopback(address[0]):
        raise _refuse(address)
    return _original_connect_ex(self, address)


def _guarded_getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
    if host is not None and not _loopback(host if isinstance(host, str) else str(host)):
        raise _refuse(host)
    return _original_getaddrinfo(host, *args, **kwargs)


def install() -> None:
    socket.socket.connect = _guarded_connect  # type: ignore[method-assign]
    socket.socket.connect_ex = _guarded_connect_ex  # type: ignore[method-assign]
    socket.getaddrinfo = _guarded_getaddrinfo


def uninstall() -> None:
    socket.socket.connect = _original_connect  # type: ignore[method-assign]
    socket.socket.connect_ex = _original_connect_ex  # type: ignore[method-assign]
    socket.getaddrinfo = _original_getaddrinfo


@contextmanager
def loopback_only() -> Iterator[None]:
    install()
    try:
        yield
    finally:
        uninstall()
