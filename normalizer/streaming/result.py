"""What an assembler hands back: the assistant message built so far, whether the stream
ended properly, and every problem met on the way (typed, never raised mid-stream).

Shared by the four protocol assemblers: problem codes, call closing (raw argument text ->
arguments, or an incomplete/invalid marking that keeps the raw text) and derived ids.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

from normalizer.errors import ArgumentsJSONError, StreamEventError
from normalizer.model import EMPTY, JsonMap, Message, Opaque, ToolCall
from normalizer.streaming.sse import INVALID_JSON_KEY
from normalizer.tools import parse_arguments

ProblemCode: TypeAlias = Literal[
    "unknown-index",      # a delta for a call/block/item the stream never opened
    "invalid-arguments",  # a closed call whose arguments are not a JSON object
    "incomplete-call",    # the stream ended before the vendor closed this call
    "stream-error",       # the vendor sent an error event / a failed or incomplete status
    "malformed-event",    # an event without the fields its type needs
    "unknown-event",      # an event type this assembler does not know (ignored)
    "arguments-mismatch",  # a closing event's full arguments differ from the deltas
]


@dataclass(frozen=True, slots=True)
class StreamProblem:
    """One thing wrong with a stream. `where` is `events[i]` (the i-th event fed) plus a
    path inside it; `raw` keeps any text that could not be placed (e.g. an orphan
    fragment); `error` is the typed error for `invalid-arguments`."""

    code: ProblemCode
    where: str
    detail: str
    raw: str | None = None
    error: ArgumentsJSONError | None = None


@dataclass(frozen=True, slots=True)
class StreamResult:
    """The assembled assistant message and how the stream went.

    `complete` is True only when the vendor's end-of-stream signal arrived (finish_reason,
    message_stop, response.completed, a Gemini finishReason). `message` is always usable
    as the next assistant turn of a history, even for a cut stream."""

    message: Message
    complete: bool
    stop_reason: str | None = None
    problems: tuple[StreamProblem, ...] = ()

    @property
    def tool_calls(self) -> tuple[ToolCall, ...]:
        """The message's tool calls, complete or not."""
        return self.message.tool_calls

    @property
    def incomplete_calls(self) -> tuple[ToolCall, ...]:
        """The calls the stream ended before closing."""
        return tuple(c for c in self.tool_calls if c.extras.get("incomplete"))

    @property
    def argument_errors(self) -> tuple[ArgumentsJSONError, ...]:
        """The typed errors of closed calls whose arguments are not a JSON object."""
        return tuple(p.error for p in self.problems if p.error is not None)

    def raise_on_invalid_arguments(self) -> StreamResult:
        """Strict mode: raise the first ArgumentsJSONError (raw text in `.raw`), else self."""
        errors = self.argument_errors
        if errors:
            raise errors[0]
        return self


def as_event(event: Any) -> Mapping[str, Any]:
    """An event as a JSON mapping: dicts pass through; SDK (pydantic) objects are dumped
    with the wire's field names, so SDK iterators and raw SSE give the same input."""
    if isinstance(event, Mapping):
        return event
    dump = getattr(event, "model_dump", None)
    if dump is None:
        raise StreamEventError(
            f"expected a JSON object or an SDK event, got {type(event).__name__}")
    out = dump(mode="json", by_alias=True, exclude_none=True, warnings=False)
    return _standard_base64(out, dump(by_alias=True, exclude_none=True, warnings=False))


def _standard_base64(dumped: Any, native: Any) -> Any:
    """Where the SDK object held bytes (google-genai decodes `thoughtSignature` and inline
    data to bytes), the JSON dump has URL-safe base64; the wire, and so parse, has the
    standard alphabet. Re-encode those places so SDK objects and raw JSON give the same."""
    if isinstance(native, bytes):
        return base64.b64encode(native).decode("ascii")
    if isinstance(dumped, dict) and isinstance(native, Mapping):
        return {k: _standard_base64(v, native.get(k)) for k, v in dumped.items()}
    if isinstance(dumped, list) and isinstance(native, list | tuple) \
            and len(dumped) == len(native):
        return [_standard_base64(d, n) for d, n in zip(dumped, native, strict=True)]
    return dumped


# What reading a JSON value of the wrong shape raises (a list where an object belongs, ...).
SHAPE_ERRORS = (AttributeError, TypeError, ValueError, KeyError)


