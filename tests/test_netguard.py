"""Tests and replays reach only loopback: an outbound attempt fails at once, loudly."""

from __future__ import annotations

import socket

import pytest

from conformance.clients import send
from conformance.netguard import NetworkBlockedError


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
