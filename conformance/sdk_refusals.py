"""An SDK's refusal to send a body, in words that do not change with library versions.

The official SDKs validate some bodies before sending (google-genai through pydantic).
Their messages embed the validating library's version (`errors.pydantic.dev/2.13/...`)
and long reprs of the input, so a published matrix that quoted them went stale with every
upstream release. The summary keeps what a reader needs and what stays put: which SDK
refused, the kind of error, and for each failing field its path and error type.
"""

from __future__ import annotations

from typing import Any

# Enough paths to see the shape of the refusal; the count says how many there were.
MAX_FIELDS = 6
_SDK_OF_MODULE = {"google": "google-genai", "openai": "openai", "anthropic": "anthropic"}


def sdk_name(exc: BaseException) -> str:
    """The SDK an exception came through, from where it was raised (its traceback)."""
    tb = exc.__traceback__
    found = ""
    while tb is not None:
        module = str(tb.tb_frame.f_globals.get("__name__", ""))
        top = module.split(".", 1)[0]
        if top in _SDK_OF_MODULE:
            found = _SDK_OF_MODULE[top]
        tb = tb.tb_next
    return found or "the SDK"


def summarize(exc: BaseException, sdk: str | None = None) -> str:
    """Why the SDK refused to send, in one line: `google-genai refused to send: ValidationError,
    32 field errors: contents.str (string_type), …`.

    pydantic's `ValidationError.errors()` gives each failing field's location and type; any
    other exception is summarised by its type and its first line, without reprs of input.
    `sdk` names the SDK when the caller knows it; else it is read off the traceback.
    """
    sdk = sdk or sdk_name(exc)
    errors = _validation_errors(exc)
    if errors is None:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
        return f"{sdk} refused to send: {type(exc).__name__}" + (f": {first}" if first else "")
    fields = [f"{_path(e.get('loc', ()))} ({e.get('type', 'error')})" for e in errors]
    shown = ", ".join(sorted(set(fields))[:MAX_FIELDS])
    more = len(set(fields)) - MAX_FIELDS
    return (f"{sdk} refused to send: {type(exc).__name__}, {len(errors)} field errors: {shown}"
            + (f", and {more} more" if more > 0 else ""))


def _validation_errors(exc: BaseException) -> list[dict[str, Any]] | None:
    errors = getattr(exc, "errors", None)
    if not callable(errors):
        return None
    try:
        found = errors(include_url=False, include_input=False)
    except TypeError:  # an `errors` method of another shape: not pydantic's
        return None
    return [dict(e) for e in found] if isinstance(found, list) else None


def _path(loc: Any) -> str:
    parts = []
    for item in loc if isinstance(loc, tuple | list) else (loc,):
        parts.append(f"[{item}]" if isinstance(item, int) else f".{item}")
    return "".join(parts).lstrip(".") or "(body)"
