"""What came back -> verdict. A pure table; no SDK types here (clients.py turns SDK
results and exceptions into an Outcome first).

    2xx                                  accept
    400, 413, 422                        reject (about the history), unless the vendor's
                                         error type, code or text says it is about the
                                         key, the context length or the model: inconclusive
                                         (413: a body too large, made so by its images)
    401 403 404 408 409 429 5xx, other   inconclusive (never a verdict about the history)
    timeout, connection error            inconclusive
    the SDK refused before sending       inconclusive (reported with the SDK's reason)

An inconclusive HTTP answer carries a `failure` kind: auth, context, model, not-found,
rate-limit, server or other. Without an HTTP answer, `reason` starts with what failed
instead (timeout, connection, sdk, no-key, no-cassette, cassette-mismatch).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Literal

Kind = Literal["accept", "reject", "inconclusive"]
# 413: Anthropic's "Request exceeds the maximum size" (32 MB), which a history's images
# reach (anthropics/claude-code#13501); a 413 about the context window is "context" below.
REJECT_STATUSES = frozenset({400, 413, 422})

# 4xx answers that are about the key, the context window or the model, not the history.
# Matched on the vendor's error type/code (and Gemini's details[].reason), lower-cased, or
# on its text. Sources of the texts: tests/test_classify.py.
_NOT_ABOUT_THE_HISTORY: tuple[tuple[str, frozenset[str], re.Pattern[str]], ...] = (
    ("auth", frozenset({"api_key_invalid", "invalid_api_key", "authentication_error",
                        "permission_error", "unauthenticated", "permission_denied"}),
     re.compile(r"api key not (valid|found)|invalid (x-)?api[ _-]key|incorrect api key",
                re.I)),
    ("context", frozenset({"context_length_exceeded"}),
     re.compile(r"prompt is too long|maximum context length|context length exceeded|"
                r"exceeds model context window", re.I)),
    ("model", frozenset({"model_not_found", "invalid_model"}),
     re.compile(r"\bmodel\b[^.]*\bdoes not exist|not found for api version|"
                r"invalid model", re.I)),
)
_STATUS_FAILURE = {401: "auth", 403: "auth", 404: "not-found", 429: "rate-limit"}


@dataclass(frozen=True, slots=True)
class Outcome:
    """One request's result, SDK-independent. `failure` is set when no HTTP status came
    back: "timeout", "connection" or "sdk" (the SDK refused the request itself)."""

    status: int | None
    body: Any = None
    failure: str | None = None
    detail: str = ""
    retry_after: float | None = None  # seconds, from a Retry-After header (429/503)


@dataclass(frozen=True, slots=True)
class Verdict:
    """What a request's outcome says about the history: accept, reject or inconclusive, with the
    vendor's status, error type, code and message, and why it is inconclusive."""

    kind: Kind
    status: int | None
    error_type: str | None = None
    error_code: str | None = None
    message: str = ""
    reason: str = ""  # why inconclusive
    failure: str = ""  # an inconclusive HTTP answer: auth, context, model, not-found, ...

    def to_json(self) -> dict[str, Any]:
        """The verdict's fields as a row of strictness.json (`failure` only when set)."""
        found = {"verdict": self.kind, "status": self.status, "error_type": self.error_type,
                 "error_code": self.error_code, "message": self.message,
                 "reason": self.reason}
        # Written only when set, so matrices from before this field read the same.
        return {**found, "failure": self.failure} if self.failure else found

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Verdict:
        """The inverse of to_json."""
        return cls(data["verdict"], data.get("status"), data.get("error_type"),
                   data.get("error_code"), data.get("message") or "",
                   data.get("reason") or "", data.get("failure") or "")


def classify(outcome: Outcome) -> Verdict:
    """The verdict of one outcome: 2xx accept; 400/413/422 reject unless the error body is about
    the key, the context length or the model; anything else, or no HTTP answer, inconclusive."""
    if outcome.failure is not None:
        return Verdict("inconclusive", None, reason=f"{outcome.failure}: {outcome.detail}".strip())
    status = outcome.status or 0
    if 200 <= status < 300:
        return Verdict("accept", status)
    kind_, code, message = error_fields(outcome.body)
    about = not_about_the_history(outcome.body) if 400 <= status < 500 else ""
    if status in REJECT_STATUSES and not about:
        return Verdict("reject", status, kind_, code, message)
    failure = about or _STATUS_FAILURE.get(status) or ("server" if status >= 500 else "other")
    reason = (f"HTTP {status} is about the {_ABOUT[about]}, not the history" if about
              else f"HTTP {status} is not about the history")
    return Verdict("inconclusive", status, kind_, code, message, reason=reason,
                   failure=failure)


_ABOUT = {"auth": "API key", "context": "context length", "model": "model"}


def not_about_the_history(body: Any) -> str:
    """"auth", "context" or "model" when a 4xx error body says the request failed for its
    key, its length or its model (so it says nothing about the history), else ""."""
    signals = set(_signals(body))
    message = error_fields(body)[2]
    for failure, codes, text in _NOT_ABOUT_THE_HISTORY:
        if signals & codes or text.search(message):
            return failure
    return ""


def _signals(body: Any) -> Iterator[str]:
    """The error's type, code and status, and Gemini's `details[].reason`, lower-cased."""
    if not isinstance(body, Mapping):
        return
    inner = body.get("error") if isinstance(body.get("error"), Mapping) else body
    for key in ("type", "code", "status"):
        if isinstance(inner.get(key), str):
            yield inner[key].lower()
    details = inner.get("details")
    for detail in details if isinstance(details, list) else ():
        if isinstance(detail, Mapping) and isinstance(detail.get("reason"), str):
            yield detail["reason"].lower()


def error_fields(body: Any) -> tuple[str | None, str | None, str]:
    """(type, code, message) from any vendor's error JSON: OpenAI and look-alikes
    {"error": {message, type, code}}, Anthropic {"type": "error", "error": {type, message}},
    Gemini {"error": {code, message, status}}, Mistral {"object": "error", message, type, code},
    FastAPI-style {"detail": ...}."""
    if not isinstance(body, Mapping):
        return None, None, str(body or "")
    inner = body.get("error") if isinstance(body.get("error"), Mapping) else body
    kind = inner.get("type") or inner.get("status")
    code = inner.get("code")
    message = inner.get("message")
    if message is None and "detail" in body:
        message = body["detail"]
        first = message[0] if isinstance(message, list) and message else None
        if kind is None and isinstance(first, Mapping):  # pydantic's error type
            kind = first.get("type")
    if message is None and isinstance(body.get("error"), str):
        message = body["error"]
    return (_text(kind), _text(code), _message(message))


def _text(value: Any) -> str | None:
    return None if value is None else str(value)


def _message(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list):  # FastAPI / pydantic detail lists
        return "; ".join(str(v.get("msg", v)) if isinstance(v, Mapping) else str(v)
                         for v in value)
    return "" if value is None else str(value)
