"""Hypothesis strategies that make damaged chat histories, to fuzz code that handles them.

`clean_histories()` makes well-formed conversations (system prompt, user turns, parallel
tool calls answered in full, replies). Each damage strategy takes one and breaks it the way
real histories break: `orphans()`, `partial_matches()`, `out_of_order_results()`,
`wedged_messages()`, `duplicate_ids()`, `missing_ids()`, `repeated_calls()`,
`mixed_origins()`, `empty_content()`, `misplaced_system()`, `window_cuts()`.
`damaged_histories()` applies one to three damages at once.

    from hypothesis import given
    from normalizer.testing import damaged_histories

    @given(damaged_histories())
    def test_my_sender(history): ...

Needs the `hypothesis` package (`pip install 'provider-conformance[testing]'`); importing
this module is the only part of the library that does, and without it the import raises
MissingExtraError (an ImportError) naming the extra.
"""

from __future__ import annotations

import base64
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from normalizer.errors import MissingExtraError
from normalizer.model import History, Message, Part, Text, Thinking, ToolCall, ToolResult

try:
    from hypothesis import strategies as st
except ImportError as exc:  # only this module needs hypothesis: say which extra brings it
    raise MissingExtraError("normalizer.testing", "testing", "hypothesis") from exc

__all__ = [
    "ORIGINS",
    "TOOL_NAMES",
    "clean_histories",
    "cuts_after_thinking",
    "damaged",
    "damaged_histories",
    "duplicate_ids",
    "empty_content",
    "misplaced_system",
    "missing_ids",
    "mixed_origins",
    "orphans",
    "out_of_order_results",
    "partial_matches",
    "repeated_calls",
    "wedged_messages",
    "window_cuts",
]

TOOL_NAMES = ("get_weather", "search_docs", "run_sql")
ORIGINS = ("openai", "anthropic", "gemini", "mistral", "deepseek")
Draw = Callable[[st.SearchStrategy[Any]], Any]
_words = st.sampled_from(("Paris", "Rome", "ok", "thanks", "why?", "go on", "42", "done"))
_phrases = st.sampled_from(("Weather in Paris?", "and Rome?", "ok", "thanks", "why?",
                            "go on", "It is 18C.", "done", "Let me check.", "42"))


def _text(draw: Draw) -> str:
    return str(draw(_phrases))


def _call_turn(draw: Draw, turn: int, origin: str | None) -> list[Message]:
    """An assistant message with 1-3 parallel calls, and one tool message per result."""
    count = draw(st.integers(1, 3))
    calls = tuple(ToolCall(draw(st.sampled_from(TOOL_NAMES)), {"q": draw(_words)},
                           f"call_{turn}_{k}") for k in range(count))
    intro = (Text(_text(draw)),) if draw(st.booleans()) else ()
    results = [Message("tool", (ToolResult(c.id, _text(draw), name=c.name),)) for c in calls]
    return [Message("assistant", intro + calls, origin=origin), *results]


@st.composite
def clean_histories(draw: Draw, max_turns: int = 5) -> History:
    """Well-formed histories: every call answered right after it, roles in order."""
    messages: list[Message] = []
    if draw(st.booleans()):
        messages.append(Message("system", (Text("You are terse."),)))
    for turn in range(draw(st.integers(1, max_turns))):
        messages.append(Message("user", (Text(_text(draw)),)))
        origin = draw(st.sampled_from((None, *ORIGINS)))
        for step in range(draw(st.integers(0, 2))):
            messages.extend(_call_turn(draw, turn * 10 + step, origin))
        messages.append(Message("assistant", (Text(_text(draw)),), origin=origin))
    return History(tuple(messages))


def _call_turns(h: History) -> list[int]:
    return [i for i, m in enumerate(h.messages) if m.role == "assistant" and m.tool_calls]


def _tool_runs(h: History) -> list[int]:
    return [i for i, m in enumerate(h.messages) if m.role == "tool"]


def _at(draw: Draw, options: list[int]) -> int | None:
    return draw(st.sampled_from(options)) if options else None


def _with(h: History, messages: list[Message]) -> History:
    return replace(h, messages=tuple(messages))


def orphan(draw: Draw, h: History) -> History:
    """A result whose call is gone: a stray tool message, or a call turn cut out."""
    messages = list(h.messages)
    at = _at(draw, _call_turns(h))
    if at is not None and draw(st.booleans()):
        del messages[at]
        return _with(h, messages)
    where = draw(st.integers(0, len(messages)))
    stray = ToolResult(f"call_gone_{where}", _text(draw), name=draw(st.sampled_from(TOOL_NAMES)))
    messages.insert(where, Message("tool", (stray,)))
    return _with(h, messages)


