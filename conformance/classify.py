"""What came back -> verdict. A pure table; no SDK types here (clients.py turns SDK
results and exceptions into an Outcome first).

    2xx                                  accept
    400, 422                             reject (about the history)
    401 403 404 408 409 429 5xx, other   inconclusive (never a verdict about the history)
    timeout, connection error            inconclusive
    the SDK refused before sending       inconclusive (reported with the SDK's reason)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

Kind = Literal["accept", "reject", "inconclusive"]
REJECT_STATUSES = frozenset({400, 422})


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
    kind: Kind
    status: int | None
    error_type: str | None = None
    error_code: str | None = None
    message: str = ""
    reason: str = ""  # why inconclusive

    def to_json(self) -> dict[str, Any]:
        return {"verdict": self.kind, "status": self.status, "error_type": self.error_type,
                "error_code": self.error_code, "message": self.message, "reason": self.reason}


def classify(outcome: Outcome) -> Verdict:
    if outcome.failure is not None:
        return Verdict("inconclusive", None, reason=f"{outcome.failure}: {outcome.detail}".strip())
    status = outcome.status or 0
    if 200 <= status < 300:
        return Verdict("accept", status)
    kind_, code, message = error_fields(outcome.body)
    if status in REJECT_STATUSES:
        return Verdict("reject", status, kind_, code, message)
    return Verdict("inconclusive", status, kind_, code, message,
                   reason=f"HTTP {status} is not about the history")


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
