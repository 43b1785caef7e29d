"""`check` on structurally invalid bodies (issue 14, reliability): a body the vendor would
refuse for its shape (an array where an object belongs, a string where an array belongs)
gets a violation or a WireFormatError (unreadable input; `conformance check` exits 2),
never "no violation"."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from conformance.cli.main import main
from normalizer.check import check
from normalizer.errors import WireFormatError

CALL_ARGS = '{"city": "Oslo"}'
VALID: dict[str, tuple[str, dict[str, Any]]] = {
    "openai_chat": ("openai", {"model": "gpt-4.1-mini", "messages": [
        {"role": "user", "content": "Weather?"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "call_1", "type": "function",
             "function": {"name": "get_weather", "arguments": CALL_ARGS}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": "3C"}]}),
    "anthropic": ("anthropic", {"model": "claude-sonnet-4-5", "max_tokens": 64,
                                "system": "Be brief.",
                                "tools": [{"name": "get_weather", "description": "",
                                           "input_schema": {"type": "object"}}],
                                "messages": [
        {"role": "user", "content": "Weather?"},
        {"role": "assistant", "content": [
            {"type": "tool_use", "id": "toolu_1", "name": "get_weather",
             "input": {"city": "Oslo"}}]},
        {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_1", "content": "3C"}]}]}),
    "gemini": ("gemini", {"contents": [
        {"role": "user", "parts": [{"text": "Weather?"}]},
        {"role": "model", "parts": [{"functionCall": {"name": "get_weather",
                                                      "args": {"city": "Oslo"}},
                                     "thoughtSignature": "c2ln"}]},
        {"role": "user", "parts": [{"functionResponse": {"name": "get_weather",
                                                         "response": {"t": "3C"}}}]}],
        "systemInstruction": {"parts": [{"text": "Be brief."}]}}),
    "openai_responses": ("openai_responses", {"model": "gpt-5", "instructions": "Be brief.",
                                              "input": [
        {"role": "user", "content": "Weather?"},
        {"type": "function_call", "call_id": "call_1", "name": "get_weather",
         "arguments": CALL_ARGS},
        {"type": "function_call_output", "call_id": "call_1", "output": "3C"},
        {"type": "message", "role": "assistant",
         "content": [{"type": "output_text", "text": "3C in Oslo."}]}]}),
}
ARRAY_WRONG = (3, "x", {"a": 1}, True)
OBJECT_WRONG = (3, "x", [1], None)
# protocol -> (path, wrong values) where the protocol's schema wants another type
BREAKS: dict[str, list[tuple[tuple[Any, ...], tuple[Any, ...]]]] = {
    "openai_chat": [(("messages",), ARRAY_WRONG), (("messages", 0), OBJECT_WRONG),
                    (("messages", 0, "content"), (3, {"a": 1}, True, [1], ["x"])),
                    (("messages", 1, "tool_calls"), ARRAY_WRONG),
                    (("messages", 1, "tool_calls", 0), OBJECT_WRONG),
                    (("messages", 1, "tool_calls", 0, "function"), (3, "x", [1])),
                    (("messages", 0, "role"), (3, [1]))],
    "anthropic": [(("messages",), ARRAY_WRONG), (("messages", 0), OBJECT_WRONG),
                  (("messages", 0, "content"), (3, {"a": 1}, None, [1])),
                  (("messages", 1, "content", 0), (3, "x", [1])),
                  (("system",), (3, {"a": 1}))],
    "gemini": [(("contents",), ARRAY_WRONG), (("contents", 0), OBJECT_WRONG),
               (("contents", 0, "parts"), ARRAY_WRONG), (("contents", 0, "parts", 0),
                                                         OBJECT_WRONG),
               (("contents", 0, "parts", 0, "text"), (3, {"a": 1})),
               (("contents", 1, "parts", 0, "functionCall"), (3, "x", [1])),
               (("systemInstruction",), (3, [1]))],
    "openai_responses": [(("input",), (3, {"a": 1}, True)),
                         (("input", 0), OBJECT_WRONG),
                         (("input", 0, "content"), (3, {"a": 1}, [1])),
                         (("input", 2, "output"), (3, {"a": 1})),
                         (("input", 3, "content", 0), (3, "x")),
                         (("instructions",), (3, ["x"]))],
}


def _broken(body: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    out = copy.deepcopy(body)
    target: Any = out
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    return out


def _model(protocol: str) -> str | None:
    return "gemini-2.5-flash" if protocol == "gemini" else None  # not in a Gemini body


CASES = [(protocol, path, value) for protocol, breaks in BREAKS.items()
         for path, values in breaks for value in values]


def test_enough_cases() -> None:
    assert len(CASES) >= 60


@pytest.mark.parametrize("protocol", sorted(VALID))
def test_valid_bodies_are_clean(protocol: str) -> None:
    provider, body = VALID[protocol]
    assert check(body, provider, model=_model(protocol)) == ()


@pytest.mark.parametrize(("protocol", "path", "value"), CASES,
                         ids=[f"{p}-{'.'.join(map(str, a))}={json.dumps(v)}"
                              for p, a, v in CASES])
def test_structurally_invalid_body_is_never_clean(protocol: str, path: tuple[Any, ...],
                                                  value: Any) -> None:
    provider, body = VALID[protocol]
    try:
        found = check(_broken(body, path, value), provider, model=_model(protocol))
    except WireFormatError as exc:
        assert exc.where  # located
        return
    assert found, "a body the vendor refuses for its shape came back clean"


def test_cli_exits_2_with_the_location(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    _, body = VALID["openai_chat"]
    path = tmp_path / "body.json"
    path.write_text(json.dumps(_broken(body, ("messages", 1, "tool_calls"), {"a": 1})),
                    encoding="utf-8")
    assert main(["check", str(path), "--provider", "openai"]) == 2
    err = capsys.readouterr().err
    assert "messages[1].tool_calls: expected" in err and "got an object" in err
