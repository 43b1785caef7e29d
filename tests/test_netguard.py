"""Tests and replays reach only loopback: an outbound attempt fails at once, loudly."""

from __future__ import annotations

import socket

import pytest

from conformance.clients import send
from conformance.netguard import NetworkBlockedError, loopback_only


def test_outbound_socket_fails_loudly() -> None:
    with pytest.raises(NetworkBlockedError, match="is not loopback"):
        socket.create_connection(("203.0.113.9", 443), timeout=1)


def test_outbound_dns_fails_loudly() -> None:
    with pytest.raises(NetworkBlockedError, match=r"api\.openai\.com"):
        socket.getaddrinfo("api.openai.com", 443)


def test_sdk_call_to_a_vendor_is_reported_not_hidden() -> None:
    outcome = send("openai_chat", base_url="https://api.openai.com/v1", api_key="k-test",
                   model="gpt-4.1-mini", body={"messages": [{"role": "user", "content": "hi"}]})
    assert outcome.failure == "connection"
    assert "outbound network blocked" in outcome.detail


def test_loopback_still_allowed() -> None:
    server = socket.create_server(("127.0.0.1", 0))
    try:
        socket.create_connection(server.getsockname(), timeout=1).close()
    finally:
        server.close()


def test_guard_ends_with_its_block_even_after_a_failure() -> None:
    found = (socket.socket.connect, socket.socket.connect_ex, socket.getaddrinfo)
    with pytest.raises(RuntimeError), loopback_only():
        assert socket.getaddrinfo is not found[2]
        raise RuntimeError("the item failed")
    assert (socket.socket.connect, socket.socket.connect_ex, socket.getaddrinfo) == found


def test_guards_nest_and_loopback_passes_both() -> None:
    server = socket.create_server(("127.0.0.1", 0))
    try:
        with loopback_only(), loopback_only():
            socket.create_connection(server.getsockname(), timeout=1).close()
            with pytest.raises(NetworkBlockedError):
                socket.create_connection(("192.0.2.1", 9), timeout=0.01)
    finally:
        server.close()
