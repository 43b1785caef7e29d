"""Test helper: send a request body, as a vendor receives it, through the protocol's
unmodified official SDK pointed at the emulator (base URL only, no retries), by way of the
suite's one SDK seam (conformance/clients.py). Used by the emulator's tests.

`send(...)` returns the SDK's parsed response (for a stream: the list of parsed events or
chunks) or raises the SDK's own exception; `sdk_error(exc)` reads status and message from
any of them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import anthropic
import openai
from google.genai import errors as genai_errors

from conformance.classify import error_fields
from conformance.clients import call, new_client

KEY = "emulator-test-key"  # any key is accepted; never a real one


@dataclass(frozen=True, slots=True)
class SdkError:
    status: int
    message: str


def client(protocol: str, base_url: str, *, timeout: float = 30.0) -> Any:
    """The official SDK client for `protocol` at `base_url` (an Emulator.sdk_base_url)."""
    return new_client(protocol, base_url, KEY, timeout)


def send(protocol: str, sdk: Any, body: Mapping[str, Any], *, model: str | None = None,
         stream: bool = False) -> Any:
    """`body` through the SDK's usual call. `model` is needed for Gemini (it goes in the
    URL); streams (asked for here or by the body's `stream: true`) are read to the end."""
    if stream or body.get("stream"):
        rest = {k: v for k, v in body.items() if k != "stream"}
        return list(call(protocol, sdk, rest, model=model, stream=True))
    return call(protocol, sdk, body, model=model)


def refused(protocol: str, sdk: Any, body: Mapping[str, Any], *,
            model: str | None = None) -> SdkError:
    """What the vendor (the emulator) answers `body` with, which must be an error status:
    an AssertionError where the SDK call succeeds."""
    try:
        send(protocol, sdk, body, model=model)
    except (genai_errors.APIError, anthropic.APIStatusError, openai.APIStatusError) as exc:
        return sdk_error(exc)
    raise AssertionError(f"{protocol}: the body was accepted")


def sdk_error(exc: BaseException) -> SdkError:
    """Status and the vendor's message text, from whichever SDK raised `exc`."""
    if isinstance(exc, genai_errors.APIError):
        return SdkError(exc.code, exc.message or "")
    if isinstance(exc, anthropic.APIStatusError):
        body = exc.body if isinstance(exc.body, Mapping) else {}
        inner = body.get("error", {})
        return SdkError(exc.status_code, str(inner.get("message", "")))
    if isinstance(exc, openai.APIStatusError):  # the error object, flat or a detail list
        return SdkError(exc.status_code, error_fields(exc.body)[2])
    raise TypeError(f"not an SDK status error: {exc!r}") from exc


def text_of(protocol: str, reply: Any) -> str:
    """The assistant text of a parsed response, or of the events of a stream."""
    if isinstance(reply, list):
        return "".join(_delta_text(protocol, event) for event in reply)
    if protocol == "openai_chat":
        return reply.choices[0].message.content or ""
    if protocol == "openai_responses":
        return reply.output_text
    if protocol == "anthropic":
        return "".join(block.text for block in reply.content if block.type == "text")
    return reply.text or ""


def _delta_text(protocol: str, event: Any) -> str:
    if protocol == "openai_chat":
        return "".join(c.delta.content or "" for c in event.choices)
    if protocol == "openai_responses":
        return event.delta if event.type == "response.output_text.delta" else ""
    if protocol == "anthropic":
        delta = getattr(event, "delta", None)
        return getattr(delta, "text", "") if event.type == "content_block_delta" else ""
    return event.text or ""