def partial_match(draw: Draw, h: History) -> History:
    """Some calls of a call turn have no result (a stream broke mid-way)."""
    at = _at(draw, _tool_runs(h))
    if at is None:
        return h
    return _with(h, [m for i, m in enumerate(h.messages) if i != at])


def out_of_order(draw: Draw, h: History) -> History:
    """Results of parallel calls in another order than the calls."""
    at = _at(draw, [i for i in _tool_runs(h) if i + 1 < len(h) and h.messages[i + 1].role
                    == "tool"])
    if at is None:
        return h
    messages = list(h.messages)
    messages[at], messages[at + 1] = messages[at + 1], messages[at]
    return _with(h, messages)


def wedge(draw: Draw, h: History) -> History:
    """A user or assistant message between a call turn and (some of) its results."""
    at = _at(draw, _call_turns(h))
    if at is None:
        return h
    role = draw(st.sampled_from(("user", "assistant")))
    messages = list(h.messages)
    messages.insert(at + draw(st.integers(1, 2)), Message(role, (Text(_text(draw)),)))
    return _with(h, messages)


def _map_parts(h: History, index: int, fn: Callable[[Part], Part]) -> Message:
    return replace(h.messages[index], parts=tuple(fn(p) for p in h.messages[index].parts))


def duplicate_id(draw: Draw, h: History) -> History:
    """A later call turn reuses the id of an earlier call (and its results follow)."""
    turns = _call_turns(h)
    if len(turns) < 2:
        return h
    first, later = sorted(draw(st.lists(st.sampled_from(turns), min_size=2, max_size=2,
                                        unique=True)))
    old, new = h.messages[later].tool_calls[0].id, h.messages[first].tool_calls[0].id

    def same(part: Part) -> Part:
        if isinstance(part, ToolCall) and part.id == old:
            return replace(part, id=new)
        if isinstance(part, ToolResult) and part.call_id == old:
            return replace(part, call_id=new)
        return part

    return _with(h, [_map_parts(h, i, same) if i >= later else m
                     for i, m in enumerate(h.messages)])


def _strip_ids(part: Part) -> Part:
    if isinstance(part, ToolCall):
        return replace(part, id=None)
    if isinstance(part, ToolResult):
        return replace(part, call_id=None)
    return part


def missing_id(draw: Draw, h: History) -> History:
    """Calls and results without ids, as Gemini sends them."""
    return _with(h, [_map_parts(h, i, _strip_ids) for i in range(len(h))])


def repeated_call(draw: Draw, h: History) -> History:
    """The same call (name and arguments) made twice in one turn, without ids (Gemini)."""
    at = _at(draw, _call_turns(h))
    if at is None:
        return h
    call = replace(h.messages[at].tool_calls[0], id=None)
    results = [Message("tool", (ToolResult(None, _text(draw), name=call.name),))
               for _ in range(2)]
    end = at + 1
    while end < len(h) and h.messages[end].role == "tool":
        end += 1
    turn = replace(h.messages[at], parts=(call, call))
    return _with(h, [*h.messages[:at], turn, *results, *h.messages[end:]])


def mixed_origin(draw: Draw, h: History) -> History:
    """Assistant turns from several vendors, some with that vendor's thinking."""
    messages = list(h.messages)
    for i, message in enumerate(messages):
        if message.role != "assistant":
            continue
        origin = draw(st.sampled_from(ORIGINS))
        parts = message.parts
        if draw(st.booleans()):
            thought = Thinking(_text(draw), signature=_signature(origin, i), vendor=origin)
            parts = (thought, *parts)
        messages[i] = replace(message, origin=origin, parts=parts)
    return _with(h, messages)


def _signature(vendor: str, i: int) -> str:
    """An opaque base64 signature shaped like the vendor's: Anthropic's decode to a
    protobuf-like blob starting with byte 0x12 ("E…"), others start elsewhere."""
    head = b"\x12" if vendor == "anthropic" else b"\x0a"
    return base64.b64encode(head + f"{vendor}:{i}:signed-thinking".encode()).decode()


