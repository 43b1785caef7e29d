"""Output items of a Responses stream: the state one item accumulates (`Item`), the neutral
parts it becomes, and the events `emit` sends for a part. Kept apart from the event loop in
`openai_responses.py` so each stays small."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from normalizer.errors import UnstreamablePartError
from normalizer.model import Opaque, Part, Text, Thinking, ToolCall
from normalizer.protocols import RESPONSES_HOSTED, SUMMARY_JOIN
from normalizer.streaming.emitting import Splitter, arguments_text
from normalizer.streaming.result import StreamProblem, cut_call, finished_call

PROTOCOL = "openai_responses"


@dataclass(slots=True)
class Item:
    """One output item of a Responses stream as it is being assembled."""

    KINDS: ClassVar[frozenset[str]] = frozenset({"message", "function_call", "reasoning"})

    kind: str
    where: str
    start: Mapping[str, Any]
    texts: dict[int, list[str]] = field(default_factory=dict)
    reasoning: dict[int, list[str]] = field(default_factory=dict)
    arguments: list[str] = field(default_factory=list)
    final: Mapping[str, Any] | None = None
    final_arguments: str | None = None
    refusals: set[int] = field(default_factory=set)  # content indexes that are refusals

    @property
    def closed(self) -> bool:
        """Whether the item's done event has arrived."""
        return self.final is not None or self.final_arguments is not None

    def append(self, what: str, ev: Mapping[str, Any], where: str) -> None:
        """Add one delta event's text to the item's `what` fragments."""
        delta = ev.get("delta")
        if not isinstance(delta, str):
            return
        if what == "arguments":
            self.arguments.append(delta)
        elif what == "reasoning":
            self.reasoning.setdefault(int(ev.get("content_index", 0)), []).append(delta)
        else:
            key = "summary_index" if what == "summary" else "content_index"
            index = int(ev.get(key, 0))
            self.texts.setdefault(index, []).append(delta)
            if what == "refusal":
                self.refusals.add(index)

    def close(self, ev: Mapping[str, Any], where: str) -> list[StreamProblem]:
        """A closing event: its full value is the truth; report when the deltas disagree."""
        if ev.get("type") == "response.output_item.done":
            final = ev.get("item") or {}
            if not isinstance(final, Mapping):  # before it is kept: `result` reads it
                raise TypeError(f"output_item.done's item is {type(final).__name__}")
            self.final = final
            full = final.get("arguments")
        else:
            full = ev.get("arguments")
        if self.kind != "function_call" or not isinstance(full, str):
            return []
        streamed = "".join(self.arguments)
        self.final_arguments = full
        if full == streamed:
            return []
        return [StreamProblem("arguments-mismatch", where,
                              "closing event's arguments differ from the streamed deltas; "
                              "the closing value is kept", raw=streamed)]


def item_parts(item: Item) -> tuple[list[Part], list[StreamProblem]]:
    """One item -> neutral parts, as normalizer.wire.openai_responses parses the same item:
    once the item is done, every field of the finished item is kept where parse keeps it
    (ToolCall/Thinking extras, the first Text's extras {"item": …}); before, the item id."""
    source = item.final or item.start
    if item.kind not in Item.KINDS:  # hosted activity: verbatim, as parse keeps it
        return [Opaque(PROTOCOL, item.kind, source, hosted=item.kind in RESPONSES_HOSTED,
                       slot="item")], []
    ids: dict[str, Any] = {"id": source["id"]} if source.get("id") else {}
    open_marks: dict[str, Any] = {} if item.closed else {"incomplete": True}
    if item.kind == "function_call":
        raw = item.final_arguments if item.final_arguments is not None else "".join(
            item.arguments)
        build = finished_call if item.closed else cut_call
        extras = _fields(item.final, ("type", "call_id", "name", "arguments")) or ids
        call, problem = build(str(source.get("name", "")), source.get("call_id"), raw,
                              item.where, extras, **({"wire": True} if item.closed else {}))
        return [call], [problem] if problem else []
    if item.kind == "reasoning":
        return [_thinking(item, ids, open_marks)], []
    texts = _message_texts(item) or [("", {})]
    fields = _fields(item.final, ("role", "content")) or ids
    first = {"item": fields} if fields else {}
    return [Text(t, extras={**(first if n == 0 else {}), **more, **open_marks})
            for n, (t, more) in enumerate(texts)], []


def _fields(final: Mapping[str, Any] | None, owned: tuple[str, ...]) -> dict[str, Any]:
    return {k: v for k, v in (final or {}).items() if k not in owned}


def _thinking(item: Item, ids: dict[str, Any], open_marks: dict[str, Any]) -> Thinking:
    source = item.final or item.start
    summary = (item.final or {}).get("summary") or ()
    signature = source.get("encrypted_content")
    if item.final is not None:
        owned = ("type", "summary") + (("encrypted_content",) if signature is not None else ())
        extras = _fields(item.final, owned)
    else:
        extras = dict(ids)
    text = _reasoning_text(item)
    # As parse keeps it: whenever the text alone would not give the parts back, or the text
    # came from the item's `content` (DeepSeek) and the summary was empty.
    from_content = item.final is not None and not summary and bool(text)
    plain = list(summary) == [{"type": "summary_text", "text": text}] and bool(text)
    kept = {"summary": summary} if (summary and not plain) or from_content else {}
    return Thinking(text, signature=signature, vendor="openai_responses",
                    extras={**extras, **kept, **open_marks})


