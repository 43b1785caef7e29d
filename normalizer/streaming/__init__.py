"""Streamed responses -> one assistant message of the neutral model, for every protocol.

    result = assemble(events, "anthropic")          # events: dicts or the SDK's event objects
    history = History((*history.messages, result.message))

An assembler takes the parsed JSON of each SSE event (or chunk) in order, and can be read
at any point (`result()`): a stream cut anywhere gives a usable message. Calls the vendor
did not close are kept, marked {"incomplete": true, "raw_arguments": <fragment>} with the
fragment as their arguments; a closed call whose arguments are not a JSON object is kept
with its raw text, marked {"invalid_arguments": true, "raw_arguments": ...}, and its
ArgumentsJSONError is on the result (`argument_errors`, `raise_on_invalid_arguments()`).
Everything else that went wrong (unknown index, error events, unknown events) is a typed
StreamProblem on the result; nothing raises in the middle of a stream.

`emit` is the inverse (message -> the events a vendor would stream; emulators serve it),
and `sse` reads and writes the event-stream framing.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from normalizer.errors import UnknownProtocolError
from normalizer.model import STREAM_MARKERS, Message
from normalizer.protocols import PROTOCOLS
from normalizer.streaming import sse
from normalizer.streaming.result import (
    ProblemCode,
    StreamProblem,
    StreamResult,
    derive_call_id,
)

__all__ = [
    "STREAM_MARKERS",
    "Assembler",
    "ProblemCode",
    "StreamProblem",
    "StreamResult",
    "assemble",
    "assemble_sse",
    "assembler",
    "derive_call_id",
    "emit",
    "sse",
]


class Assembler(Protocol):
    protocol: str

    def feed(self, event: Any) -> None: ...

    def result(self) -> StreamResult: ...


def _module(protocol: str) -> Any:
    if protocol not in PROTOCOLS:
        raise UnknownProtocolError(protocol, PROTOCOLS)
    return importlib.import_module(f"normalizer.streaming.{protocol}")


def assembler(protocol: str, **options: Any) -> Assembler:
    """A fresh assembler for `protocol`. Options: `origin` (all); `id_seed` (openai_chat,
    gemini); `choice` (openai_chat); `candidate` (gemini)."""
    assembler_cls: type[Assembler] = _module(protocol).Assembler
    return assembler_cls(**options)


def assemble(events: Iterable[Any], protocol: str, **options: Any) -> StreamResult:
    """All events of one stream (possibly cut short) -> the assembled result."""
    built = assembler(protocol, **options)
    for event in events:
        built.feed(event)
    return built.result()


def assemble_sse(body: bytes | str, protocol: str, **options: Any) -> StreamResult:
    """A raw SSE body as the server sent it -> the assembled result."""
    return assemble(sse.json_events(sse.decode(body)), protocol, **options)


def emit(message: Message, protocol: str, **options: Any) -> list[Mapping[str, Any]]:
    """An assistant message -> the events `protocol` streams for it. Options: `split`
    (cut strings into fragments), `interleave` (not gemini), `model`."""
    return _module(protocol).emit(message, **options)
