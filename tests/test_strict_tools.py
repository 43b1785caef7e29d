"""OpenAI's `strict` flag on a function declaration: parsed into ToolSpec.strict, rendered
back for the same protocol, and every repair that drops it is a reported change."""

from __future__ import annotations

from typing import Any

import pytest

from normalizer import check, normalize_request
from normalizer.model import ToolSpec
from normalizer.strict_mode import is_closed, open_objects
from normalizer.tools import declare, parse_declarations

OPEN = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
CLOSED = {**OPEN, "additionalProperties": False}


def _chat(schema: dict[str, Any], strict: bool | None = True) -> dict[str, Any]:
    function: dict[str, Any] = {"name": "get_weather", "description": "d", "parameters": schema}
    if strict is not None:
        function["strict"] = strict
    return {"model": "gpt-4.1-mini", "messages": [{"role": "user", "content": "hi"}],
            "tools": [{"type": "function", "function": function}]}


@pytest.mark.parametrize("protocol", ["openai_chat", "openai_responses"])
@pytest.mark.parametrize("strict", [True, False, None])
def test_the_flag_round_trips_for_openai_protocols(protocol: str, strict: bool | None) -> None:
    decls, _ = declare((ToolSpec("f", "d", CLOSED, strict),), protocol)
    (spec,) = parse_declarations(decls, protocol)
    assert spec.strict is strict
    flag = decls[0]["function"] if protocol == "openai_chat" else decls[0]
    assert ("strict" in flag) is (strict is not None)


def test_a_non_boolean_strict_is_not_the_flag() -> None:
    (spec,) = parse_declarations([{"type": "function", "name": "f", "strict": "yes"}],
                                 "openai_responses")
    assert spec.strict is None


def test_open_objects_reads_frozen_and_plain_schemas_alike() -> None:
    assert is_closed(CLOSED) and is_closed(ToolSpec("f", input_schema=CLOSED).input_schema)
    (found,) = open_objects({**CLOSED, "required": []})
    assert (found.requirement, found.key) == ("required", "city")


def test_an_open_strict_schema_loses_strict_and_says_so() -> None:
    body = _chat(OPEN)
    assert [v.rule for v in check(body, "openai")] == ["strict-tool-schema"]
    fixed = normalize_request(body, "openai_chat", "openai")
    assert [c.code for c in fixed.changes] == ["drop-tool-strict"]
    assert not fixed.changes[0].lossless
    assert "strict" not in fixed.body["tools"][0]["function"]
    assert fixed.body["tools"][0]["function"]["parameters"] == OPEN  # the schema is kept
    assert check(fixed.body, "openai") == ()


def test_a_closed_strict_schema_is_left_as_sent() -> None:
    body = _chat(CLOSED)
    fixed = normalize_request(body, "openai_chat", "openai")
    assert fixed.changes == () and fixed.body == body


def test_a_protocol_without_the_flag_reports_dropping_it() -> None:
    fixed = normalize_request(_chat(CLOSED), "openai_chat", "gemini")
    dropped = [c for c in fixed.changes if c.code == "drop-tool-strict"]
    assert len(dropped) == 1 and dropped[0].lossless is False
    assert "strict" not in str(fixed.body.get("tools"))


def test_the_flag_crosses_to_anthropic() -> None:
    # Anthropic's tool definitions take `strict` (anthropic-sdk-python types/tool_param.py).
    fixed = normalize_request(_chat(CLOSED), "openai_chat", "anthropic")
    assert fixed.body["tools"][0]["strict"] is True
    assert not [c for c in fixed.changes if c.code == "drop-tool-strict"]
    back = normalize_request(fixed.body, "anthropic", "openai")
    assert back.body["tools"][0]["function"]["strict"] is True


def test_strict_false_dropped_for_gemini_is_lossless() -> None:
    fixed = normalize_request(_chat(OPEN, strict=False), "openai_chat", "gemini")
    assert [c.lossless for c in fixed.changes if c.code == "drop-tool-strict"] == [True]


def test_the_flag_crosses_between_openai_protocols() -> None:
    fixed = normalize_request(_chat(CLOSED), "openai_chat", "openai_responses")
    assert fixed.body["tools"][0]["strict"] is True
    assert not [c for c in fixed.changes if c.code == "drop-tool-strict"]