def _joined(chunks: dict[int, list[str]]) -> list[str]:
    return ["".join(chunks[k]) for k in sorted(chunks)]


def _message_texts(item: Item) -> list[tuple[str, dict[str, Any]]]:
    """Each output_text's or refusal's text and its other fields (annotations, ...), as
    parse keeps them (a refusal is a Text typed "refusal")."""
    if item.final is not None and item.final.get("content") is not None:
        return [(str(c.get("text", "")), _fields(c, ("type", "text")))
                if c.get("type") == "output_text" else
                (str(c.get("refusal", "")), {"type": "refusal", **_fields(c, ("type", "refusal"))})
                for c in item.final["content"] if c.get("type") in ("output_text", "refusal")]
    return [(t, {"type": "refusal"} if k in item.refusals else {})
            for k, t in ((k, "".join(item.texts[k])) for k in sorted(item.texts))]


def _reasoning_text(item: Item) -> str:
    if item.final is not None and item.final.get("summary"):
        return SUMMARY_JOIN.join(str(s.get("text", "")) for s in item.final["summary"])
    if item.final is not None and isinstance(item.final.get("content"), list):
        return "".join(str(c.get("text", "")) for c in item.final["content"]
                       if c.get("type") == "reasoning_text")
    summary = _joined(item.texts)
    return SUMMARY_JOIN.join(summary) if summary else "".join(_joined(item.reasoning))


def emit_item(
    index: int, part: Part, pieces: Splitter
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """One part -> its item's events (added … done) and the finished item."""
    if isinstance(part, ToolCall):
        return _call_events(index, part, pieces)
    if isinstance(part, Thinking):
        return _reasoning_events(index, part, pieces)
    if isinstance(part, Text):
        return _text_events(index, part, pieces)
    raise UnstreamablePartError(f"an assistant message cannot stream a {type(part).__name__}")


def _frame(index: int, item: dict[str, Any], done: dict[str, Any],
           middle: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    return ([{"type": "response.output_item.added", "output_index": index, "item": item},
             *middle,
             {"type": "response.output_item.done", "output_index": index, "item": done}], done)


def _call_events(index: int, call: ToolCall,
                 pieces: Splitter) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    item_id = str(call.extras.get("id") or f"fc_{index}")
    raw = arguments_text(call)
    item = {"type": "function_call", "id": item_id, "call_id": call.id, "name": call.name,
            "arguments": "", "status": "in_progress"}
    at = {"item_id": item_id, "output_index": index}
    middle = [{"type": "response.function_call_arguments.delta", **at, "delta": p}
              for p in pieces(raw) if p]
    middle.append({"type": "response.function_call_arguments.done", **at, "arguments": raw})
    return _frame(index, item, {**item, "arguments": raw, "status": "completed"}, middle)


def _text_events(index: int, text: Text,
                 pieces: Splitter) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    item_id = str((text.extras.get("item") or {}).get("id") or f"msg_{index}")
    item = {"type": "message", "id": item_id, "role": "assistant", "status": "in_progress",
            "content": []}
    at = {"item_id": item_id, "output_index": index, "content_index": 0}
    empty = {"type": "output_text", "text": "", "annotations": []}
    full = {**empty, "text": text.text}
    middle = [{"type": "response.content_part.added", **at, "part": empty},
              *({"type": "response.output_text.delta", **at, "delta": p, "logprobs": []}
                for p in pieces(text.text) if p),
              {"type": "response.output_text.done", **at, "text": text.text, "logprobs": []},
              {"type": "response.content_part.done", **at, "part": full}]
    return _frame(index, item, {**item, "status": "completed", "content": [full]}, middle)


def _reasoning_events(index: int, thinking: Thinking,
                      pieces: Splitter) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    item_id = str(thinking.extras.get("id") or f"rs_{index}")
    item: dict[str, Any] = {"type": "reasoning", "id": item_id, "summary": []}
    at = {"item_id": item_id, "output_index": index, "summary_index": 0}
    summary = {"type": "summary_text", "text": thinking.text}
    middle = [{"type": "response.reasoning_summary_part.added", **at,
               "part": {**summary, "text": ""}},
              *({"type": "response.reasoning_summary_text.delta", **at, "delta": p}
                for p in pieces(thinking.text) if p),
              {"type": "response.reasoning_summary_text.done", **at, "text": thinking.text},
              {"type": "response.reasoning_summary_part.done", **at, "part": summary}]
    done = {**item, "summary": [summary] if thinking.text else []}
    if thinking.signature:
        done["encrypted_content"] = thinking.signature
    return _frame(index, item, done, middle)


def response_object(model: str, output: list[dict[str, Any]], status: str) -> dict[str, Any]:
    """The `response` object Responses events carry, with `output` and `status`."""
    return {"id": "resp_stream", "object": "response", "created_at": 0, "model": model,
            "status": status, "output": output, "parallel_tool_calls": True,
            "tool_choice": "auto", "tools": []}
