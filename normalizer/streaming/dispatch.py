"""Protocol dispatch for streams: an assembler per protocol, whole-stream assembly (from
events or a raw SSE body) and emission. The overview is in `normalizer.streaming`."""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from normalizer.errors import UnknownProtocolError
from normalizer.model import Message
from normalizer.protocols import PROTOCOLS
from normalizer.streaming import sse
from normalizer.streaming.result import StreamResult


class Assembler(Protocol):
    """What every protocol's assembler offers."""

    protocol: str

    def feed(self, event: Any) -> None:
        """Take the next event of the stream (a dict or an SDK event object)."""

    def result(self) -> StreamResult:
        """The assembled message so far, and how the stream went."""


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