def cut_after_thinking(draw: Draw, h: History) -> History:
    """An assistant turn whose stream broke after its thinking (a Responses reasoning item
    with nothing after it), before the user's next message or at the end."""
    users = [i for i, m in enumerate(h.messages) if m.role == "user"]
    places = [*users[1:], len(h.messages)]
    at = _at(draw, places)
    # The Responses API's own reasoning (its parser names the vendor so) is what it keeps.
    origin = draw(st.sampled_from(("openai_responses", *ORIGINS)))
    thought = Thinking(_text(draw), signature=_signature(origin, at or 0), vendor=origin)
    turn = Message("assistant", (thought,), origin=origin)
    return _with(h, [*h.messages[:at], turn, *h.messages[at:]])


def empty(draw: Draw, h: History) -> History:
    """An empty text part or a message with no content."""
    messages = list(h.messages)
    at = draw(st.integers(0, len(messages)))
    role = draw(st.sampled_from(("user", "assistant")))
    parts = draw(st.sampled_from(((), (Text(""),))))
    messages.insert(at, Message(role, parts))
    return _with(h, messages)


def misplaced_system(draw: Draw, h: History) -> History:
    """A system message in the middle of the conversation."""
    messages = list(h.messages)
    messages.insert(draw(st.integers(1, max(1, len(messages)))),
                    Message("system", (Text("Answer in French."),)))
    return _with(h, messages)


def window_cut(draw: Draw, h: History) -> History:
    """The first k non-system messages cut off (a naive window), at any position."""
    lead = [m for m in h.messages if m.role == "system"][:1]
    rest = [m for m in h.messages if m.role != "system"]
    k = draw(st.integers(0, max(0, len(rest) - 1)))
    return _with(h, lead + rest[k:])


DAMAGES: dict[str, Callable[[Draw, History], History]] = {
    "orphans": orphan, "partial_matches": partial_match, "out_of_order_results": out_of_order,
    "wedged_messages": wedge, "duplicate_ids": duplicate_id, "missing_ids": missing_id,
    "repeated_calls": repeated_call, "mixed_origins": mixed_origin, "empty_content": empty,
    "misplaced_system": misplaced_system, "window_cuts": window_cut,
    "cut_after_thinking": cut_after_thinking,
}


def damaged(kind: str, base: st.SearchStrategy[History] | None = None) -> st.SearchStrategy[
        History]:
    """Histories from `base` (default `clean_histories()`) with the damage `kind`."""
    damage = DAMAGES[kind]

    @st.composite
    def build(draw: Draw) -> History:
        return damage(draw, draw(base if base is not None else clean_histories()))

    return build()


def orphans() -> st.SearchStrategy[History]:
    """Clean histories damaged with results whose call is gone."""
    return damaged("orphans")


def partial_matches() -> st.SearchStrategy[History]:
    """Clean histories damaged with calls with only some of their results."""
    return damaged("partial_matches")


def out_of_order_results() -> st.SearchStrategy[History]:
    """Clean histories damaged with results not in the order of their calls."""
    return damaged("out_of_order_results")


def wedged_messages() -> st.SearchStrategy[History]:
    """Clean histories damaged with a message wedged between calls and results."""
    return damaged("wedged_messages")


def duplicate_ids() -> st.SearchStrategy[History]:
    """Clean histories damaged with two calls sharing one id."""
    return damaged("duplicate_ids")


def missing_ids() -> st.SearchStrategy[History]:
    """Clean histories damaged with calls and results without ids."""
    return damaged("missing_ids")


def repeated_calls() -> st.SearchStrategy[History]:
    """Clean histories damaged with the same call made again in a later turn."""
    return damaged("repeated_calls")


def mixed_origins() -> st.SearchStrategy[History]:
    """Clean histories damaged with turns from several vendors (ids, thinking)."""
    return damaged("mixed_origins")


def empty_content() -> st.SearchStrategy[History]:
    """Clean histories damaged with messages with empty text."""
    return damaged("empty_content")


def misplaced_system() -> st.SearchStrategy[History]:
    """Clean histories damaged with a system message after the first turn."""
    return damaged("misplaced_system")


def cuts_after_thinking() -> st.SearchStrategy[History]:
    """Clean histories damaged with an assistant turn cut right after its thinking."""
    return damaged("cut_after_thinking")


def window_cuts() -> st.SearchStrategy[History]:
    """Long histories (up to 12 user turns) cut at any position."""
    return damaged("window_cuts", clean_histories(max_turns=12))


@st.composite
def damaged_histories(draw: Draw, kinds: tuple[str, ...] = tuple(DAMAGES)) -> History:
    """A clean history with one to three damages of `kinds`, applied in the drawn order."""
    history = draw(clean_histories())
    for kind in draw(st.lists(st.sampled_from(kinds), min_size=1, max_size=3)):
        history = DAMAGES[kind](draw, history)
    return history