def guarded(
    problems: list[StreamProblem],
    where: str,
    handle: Callable[[Mapping[str, Any], str], None],
    event: Mapping[str, Any],
) -> None:
    """Run one event's handler; a shape it cannot read (a list where an object belongs, …)
    becomes a malformed-event problem, so one bad event never loses the rest."""
    if INVALID_JSON_KEY in event:
        problems.append(StreamProblem("malformed-event", where, "SSE data is not JSON",
                                      raw=str(event[INVALID_JSON_KEY])))
        return
    try:
        handle(event, where)
    except SHAPE_ERRORS as exc:
        problems.append(StreamProblem("malformed-event", where, f"{type(exc).__name__}: {exc}"))


def unreadable(protocol: str, kind: str, data: Any, where: str,
               exc: Exception) -> tuple[Opaque, StreamProblem]:
    """A block or item whose fields `result` could not read (a shape error deep inside it,
    which `feed` kept): the part as it came, verbatim (as parse keeps a shape it does not
    know), and a malformed-event problem saying why."""
    kept = data if isinstance(data, Mapping) else {"value": data}
    return Opaque(protocol, str(kind), kept), StreamProblem(
        "malformed-event", where, f"{type(exc).__name__}: {exc}")


def close_arguments(
    raw: str, where: str
) -> tuple[JsonMap | str, JsonMap, StreamProblem | None]:
    """Raw argument text of a call the vendor closed -> (arguments, extras, problem).
    Invalid JSON keeps the raw text as the arguments (a str) and marks the call
    {"invalid_arguments": true, "raw_arguments": raw}; the problem carries the typed error."""
    try:
        return parse_arguments(raw, where), EMPTY, None
    except ArgumentsJSONError as exc:
        extras = JsonMap({"invalid_arguments": True, "raw_arguments": raw})
        problem = StreamProblem("invalid-arguments", where, str(exc), raw=raw, error=exc)
        return raw, extras, problem


def cut_call(
    name: str, call_id: str | None, raw: str, where: str, extras: Mapping[str, Any] = EMPTY
) -> tuple[ToolCall, StreamProblem]:
    """A call the stream never closed: arguments stay the raw fragment (a str), marked
    {"incomplete": true, "raw_arguments": fragment}, whether or not the fragment parses."""
    marks = {**extras, "incomplete": True, "raw_arguments": raw}
    call = ToolCall(name=name, arguments=raw, id=call_id, extras=marks)
    problem = StreamProblem("incomplete-call", where,
                            f"stream ended before call {call_id or name!r} was closed", raw=raw)
    return call, problem


def finished_call(
    name: str, call_id: str | None, raw: str, where: str, extras: Mapping[str, Any] = EMPTY,
    *, wire: bool = False,
) -> tuple[ToolCall, StreamProblem | None]:
    """A call the vendor closed: parsed arguments, or the invalid marking of close_arguments.
    `wire`: the protocol sends arguments as a string (OpenAI's two), kept byte for byte as
    `wire_arguments`, as parse keeps it, so the turn goes back with the bytes it came with."""
    arguments, marks, problem = close_arguments(raw, where)
    kept = raw if wire and raw and not marks else None
    call = ToolCall(name=name, arguments=arguments, id=call_id, extras={**extras, **marks},
                    wire_arguments=kept)
    return call, problem


def derive_call_id(seed: str, position: int, name: str, arguments: Any) -> str:
    """A deterministic id for a call the vendor sent without one: a hash of the caller's
    seed, the call's position in the response, its name and canonical arguments. Position
    makes a repeated identical call get a new id; nothing time-based, so replaying the same
    stream gives the same ids. Fits OpenAI (<= 40 chars) and Anthropic (^[a-zA-Z0-9_-]+$)."""
    canonical = json.dumps(arguments, sort_keys=True, ensure_ascii=False, separators=(",", ":"),
                           default=_jsonable)
    digest = hashlib.sha256(f"{seed}\x00{position}\x00{name}\x00{canonical}".encode()).hexdigest()
    return f"call_{digest[:24]}"


def _jsonable(value: Any) -> Any:
    if isinstance(value, JsonMap):
        return value.thaw()
    if isinstance(value, tuple):
        return list(value)
    raise TypeError(f"not JSON: {type(value).__name__}")
