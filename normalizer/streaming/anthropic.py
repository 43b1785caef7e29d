"""Anthropic Messages streams: `message_start`, then per content block `content_block_start`
(text, tool_use with id and name, thinking, redacted_thinking), `content_block_delta`
(text_delta, input_json_delta with `partial_json`, thinking_delta, signature_delta) and
`content_block_stop`; then `message_delta` (stop_reason) and `message_stop`. A tool_use block
is complete at its `content_block_stop`, so a cut stream leaves only the open block
incomplete. `ping` is ignored; an `error` event is a stream-error problem. Other blocks
(server tool use and results, compaction) are kept verbatim as parse keeps them; their
deltas' string fields continue the block's fields of the same name (`compaction_delta`
carries the compaction block's `content`).

Source of the shapes: anthropic-python `types/raw_message_stream_event.py` and
`lib/streaming/_messages.py` (the SDK joins `partial_json` per block `index`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from normalizer.errors import UnstreamablePartError
from normalizer.model import Message, Opaque, Part, Text, Thinking, ToolCall
from normalizer.protocols import DEFAULT_MODEL, anthropic_hosted
from normalizer.streaming.base import BaseAssembler
from normalizer.streaming.emitting import Splitter, arguments_text, round_robin, whole
from normalizer.streaming.result import (
    SHAPE_ERRORS,
    StreamProblem,
    StreamResult,
    cut_call,
    finished_call,
    unreadable,
)

# Events the SDK's MessageStream adds on top of the wire events when you iterate it.
_SDK_DERIVED = frozenset({"text", "input_json", "thinking", "signature", "citation"})
_DELTA_FIELDS = {"text_delta": "text", "input_json_delta": "partial_json",
                 "thinking_delta": "thinking"}
_BLOCK_TYPES = frozenset({"text", "tool_use", "thinking", "redacted_thinking"})


@dataclass(slots=True)
class _Block:
    kind: str
    where: str
    start: Mapping[str, Any]
    chunks: list[str] = field(default_factory=list)
    signature: list[str] = field(default_factory=list)
    citations: list[Any] = field(default_factory=list)
    fields: dict[str, list[str]] = field(default_factory=dict)  # a verbatim block's deltas
    closed: bool = False


class Assembler(BaseAssembler):
    """Feed raw stream events (dicts or the SDK's event objects) with `feed`; `result()`
    gives the message so far. `origin` is the provider name set on the message."""

    protocol = "anthropic"

    def __init__(self, *, origin: str | None = None) -> None:
        super().__init__(origin=origin)
        self._blocks: dict[int, _Block] = {}
        self._stop_reason: str | None = None
        self._stopped = False

    def _handle(self, ev: Mapping[str, Any], where: str) -> None:
        kind = ev.get("type")
        if kind == "content_block_start":
            self._start(ev, where)
        elif kind == "content_block_delta":
            self._delta(ev, where)
        elif kind == "content_block_stop":
            block = self._block(ev, where, "content_block_stop")
            if block is not None:
                block.closed = True
        elif kind == "message_delta":
            self._stop_reason = (ev.get("delta") or {}).get("stop_reason") or self._stop_reason
        elif kind == "message_stop":
            self._stopped = True
        elif kind == "error":
            detail = json.dumps(ev.get("error"), ensure_ascii=False)
            self._problems.append(StreamProblem("stream-error", where, detail))
        elif kind not in ("message_start", "ping") and kind not in _SDK_DERIVED:
            self._problems.append(StreamProblem("unknown-event", where,
                                                f"event type {kind!r} ignored"))

    def _start(self, ev: Mapping[str, Any], where: str) -> None:
        block = ev.get("content_block") or {}
        index = ev.get("index")
        kind = block.get("type")
        if not isinstance(index, int) or not isinstance(kind, str):
            self._problems.append(StreamProblem(
                "malformed-event" if not isinstance(index, int) else "unknown-event", where,
                f"content_block_start of type {kind!r} at index {index!r} skipped"))
            return
        self._blocks[index] = _Block(kind=kind, where=where, start=block)

    def _block(self, ev: Mapping[str, Any], where: str, what: str) -> _Block | None:
        block = self._blocks.get(ev.get("index"))  # type: ignore[arg-type]
        if block is None:
            delta = ev.get("delta") or {}
            raw = next((delta[k] for k in _DELTA_FIELDS.values() if k in delta), None)
            self._problems.append(StreamProblem(
                "unknown-index", where,
                f"{what} for block index {ev.get('index')!r}, which no content_block_start "
                "opened; kept here, not in the message", raw=raw))
        return block

    def _delta(self, ev: Mapping[str, Any], where: str) -> None:
        block = self._block(ev, where, "content_block_delta")
        if block is None:
            return
        delta = ev.get("delta") or {}
        kind = delta.get("type")
        if kind == "signature_delta":
            block.signature.append(str(delta.get("signature", "")))
        elif kind in _DELTA_FIELDS:
            block.chunks.append(str(delta.get(_DELTA_FIELDS[kind], "")))
        elif kind == "citations_delta":
            block.citations.append(delta.get("citation"))
        elif block.kind not in _BLOCK_TYPES and _string_fields(delta):
            # A block kept verbatim (compaction's `compaction_delta` carries its `content`):
            # each string field of the delta continues the block's field of that name.
            for key, value in _string_fields(delta).items():
                block.fields.setdefault(key, []).append(value)
        else:
            self._problems.append(StreamProblem("unknown-event", where,
                                                f"delta type {kind!r} ignored"))

    def result(self) -> StreamResult:
        """The assembled message so far, and how the stream went."""
        parts: list[Part] = []
        problems = list(self._problems)
        for block in self._blocks.values():
            try:
                part, problem = _part(block)
            except SHAPE_ERRORS as exc:
                part, problem = unreadable(self.protocol, block.kind, block.start, block.where, exc)
            parts.append(part)
            problems.extend([problem] if problem else [])
        message = Message("assistant", tuple(parts), origin=self._origin)
        return StreamResult(message, self._stopped, self._stop_reason, tuple(problems))


def _part(block: _Block) -> tuple[Part, StreamProblem | None]:
    open_marks = {} if block.closed else {"incomplete": True}
    text = "".join(block.chunks)
    if block.kind == "tool_use":
        call_id, name = block.start.get("id"), str(block.start.get("name", ""))
        initial = block.start.get("input")
        raw = text if block.chunks or not initial else json.dumps(initial, ensure_ascii=False)
        build = finished_call if block.closed else cut_call
        return build(name, call_id, raw, block.where)
    if block.kind == "thinking":
        signature = "".join(block.signature) or block.start.get("signature") or None
        return Thinking(str(block.start.get("thinking", "")) + text, signature=signature,
                        vendor="anthropic", extras=open_marks), None
    if block.kind not in _BLOCK_TYPES:  # server tool activity, ...: verbatim, as parse
        return _opaque(block, text), None
    if block.kind == "redacted_thinking":
        return Thinking("", signature=block.start.get("data"), vendor="anthropic",
                        redacted=True), None
    extras = open_marks
    if len(block.start) > 2 or block.citations:  # more than type and text
        # The block's other fields, as parse keeps them; `citations` (web search, documents)
        # starts as [] and grows by one citations_delta each (docs.anthropic.com, citations).
        extras = {k: v for k, v in block.start.items() if k not in ("type", "text")}
        if block.citations:
            extras["citations"] = [*(extras.get("citations") or ()), *block.citations]
        extras.update(open_marks)
    return Text(str(block.start.get("text", "")) + text, extras=extras), None


def _string_fields(delta: Mapping[str, Any]) -> dict[str, str]:
    """A delta's fields besides its type, when all of them are strings (else none)."""
    found = {k: v for k, v in delta.items() if k != "type"}
    return found if found and all(isinstance(v, str) for v in found.values()) else {}


def _opaque(block: _Block, streamed: str) -> Opaque:
    """A block the model keeps verbatim; a server_tool_use's input arrives as partial_json,
    other blocks' string fields as deltas of their own (`compaction_delta`)."""
    data = dict(block.start)
    for key, chunks in block.fields.items():
        start = data.get(key)
        data[key] = (start if isinstance(start, str) else "") + "".join(chunks)
    if streamed:
        try:
            data["input"] = json.loads(streamed)
        except json.JSONDecodeError:
            data["input"] = streamed  # cut mid-input: kept as sent so far
    return Opaque("anthropic", block.kind, data, hosted=anthropic_hosted(block.kind))


def emit(
    message: Message,
    *,
    split: Splitter | None = None,
    interleave: bool = False,
    model: str = DEFAULT_MODEL["anthropic"],
    stop_reason: str | None = None,
) -> list[dict[str, Any]]:
    """An assistant message -> the events Anthropic would stream for it (inverse of
    `assemble`). `interleave` sends the events of consecutive blocks round-robin (the API
    streams blocks one after another; the protocol's `index` allows interleaving)."""
    pieces = split or whole
    blocks = [_block_events(i, p, pieces) for i, p in enumerate(message.parts)]
    body = round_robin(blocks) if interleave else [e for b in blocks for e in b]
    has_calls = any(isinstance(p, ToolCall) for p in message.parts)
    start = {"type": "message_start", "message": {
        "id": "msg_stream", "type": "message", "role": "assistant", "model": model,
        "content": [], "stop_reason": None, "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1}}}
    end = {"type": "message_delta",
           "delta": {"stop_reason": stop_reason or ("tool_use" if has_calls else "end_turn"),
                     "stop_sequence": None},
           "usage": {"output_tokens": 1}}
    return [start, *body, end, {"type": "message_stop"}]


def _block_events(index: int, part: Part, pieces: Splitter) -> list[dict[str, Any]]:
    if isinstance(part, ToolCall):
        raw = arguments_text(part)
        start = {"type": "tool_use", "id": part.id, "name": part.name, "input": {}}
        deltas = [{"type": "input_json_delta", "partial_json": p} for p in pieces(raw) if p]
    elif isinstance(part, Thinking) and part.redacted:
        start, deltas = {"type": "redacted_thinking", "data": part.signature or ""}, []
    elif isinstance(part, Thinking):
        start = {"type": "thinking", "thinking": "", "signature": ""}
        deltas = [{"type": "thinking_delta", "thinking": p} for p in pieces(part.text) if p]
        deltas += [{"type": "signature_delta", "signature": part.signature}] * bool(
            part.signature)
    elif isinstance(part, Text):
        start = {"type": "text", "text": ""}
        deltas = [{"type": "text_delta", "text": p} for p in pieces(part.text) if p]
    else:
        raise UnstreamablePartError(f"an assistant message cannot stream a {type(part).__name__}")
    return [{"type": "content_block_start", "index": index, "content_block": start},
            *({"type": "content_block_delta", "index": index, "delta": d} for d in deltas),
            {"type": "content_block_stop", "index": index}]

