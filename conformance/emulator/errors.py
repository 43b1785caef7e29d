"""Vendor error bodies: the JSON shape each vendor answers a rejected request with, and the
texts it uses for malformed input (JSON that does not parse, a missing field, a wrong type).

Only texts seen verbatim in a vendor response (sources in docs/emulator.md) are used as
vendor text. Where the vendor's words are not documented the emulator says so plainly with
`unknown_text(...)`, so nobody mistakes our words for the vendor's.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from normalizer.json_values import thaw
from normalizer.profiles import Profile

ERROR_FORMATS: tuple[str, ...] = ("openai", "anthropic", "gemini", "mistral", "cerebras",
                                  "xai")
# Profiles may name their error format after the protocol; these are the same shapes.
_ALIASES = {"openai_chat": "openai", "openai_responses": "openai"}
_PROTOCOL_FORMAT = {"openai_chat": "openai", "openai_responses": "openai",
                    "anthropic": "anthropic", "gemini": "gemini"}

_GRPC_STATUS = {400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED",
                404: "NOT_FOUND", 405: "UNIMPLEMENTED", 413: "INVALID_ARGUMENT",
                429: "RESOURCE_EXHAUSTED", 500: "INTERNAL"}
# xAI's `code` for a status where the rule does not give one: "invalid-argument" for a 400
# since 2026-08 ("Client specified an invalid argument" before; evidence/xai/).
_XAI_CODE = {400: "invalid-argument"}
# Anthropic's documented error types by status (https://docs.claude.com/en/api/errors).
_ANTHROPIC_TYPE = {400: "invalid_request_error", 401: "authentication_error",
                   403: "permission_error", 404: "not_found_error", 413: "request_too_large",
                   429: "rate_limit_error", 500: "api_error"}


def unknown_text(what: str) -> str:
    """Our own message for a case whose vendor wording is not documented."""
    return f"provider-conformance emulator: {what} (vendor message text unknown)"


def resolve_format(error_format: str, protocol: str) -> str:
    """The error shape to use: the profile's `error_format` when we know it, else the shape
    of the protocol (an OpenAI-compatible vendor with an undocumented shape answers like
    OpenAI, which is what its SDK, the openai SDK, expects)."""
    name = _ALIASES.get(error_format, error_format)
    return name if name in ERROR_FORMATS else _PROTOCOL_FORMAT[protocol]


@dataclass(frozen=True, slots=True)
class VendorError:
    """One error answer before it is shaped: status, message and the vendor's fields."""

    status: int
    message: str
    type: str | None = None
    code: Any = None
    param: str | None = None
    grpc_status: str | None = None  # Gemini's `status` word
    location: str | None = None  # where in the body (check()'s location), for Mistral's loc
    # A relay's account of the upstream answer (OpenRouter: provider_name and raw, the
    # upstream vendor's own error body as a string)
    metadata: Mapping[str, Any] | None = None

    @classmethod
    def from_fields(cls, status: int, message: str, fields: Mapping[str, Any]) -> VendorError:
        """From a profile rule's `error` map (type / code / param / status / metadata). A
        field the profile marks `unknown` is not sent as the word "unknown": it falls back
        to the vendor's documented default for the status, or null (see docs/emulator.md)."""
        known = {k: v for k, v in fields.items() if v != "unknown"}
        grpc = known.get("status")
        metadata = known.get("metadata")
        return cls(status=status, message=message, type=known.get("type"),
                   code=known.get("code"), param=known.get("param"),
                   grpc_status=grpc if isinstance(grpc, str) else None,
                   metadata=thaw(metadata) if isinstance(metadata, Mapping) else None)


def error_body(fmt: str, error: VendorError, request_id: str) -> dict[str, Any]:
    """The vendor's error JSON for `error` in shape `fmt` (one of ERROR_FORMATS)."""
    if fmt == "anthropic":
        kind = error.type or _ANTHROPIC_TYPE.get(error.status, "invalid_request_error")
        return {"type": "error", "error": {"type": kind, "message": error.message},
                "request_id": request_id}
    if fmt == "gemini":
        code = error.code if isinstance(error.code, int) else error.status
        grpc = error.grpc_status or _GRPC_STATUS.get(error.status, "INVALID_ARGUMENT")
        return {"error": {"code": code, "message": error.message, "status": grpc}}
    if fmt == "xai":
        # xAI answers {"code", "error"}, the message a string, on both its APIs (the whole
        # bodies in docs/emulator.md's sources); a code the rule leaves unknown is the
        # newest one seen for the status.
        return {"code": error.code if error.code is not None else
                _XAI_CODE.get(error.status), "error": error.message}
    if error.metadata is not None:
        # A relay's answer for its upstream (OpenRouter's documented ErrorResponse, as
        # pasted in pydantic/pydantic-ai#4604): code, message and metadata, no type or param.
        return {"error": {"message": error.message, "code": error.code,
                          "metadata": error.metadata}}
    inner = {"message": error.message, "type": error.type, "param": error.param,
             "code": error.code}
    if fmt == "mistral" and error.status == 422:
        # A request-schema error is FastAPI's validation list (LibreChat#4866,
        # nextcloud/integration_openai#419); its loc is ours (see docs/emulator.md).
        return {"detail": [{"type": error.type, "loc": _loc(error.location),
                            "msg": error.message}]}
    if fmt == "mistral":
        # Mistral answers flat, with "object": "error" (solbrowse/extension#16).
        return {"object": "error", **inner}
    # OpenAI's type for a rejected request is invalid_request_error (its error docs).
    inner = {**inner, "type": error.type or "invalid_request_error"}
    if fmt == "cerebras":
        # Cerebras answers a refused request flat, with no "error" wrapper: raw bodies in
        # Kilo-Org/kilocode#10375 (with its Date header), musistudio/claude-code-router#708
        # (relayed as received). Its 5xx bodies are wrapped (vercel/ai#15386); no rule
        # answers with one.
        return inner
    return {"error": inner}


