"""parse_string_arguments: a call's arguments left as text become an object for a protocol
that needs one, and the rest of the history (its extras included) is kept."""

from __future__ import annotations

from normalizer.model import History, Message, Text, ToolCall, ToolResult
from normalizer.normalize import normalize


def _history(arguments: str) -> History:
    return History((Message("user", (Text("weather?"),)),
                    Message("assistant", (ToolCall("get_weather", arguments, "c1"),)),
                    Message("tool", (ToolResult("c1", "18C"),))),
                   extras={"app_thread": "t-42"})


def test_text_that_parses_becomes_the_object_and_extras_stay() -> None:
    out = normalize(_history('{"city": "Paris"}'), "anthropic")
    assert out.history.messages[1].tool_calls[0].arguments == {"city": "Paris"}
    assert dict(out.history.extras) == {"app_thread": "t-42"}
    assert [(c.code, c.lossless) for c in out.changes
            if c.pass_name == "parse_string_arguments"] == [("parse-string-arguments", True)]


def test_cut_text_becomes_an_empty_object_quoted_in_a_lossy_change() -> None:
    out = normalize(_history('{"city": "Pa'), "anthropic")
    assert out.history.messages[1].tool_calls[0].arguments == {}
    assert dict(out.history.extras) == {"app_thread": "t-42"}
    lossy = [c for c in out.changes if c.pass_name == "parse_string_arguments"]
    assert len(lossy) == 1 and not lossy[0].lossless and '{"city": "Pa' in lossy[0].what
