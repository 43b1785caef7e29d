"""Building the SDK clients (conformance/sdk_clients.py): a plain-http base URL gets one
shared TLS context with no CA (it never shakes hands; a redirect to https fails closed),
an https one keeps each SDK's own default context, and every SDK still answers over it."""

from __future__ import annotations

import ssl
from typing import Any

import pytest
from loopback import Answer, Loopback

from conformance.clients import send
from conformance.sdk_clients import new_client

USER = {"role": "user", "content": "hi"}
BODIES: dict[str, dict[str, Any]] = {
    "openai_chat": {"messages": [USER]}, "openai_responses": {"input": [USER]},
    "anthropic": {"max_tokens": 8, "messages": [USER]},
    "gemini": {"contents": [{"role": "user", "parts": [{"text": "hi"}]}]}}
PROTOCOLS = list(BODIES)


def _contexts(client: Any) -> list[ssl.SSLContext]:
    """The TLS contexts an SDK client's HTTP pools hold (httpx/httpx2 internals)."""
    inner = getattr(client, "_client", None) or client._api_client._httpx_client
    pool = inner._transport._pool
    return [pool._ssl_context]


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_plain_http_clients_share_one_context_without_a_ca(protocol: str) -> None:
    a, b = (new_client(protocol, f"http://127.0.0.1:9/{n}", "k") for n in "ab")
    (ctx_a,), (ctx_b,) = _contexts(a), _contexts(b)
    assert ctx_a is ctx_b
    assert ctx_a.verify_mode == ssl.CERT_REQUIRED and ctx_a.check_hostname
    assert ctx_a.cert_store_stats()["x509_ca"] == 0


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_https_clients_keep_the_sdks_own_context(protocol: str) -> None:
    (ctx,) = _contexts(new_client(protocol, "https://vendor.example/v1", "k"))
    plain = _contexts(new_client(protocol, "http://127.0.0.1:9/v1", "k"))[0]
    assert ctx is not plain and ctx.verify_mode == ssl.CERT_REQUIRED


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_a_plain_http_client_still_reaches_the_server(protocol: str) -> None:
    with Loopback(Answer.json({"error": {"message": "no"}}, 400)) as server:
        outcome = send(protocol, base_url=server.url, api_key="k", model="m",
                       body=BODIES[protocol])
    assert outcome.status == 400 and server.bodies
