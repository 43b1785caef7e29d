"""Responses round trip keeps an empty assistant message (issue 14, reliability): an
assistant message item with `content: []` next to other assistant-side items used to
vanish on re-reading, having no part to add to the run it was joined into."""

from __future__ import annotations

from typing import Any

import pytest

from normalizer.model import History, Message, Text, ToolCall, ToolResult
from normalizer.wire.openai_responses import parse, render

USER = Message("user", (Text("hi"),))
EMPTY = Message("assistant", ())
SAID = Message("assistant", (Text("a"),))
CALL = Message("assistant", (ToolCall("f", {}, "c1"),))
RESULT = Message("tool", (ToolResult("c1", "r"),))


@pytest.mark.parametrize("messages", [
    (USER, SAID, EMPTY, USER),
    (USER, EMPTY, SAID, USER),
    (USER, CALL, RESULT, EMPTY),
    (USER, EMPTY),
    (USER, EMPTY, EMPTY, USER),
])
def test_history_round_trip_keeps_empty_assistant(messages: tuple[Message, ...]) -> None:
    history = History(messages)
    assert parse(render(history)) == history


@pytest.mark.parametrize("items", [
    [{"role": "user", "content": "hi"},
     {"type": "message", "role": "assistant", "id": "msg_1", "status": "completed",
      "content": []},
     {"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"},
     {"type": "function_call_output", "call_id": "c", "output": "r"}],
    [{"role": "user", "content": "hi"},
     {"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"},
     {"role": "assistant", "content": []},
     {"type": "function_call_output", "call_id": "c", "output": "r"}],
])
def test_wire_round_trip_keeps_empty_assistant_item(items: list[dict[str, Any]]) -> None:
    body = {"model": "m", "input": items}
    assert render(parse(body), model="m") == body
