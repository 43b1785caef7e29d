"""OpenAI Chat Completions streams (and the vendors that copy them: DeepSeek, Groq, Mistral,
vLLM, Ollama, …): `chat.completion.chunk` objects whose `choices[].delta` carries `content`,
`reasoning_content` and `tool_calls` fragments keyed by `index`; the first fragment of a call
has `id` and `function.name`, later ones only `function.arguments` pieces, and parallel calls
may interleave. The stream's `finish_reason`, or the final `data: [DONE]` (fed as the
string "[DONE]"), is the only end signal: there is no per-call stop, so every call is closed
by it, and a cut stream leaves every call incomplete.

Source of the shapes: openai-python `types/chat/chat_completion_chunk.py` and its
accumulator `lib/streaming/_deltas.py` (the SDK concatenates fragments by `index`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from normalizer.model import Message, Part, Text, Thinking, ToolCall
from normalizer.protocols import CHAT_CALL_FIELDS, CHAT_FUNCTION_FIELDS, DEFAULT_MODEL
from normalizer.streaming.base import BaseAssembler
from normalizer.streaming.emitting import Splitter, arguments_text, round_robin, whole
from normalizer.streaming.result import (
    StreamProblem,
    StreamResult,
    cut_call,
    derive_call_id,
    finished_call,
)

# `reasoning_content` is DeepSeek's field; OpenRouter streams `reasoning` (openrouter.ai docs,
# ChatStreamDelta). Both become one vendorless Thinking.
_REASONING_KEYS = ("reasoning_content", "reasoning")


# A call fragment's fields the call is made of (a finished call's, and `index`); any other
# goes to the call's extras, as parse keeps them.
_FRAGMENT_FIELDS = CHAT_CALL_FIELDS | {"index"}


@dataclass(slots=True)
class _Call:
    where: str
    id: str | None
    name: str
    raw: list[str] = field(default_factory=list)
    extras: dict[str, Any] = field(default_factory=dict)

    def keep_extras(self, fragment: Mapping[str, Any], fn: Mapping[str, Any]) -> None:
        """A fragment's fields other than the call's own into `extras` (a later fragment's
        value wins), its function's under "function": what parse keeps of the finished call.
        Gemini's OpenAI endpoint sends `extra_content.google.thought_signature` on its calls,
        in the call's chunk (THU-MAIC/OpenMAIC#1556, measured) or in a chunk of its own
        (open-webui/computer#224), and Gemini 3 refuses the next turn without it ("Function
        call is missing a thought_signature in functionCall parts")."""
        for key, value in fragment.items():
            if key not in _FRAGMENT_FIELDS:
                self.extras[key] = value
        for key, value in fn.items():
            if key not in CHAT_FUNCTION_FIELDS:
                self.extras.setdefault("function", {})[key] = value


class Assembler(BaseAssembler):
    """Feed chunks with `feed`; read the message so far with `result()` at any time (a cut
    stream is simply a result taken before the last chunk). `choice` selects one of n
    choices; `id_seed` salts the ids derived for calls sent without one; `origin` is the
    provider name set on the message."""

    protocol = "openai_chat"

    def __init__(self, *, choice: int = 0, id_seed: str = "", origin: str | None = None) -> None:
        super().__init__(origin=origin)
        self._choice = choice
        self._id_seed = id_seed
        # the parts in the order they opened (a dict as an ordered set: a delta of each of
        # thousands of parallel calls asks whether its call is open)
        self._order: dict[tuple[str, int], None] = {}
        self._text: list[str] = []
        self._reasoning: list[str] = []
        self._calls: dict[int, _Call] = {}  # by call number: the wire index, where it names one
        self._alias: dict[int, int] = {}  # a wire index -> the call it continues now, if not itself
        self._by_id: dict[str, int] = {}  # a call id -> its call number
        self._last: int | None = None  # the call opened last
        self._next = 0  # one past the highest call number opened
        self._finish: str | None = None
        self._reasoning_field: str | None = None
        self._details: list[dict[str, Any]] = []  # OpenRouter's reasoning_details, merged

    def _handle(self, chunk: Mapping[str, Any], where: str) -> None:
        if "error" in chunk and not chunk.get("choices"):
            detail = json.dumps(chunk["error"], ensure_ascii=False)
            self._problems.append(StreamProblem("stream-error", where, detail))
            return
        choices = chunk.get("choices")
        if not isinstance(choices, list):
            self._problems.append(StreamProblem("malformed-event", where, "no `choices` list"))
            return
        for k, choice in enumerate(choices):
            if isinstance(choice, Mapping) and choice.get("index", 0) == self._choice:
                self._choice_delta(choice, f"{where}.choices[{k}]")

    def _choice_delta(self, choice: Mapping[str, Any], where: str) -> None:
        delta = choice.get("delta") or {}
        content = delta.get("content")
        if isinstance(content, str) and content:
            self._open(("text", 0))
            self._text.append(content)
        for key in _REASONING_KEYS:
            reasoning = delta.get(key)
            if isinstance(reasoning, str) and reasoning:
                self._open(("reasoning", 0))
                self._reasoning.append(reasoning)
                self._reasoning_field = self._reasoning_field or key
        details = delta.get("reasoning_details")
        if isinstance(details, list):
            _merge_details(self._details, details)
        for j, fragment in enumerate(delta.get("tool_calls") or ()):
            self._tool_delta(fragment, f"{where}.delta.tool_calls[{j}]")
        if choice.get("finish_reason"):
            self._finish = str(choice["finish_reason"])

    def _tool_delta(self, fragment: Mapping[str, Any], where: str) -> None:
        fn = fragment.get("function") or {}
        call_id, name, args = fragment.get("id"), fn.get("name"), fn.get("arguments")
        index = fragment.get("index")
        if isinstance(index, int):
            number = self._alias.get(index, index)
            call = self._calls.get(number)
            if call is not None and call_id and call.id and call_id != call.id:
                number = self._reindexed(index, call_id)
                call = self._calls.get(number)
        else:
            number = self._unindexed(call_id)
            call = self._calls.get(number)
        if call is None:
            call = self._new_call(number, index, call_id, name, args, where)
            if call is None:
                return
        # Some compatible vendors repeat id and name in every chunk: a repeat is not a piece.
        if name and name != call.name:
            call.name += name
        if call_id and not call.id:
            call.id = call_id
            self._by_id[call_id] = number
        if isinstance(args, str):
            call.raw.append(args)
        elif isinstance(args, Mapping):  # a few compatible servers send the object itself
            call.raw.append(json.dumps(args, ensure_ascii=False, separators=(",", ":")))
        if not _FRAGMENT_FIELDS.issuperset(fragment) or not CHAT_FUNCTION_FIELDS.issuperset(fn):
            call.keep_extras(fragment, fn)

    def _new_call(self, number: int, index: Any, call_id: str | None, name: str | None,
                  args: Any, where: str) -> _Call | None:
        """The call a fragment opens as `number`; None (and a problem) for a fragment that
        names no call: no id, no name."""
        if not call_id and not name:
            shown = index if isinstance(index, int) else number
            self._problems.append(StreamProblem(
                "unknown-index", where,
                f"fragment for tool_calls index {shown}, which no earlier chunk opened "
                "(no id or name); fragment kept here, not in the message",
                raw=args if isinstance(args, str) else None))
            return None
        call = self._calls[number] = _Call(where=where, id=call_id or None, name="")
        self._open(("call", number))
        self._last, self._next = number, max(self._next, number + 1)
        if call_id:
            self._by_id[call_id] = number
        return call

    def _reindexed(self, index: int, call_id: str) -> int:
        """The call of a fragment at wire `index` whose id is not that of the call opened
        there. Ollama sends every parallel call of a turn at index 0, told apart by their ids
        alone (ollama/ollama#15457, #16212); read by index, they merge into one call named
        `write_filewrite_file` whose arguments are two JSON objects end to end
        (NousResearch/hermes-agent#3468, BerriAI/litellm#33678). So the fragment continues
        the call its id names, or opens a new one, and the index stands for that call from
        then on (the fragments after it, without id, continue it)."""
        number = self._alias[index] = self._by_id.get(call_id, self._next)
        return number

    def _unindexed(self, call_id: str | None) -> int:
        """Vendors that omit `index` (Ollama before 0.4.7, ollama/ollama#7881): a fragment
        with an id continues the call opened with it, or opens the next one; a fragment
        without continues the call opened last."""
        if call_id:
            return self._by_id.get(call_id, self._next)
        return self._next if self._last is None else self._last

    def _open(self, key: tuple[str, int]) -> None:
        self._order.setdefault(key)

    def result(self) -> StreamResult:
        """The assembled message so far, and how the stream went."""
        parts: list[Part] = []
        problems = list(self._problems)
        calls = 0
        for kind, index in self._order:
            if kind == "text":
                parts.append(Text("".join(self._text)))
            elif kind == "reasoning":
                parts.append(Thinking("".join(self._reasoning)))
            else:
                call, problem = self._build_call(self._calls[index], calls)
                calls += 1
                parts.append(call)
                problems.extend([problem] if problem else [])
        # As parse reads the same turn: thinking sent as `reasoning` is written back so.
        extras: dict[str, Any] = (
            {"reasoning_field": "reasoning"} if self._reasoning_field == "reasoning" else {})
        if self._details:  # kept as parse keeps them; the vendor wants them back
            extras["reasoning_details"] = [dict(d) for d in self._details]
        message = Message("assistant", tuple(parts), origin=self._origin, extras=extras)
        # `data: [DONE]` ends a stream too: a vendor that never sends finish_reason
        # (Snowflake) has still finished.
        complete = self._finish is not None or self._done
        return StreamResult(message, complete, self._finish, tuple(problems))

    def _build_call(self, call: _Call, ordinal: int) -> tuple[ToolCall, StreamProblem | None]:
        raw = "".join(call.raw)
        extras: dict[str, Any] = dict(call.extras)
        call_id = call.id
        if call_id is None:
            call_id = derive_call_id(self._id_seed, ordinal, call.name, raw)
            extras["derived_id"] = True
        if self._finish is None and not self._done:
            return cut_call(call.name, call_id, raw, call.where, extras)
        return finished_call(call.name, call_id, raw, call.where, extras, wire=True)


# Pieces of a reasoning detail's text that OpenRouter streams under one `index`.
_DETAIL_PIECES = ("text", "summary", "data")


def _merge_details(merged: list[dict[str, Any]], pieces: list[Any]) -> None:
    """OpenRouter streams `reasoning_details` (reasoning text, summaries, encrypted blocks,
    with the signature the model needs back) in `delta`s: each piece names its detail by
    `index`, its text, summary or data continuing that detail's, its other fields set as
    they come; a piece without an index is a detail of its own. Apps must send the details
    back for tool calls with Claude and Gemini 3 models (openrouter.ai/docs, reasoning
    tokens, "Preserving reasoning blocks"; RooCodeInc/Roo-Code#9506, cline/cline#7551),
    and parse keeps them: a stream must not drop them."""
    for piece in pieces:
        if not isinstance(piece, Mapping):
            continue
        index = piece.get("index")
        same = next((d for d in merged if isinstance(index, int) and d.get("index") == index),
                    None)
        if same is None:
            merged.append(dict(piece))
            continue
        for key, value in piece.items():
            if key in _DETAIL_PIECES and isinstance(value, str) and isinstance(same.get(key), str):
                same[key] += value
            elif value is not None or key not in same:
                same[key] = value


def emit(
    message: Message,
    *,
    split: Splitter | None = None,
    interleave: bool = False,
    model: str = DEFAULT_MODEL["openai_chat"],
    finish_reason: str | None = None,
) -> list[dict[str, Any]]:
    """An assistant message -> the chunks an OpenAI server would stream for it (the inverse
    of `assemble`; emulators serve these). `split` cuts every text and argument string into
    fragments; `interleave` sends the fragments of parallel calls round-robin."""
    pieces = split or whole
    deltas: list[dict[str, Any]] = [{"role": "assistant", "content": ""}]
    for part in message.parts:
        if isinstance(part, Thinking):
            deltas += [{"reasoning_content": p} for p in pieces(part.text) if p]
        elif isinstance(part, Text):
            deltas += [{"content": p} for p in pieces(part.text) if p]
    calls = [c for c in message.parts if isinstance(c, ToolCall)]
    streams = [_call_deltas(i, c, pieces) for i, c in enumerate(calls)]
    deltas += round_robin(streams) if interleave else [d for s in streams for d in s]
    finish = finish_reason or ("tool_calls" if calls else "stop")
    chunks = [_chunk(model, d, None) for d in deltas]
    return [*chunks, _chunk(model, {}, finish)]


def _call_deltas(index: int, call: ToolCall, pieces: Splitter) -> list[dict[str, Any]]:
    raw = arguments_text(call)
    first = {"index": index, "id": call.id, "type": "function",
             "function": {"name": call.name, "arguments": ""}}
    rest = [{"index": index, "function": {"arguments": p}} for p in pieces(raw) if p]
    return [{"tool_calls": [first]}, *({"tool_calls": [r]} for r in rest)]


def _chunk(model: str, delta: dict[str, Any], finish: str | None) -> dict[str, Any]:
    return {"id": "chatcmpl-stream", "object": "chat.completion.chunk", "created": 0,
            "model": model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
