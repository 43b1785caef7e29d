"""Building the official SDK clients (`new_client`): retries off, and no CA store loaded
for a plain-http base URL (the emulators, and cassettes recorded from them), where each
client would otherwise spend ~20 ms loading one it never uses."""

from __future__ import annotations

import functools
import ssl
from typing import Any

__all__ = ["TIMEOUT_SECONDS", "new_client"]

TIMEOUT_SECONDS = 60.0


def new_client(protocol: str, base_url: str, api_key: str,
               timeout: float = TIMEOUT_SECONDS) -> Any:
    """The official SDK client of `protocol` at `base_url`, retries off."""
    tls = _unused_tls() if base_url.startswith("http://") else None
    if protocol in {"openai_chat", "openai_responses"}:
        import openai

        return openai.OpenAI(api_key=api_key, base_url=base_url, max_retries=0,
                             timeout=timeout, **_http_client(openai, tls))
    if protocol == "anthropic":
        import anthropic

        return anthropic.Anthropic(api_key=api_key, base_url=base_url, max_retries=0,
                                   timeout=timeout, **_http_client(anthropic, tls))
    from google import genai
    from google.genai import types

    # google-genai reads `verify` for its httpx clients and `ssl` for its websockets
    # (and drops what an httpx client does not take).
    plain = {"client_args": {"verify": tls}, "async_client_args": {"verify": tls, "ssl": tls}}
    options = types.HttpOptions(base_url=base_url, timeout=int(timeout * 1000),
                                retry_options=types.HttpRetryOptions(attempts=1),
                                **(plain if tls is not None else {}))
    return genai.Client(api_key=api_key, http_options=options)


@functools.cache
def _unused_tls() -> ssl.SSLContext:
    """The TLS context of clients whose base URL is plain http (the emulators, cassettes
    recorded from them): they never shake hands, yet each SDK client would load the CA store
    (~20 ms) for one. Without CAs it verifies nothing, so a redirect to https fails closed."""
    return ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)


def _http_client(sdk: Any, tls: ssl.SSLContext | None) -> dict[str, Any]:
    """The SDK's own default HTTP client, with `tls` as its context; nothing when None."""
    return {} if tls is None else {"http_client": sdk.DefaultHttpxClient(verify=tls)}
