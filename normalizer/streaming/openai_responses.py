"""OpenAI Responses streams: typed events keyed by `output_index` (and `item_id`).
`response.output_item.added` opens an item (message, function_call with call_id and name,
reasoning); `response.output_text.delta`, `response.function_call_arguments.delta` and
`response.reasoning_summary_text.delta` fill it (and `response.refusal.delta`: a refusal
is a Text typed "refusal", as parse keeps it); `response.function_call_arguments.done` and
`response.output_item.done` close it with the full value (which wins over the deltas; a
difference is reported). `response.completed` ends the stream; `response.incomplete`,
`response.failed` and `error` are stream-error problems.

Neutral mapping follows normalizer.wire.openai_responses, so an assembled turn renders
back with its item ids: function_call -> ToolCall(id=call_id, extras {"id": fc id});
reasoning -> Thinking(vendor="openai_responses", text = summary texts joined by a blank
line, signature = encrypted_content, extras {"id": rs id}); the output_text parts of a
message item -> Text parts, the first with extras {"item": {"id": msg id}}.

Source of the shapes: openai-python `types/responses/response_stream_event.py`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from normalizer.model import Message, Part
from normalizer.protocols import DEFAULT_MODEL
from normalizer.streaming.base import BaseAssembler
from normalizer.streaming.emitting import Splitter, round_robin, whole
from normalizer.streaming.responses_items import Item, emit_item, item_parts, response_object
from normalizer.streaming.result import SHAPE_ERRORS, StreamProblem, StreamResult, unreadable

# Events that carry nothing the neutral message needs (their content also arrives as deltas).
_QUIET = frozenset({
    "response.created", "response.in_progress", "response.queued",
    "response.content_part.added", "response.content_part.done", "response.output_text.done",
    "response.reasoning_summary_part.added", "response.reasoning_summary_part.done",
    "response.reasoning_summary_text.done", "response.reasoning_text.done",
    "response.output_text.annotation.added", "response.refusal.done",
})
_TEXT_DELTAS = {"response.output_text.delta": "text", "response.refusal.delta": "refusal",
                "response.reasoning_summary_text.delta": "summary",
                "response.reasoning_text.delta": "reasoning",
                "response.function_call_arguments.delta": "arguments"}
_FAILED = ("response.incomplete", "response.failed", "error")


class Assembler(BaseAssembler):
    """Feed Responses stream events with `feed`; `result()` gives the message so far."""

    protocol = "openai_responses"

    def __init__(self, *, origin: str | None = None) -> None:
        super().__init__(origin=origin)
        self._items: dict[int, Item] = {}
        self._last: int | None = None  # the output_index of the item opened last
        self._status: str | None = None

    def _handle(self, ev: Mapping[str, Any], where: str) -> None:
        kind = str(ev.get("type"))
        if kind == "response.output_item.added":
            self._added(ev, where)
        elif kind in _TEXT_DELTAS:
            item = self._item(ev, where)
            if item is not None:
                item.append(_TEXT_DELTAS[kind], ev, where)
        elif kind in ("response.function_call_arguments.done", "response.output_item.done"):
            item = self._item(ev, where)
            if item is not None:
                self._problems.extend(item.close(ev, where))
        elif kind == "response.completed":
            self._status = "completed"
        elif kind in _FAILED:
            self._failed(kind, ev, where)
        elif kind not in _QUIET and not self._about_hosted(ev):
            self._problems.append(StreamProblem("unknown-event", where,
                                                f"event type {kind!r} ignored"))

    def _added(self, ev: Mapping[str, Any], where: str) -> None:
        item, index = ev.get("item") or {}, ev.get("output_index")
        if not isinstance(item.get("type"), str):
            self._problems.append(StreamProblem(
                "unknown-event", where,
                f"output item of type {item.get('type')!r} at {index!r} ignored"))
            return
        if not isinstance(index, int):  # see `_item`: the items are numbered as they open
            index = max(self._items, default=-1) + 1
        self._items[index] = Item(kind=item["type"], where=where, start=item)
        self._last = index

    def _about_hosted(self, ev: Mapping[str, Any]) -> bool:
        """A progress event of a hosted item (`response.web_search_call.searching`, ...):
        the finished item in output_item.done says it all."""
        item = self._items.get(ev.get("output_index"))  # type: ignore[arg-type]
        return item is not None and item.kind not in Item.KINDS

    def _item(self, ev: Mapping[str, Any], where: str) -> Item | None:
        """The item an event is about: by its `output_index`, else its item's id. Without
        an `output_index` (llama.cpp's and Lemonade's /v1/responses leave it out, and give
        function_call items no `id`: ggml-org/llama.cpp#20607, lemonade-sdk/lemonade#3607),
        the item its id or call_id names, else the item opened last, as those servers send
        one item after another."""
        index = ev.get("output_index")
        item = self._items.get(index)  # type: ignore[arg-type]
        if item is None:
            whole = ev.get("item") or {}
            names = {ev.get("item_id"), whole.get("id"), whole.get("call_id")} - {None, ""}
            item = next((i for i in self._items.values()
                         if names & {i.start.get("id"), i.start.get("call_id")}), None)
        if item is None and not isinstance(index, int) and self._last is not None:
            item = self._items[self._last]
        if item is None:
            self._problems.append(StreamProblem(
                "unknown-index", where,
                f"{ev.get('type')} for output_index {ev.get('output_index')!r} / item "
                f"{ev.get('item_id')!r}, which no output_item.added opened; kept here",
                raw=ev.get("delta") if isinstance(ev.get("delta"), str) else None))
        return item

    def _failed(self, kind: str, ev: Mapping[str, Any], where: str) -> None:
        response = ev.get("response") or {}
        detail = ev.get("error") or response.get("error") or response.get("incomplete_details")
        self._status = response.get("status") or kind.removeprefix("response.")
        self._problems.append(StreamProblem(
            "stream-error", where, f"{kind}: {json.dumps(detail, ensure_ascii=False)}"))

    def result(self) -> StreamResult:
        """The assembled message so far, and how the stream went."""
        parts: list[Part] = []
        problems = list(self._problems)
        for index in sorted(self._items):
            item = self._items[index]
            try:
                item_parts_, item_problems = item_parts(item)
            except SHAPE_ERRORS as exc:
                kept, problem = unreadable(self.protocol, item.kind, item.final or item.start,
                                           item.where, exc)
                item_parts_, item_problems = [kept], [problem]
            parts.extend(item_parts_)
            problems.extend(item_problems)
        message = Message("assistant", tuple(parts), origin=self._origin)
        return StreamResult(message, self._status == "completed", self._status, tuple(problems))


def emit(
    message: Message,
    *,
    split: Splitter | None = None,
    interleave: bool = False,
    model: str = DEFAULT_MODEL["openai_responses"],
) -> list[dict[str, Any]]:
    """An assistant message -> the events the Responses API would stream (inverse of
    `assemble`). One output item per part; `interleave` sends items' events round-robin."""
    pieces = split or whole
    items = [emit_item(i, part, pieces) for i, part in enumerate(message.parts)]
    body = round_robin([events for events, _ in items]) if interleave else [
        e for events, _ in items for e in events]
    outputs = [done for _, done in items]
    events = [{"type": "response.created", "response": response_object(model, [], "in_progress")},
              *body,
              {"type": "response.completed",
               "response": response_object(model, outputs, "completed")}]
    return [{**e, "sequence_number": n} for n, e in enumerate(events)]