def _loc(location: str | None) -> list[str | int]:
    """check()'s location (`messages[0].content[1]`) as a FastAPI loc under "body"."""
    steps: list[str | int] = ["body"]
    for name, index in re.findall(r"([^.\[\]]+)|\[(\d+)\]", location or ""):
        steps.append(int(index) if index else name)
    return steps


# --- malformed input: the vendor's words where documented -------------------------------

OPENAI_BAD_JSON = (
    "We could not parse the JSON body of your request. (HINT: This likely means you aren't "
    "using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was "
    "sent was not valid JSON. If you have trouble figuring out how to fix this, please "
    "contact us through our help center at help.openai.com.)"
)


def bad_json(fmt: str, detail: str) -> VendorError:
    """The body is not JSON. Anthropic's and Gemini's texts continue with their parser's own
    description of the fault; ours comes from Python's json module (see docs/emulator.md)."""
    if fmt == "openai":
        return VendorError(400, OPENAI_BAD_JSON)
    if fmt == "anthropic":
        return VendorError(400, f"The request body is not valid JSON: {detail}")
    if fmt == "gemini":
        return VendorError(400, f"Invalid JSON payload received. {detail}")
    return VendorError(400, unknown_text(f"request body is not valid JSON: {detail}"))


def missing_field(fmt: str, path: str) -> VendorError:
    """A required field is absent: the vendor's words for `model` (OpenAI) and `model` /
    `max_tokens` (Anthropic), our own otherwise."""
    if fmt == "openai" and path == "model":
        return VendorError(400, "you must provide a model parameter")
    if fmt == "anthropic" and path in ("model", "max_tokens"):
        return VendorError(400, f"{path}: Field required")
    return VendorError(400, unknown_text(f"required field '{path}' is missing"), param=path)


def wrong_type(fmt: str, path: str, expected: str, got: str) -> VendorError:
    """A field has the wrong JSON type: OpenAI's words, our own for the other shapes."""
    if fmt == "openai":
        # The wording OpenAI uses (danny-avila/LibreChat#3111).
        return VendorError(400, f"Invalid type for '{path}': expected {expected}, but got "
                                f"{got} instead.", param=path)
    return VendorError(400, unknown_text(f"'{path}' should be {expected}, got {got}"),
                       param=path)


def wrong_shape(path: str, problem: str) -> VendorError:
    """A body off the history's skeleton (a WireFormatError from check()), in our own words."""
    return VendorError(400, unknown_text(f"'{path}': {problem}"), param=path)


def too_large(size: int, limit: int, profile: Profile | None = None) -> VendorError | None:
    """The answer to a body of `size` bytes, before it is read: over the limit of the
    profile's rule request-too-large (Anthropic's 32 MiB), the vendor's answer in its words;
    over the emulator's own `limit`, a 413 in our own; else None."""
    rule = profile.rule("request-too-large") if profile is not None else None
    vendor = rule.params.get("max_bytes") if rule is not None and rule.enforced else None
    if rule is not None and isinstance(vendor, int) and vendor <= limit and size > vendor:
        return VendorError.from_fields(rule.status, rule.message, rule.error)
    if size > limit:
        return VendorError(413, unknown_text(f"request body of {size} bytes is over the "
                                             f"emulator's limit of {limit} bytes"))
    return None


def too_deep(depth: int) -> VendorError:
    """JSON nested deeper than the emulator parses, in our own words."""
    return VendorError(400, unknown_text(f"request JSON nested deeper than {depth} levels"))


def wrong_content_type(content_type: str) -> VendorError:
    """A body not sent as `application/json`, in our own words."""
    shown = content_type or "none"
    return VendorError(400, unknown_text(f"Content-Type must be application/json, "
                                         f"got {shown}"))


def unknown_chunked() -> VendorError:
    """A chunked request body, which the emulator does not read."""
    return VendorError(400, unknown_text("chunked request bodies are not supported by the "
                                         "emulator; send Content-Length"))


def bad_length(raw: str) -> VendorError:
    """A Content-Length that is not a byte count."""
    return VendorError(400, unknown_text(f"Content-Length {raw!r} is not a byte count"))


def missing_version_header() -> VendorError:
    """Anthropic's answer to a request without the `anthropic-version` header."""
    # Anthropic's answer when anthropic-version is absent (envoyproxy/ai-gateway#1909).
    return VendorError(400, "anthropic-version: header is required")


def not_found(method: str, path: str) -> VendorError:
    """A 404 for a path the vendor does not serve."""
    return VendorError(404, unknown_text(f"no route for {method} {path}"))


def method_not_allowed(method: str, path: str) -> VendorError:
    """A 405 for any method but POST."""
    return VendorError(405, unknown_text(f"method {method} is not allowed on {path}; "
                                         "use POST"))


def bad_request_line(detail: str) -> VendorError:
    """What the HTTP layer refused before any provider was known (a garbage request line,
    an HTTP/2 preface on this HTTP/1.1 port, a header too long)."""
    return VendorError(400, unknown_text(f"malformed HTTP request: {detail}"))


def rule_unknown_text(rule_id: str) -> str:
    """Our own message for a violated rule whose vendor text the profile does not have."""
    return f"provider-conformance emulator: rule {rule_id} (vendor message text unknown)"


def unchecked(reason: str) -> VendorError:
    """check() itself failed on this body: a bug in a detector, reported, never a 500."""
    return VendorError(400, unknown_text(f"the request could not be checked ({reason})"))
