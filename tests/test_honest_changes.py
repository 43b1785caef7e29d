"""Honest changes (issue 17 item 5): across vendor switches, every user text and every tool
output (string or structured) is in the body `normalize_request` returns, or a lossy change
names it (its text or its call id). Histories come from the damaged-history strategies;
each user text and tool output is first made unique, so presence means this one arrived."""

from __future__ import annotations

import json
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from normalizer import PROVIDERS, History, Message, Text, ToolResult, normalize_request
from normalizer.protocols import PROTOCOLS
from normalizer.testing import damaged_histories
from normalizer.wire import render


def _marked(history: History, structured: list[bool]) -> tuple[History, dict[str, str | None]]:
    """Each user text and tool output gets a unique marker; -> (history, marker -> call id)."""
    marks: dict[str, str | None] = {}
    messages: list[Message] = []
    for i, message in enumerate(history.messages):
        parts = []
        for j, part in enumerate(message.parts):
            mark = f"M{i}x{j}"
            if message.role == "user" and isinstance(part, Text):
                part, marks[mark] = Text(f"{mark} {part.text}", part.extras), None
            elif isinstance(part, ToolResult):
                as_value = structured[(i + j) % len(structured)]
                part = replace(part, content="" if as_value else f"{mark} {part.text}",
                               value={"result": mark, "n": j} if as_value else None)
                marks[mark] = part.call_id
            parts.append(part)
        messages.append(replace(message, parts=tuple(parts)))
    return History(tuple(messages), history.extras), marks


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(damaged_histories(), st.sampled_from(PROTOCOLS), st.sampled_from(sorted(PROVIDERS)),
       st.lists(st.booleans(), min_size=1, max_size=4))
def test_nothing_disappears_without_a_lossy_change(history: History, source: str,
                                                   provider: str,
                                                   structured: list[bool]) -> None:
    if source != "gemini":  # only Gemini's wire holds a structured result as such
        structured = [False]
    history, marks = _marked(history, structured)
    body = render(history, source)
    result = normalize_request(body, source, provider)
    sent = json.dumps(result.body, ensure_ascii=False)
    lossy = " ".join(c.what for c in result.changes if not c.lossless)
    for mark, call_id in marks.items():
        named = mark in lossy or (call_id is not None and call_id in lossy)
        assert mark in sent or named, (mark, source, provider, result.changes)


def test_a_participant_name_that_cannot_cross_is_named_in_a_lossy_change() -> None:
    # Chat's `name` tells apart speakers of one role (openinference's recorded crewAI and
    # LangChain bodies carry it); Anthropic, Gemini and Responses have no field for it, and
    # their renderers left it out unsaid.
    body = {"model": "gpt-4o", "messages": [
        {"role": "user", "content": "hi", "name": "ann"},
        {"role": "assistant", "content": "hello"},
        {"role": "user", "content": "and me?", "name": "bob"}]}
    for target in ("anthropic", "gemini", "openai_responses"):
        out = normalize_request(body, "openai_chat", target)
        named = [c for c in out.changes if c.code == "participant-name-dropped"]
        assert [("'ann'" in c.what, "'bob'" in c.what) for c in named] == [
            (True, False), (False, True)], target
        assert not any(c.lossless for c in named)
    same = normalize_request(body, "openai_chat", "openai")
    assert same.body == body and same.changes == ()
