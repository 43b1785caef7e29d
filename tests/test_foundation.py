"""The package installs, its public API is complete, and the model is immutable."""

from __future__ import annotations

import dataclasses
import subprocess
import sys

import pytest

import normalizer
from normalizer import History, JsonMap, Message, Text, ToolCall, ToolResult
from normalizer.errors import UnknownProtocolError


def test_protocols_listed() -> None:
    assert normalizer.PROTOCOLS == ("openai_chat", "openai_responses", "anthropic", "gemini")


def test_all_names_exist() -> None:
    for name in normalizer.__all__:
        assert hasattr(normalizer, name), name


def test_unknown_protocol_lists_known() -> None:
    with pytest.raises(UnknownProtocolError) as info:
        normalizer.parse({}, "openai_chatt")
    for known in normalizer.PROTOCOLS:
        assert known in str(info.value)


def test_model_is_frozen_and_deeply_immutable() -> None:
    call = ToolCall(name="f", arguments={"xs": [1, {"a": 2}]}, id="c1")
    assert isinstance(call.arguments, JsonMap)
    assert call.arguments["xs"] == (1, JsonMap({"a": 2}))
    with pytest.raises(dataclasses.FrozenInstanceError):
        call.name = "g"  # type: ignore[misc]
    msg = Message("assistant", [Text("hi"), call])
    assert isinstance(msg.parts, tuple)
    assert hash(History((msg,))) == hash(History((Message("assistant", (Text("hi"), call)),)))
    assert call.arguments.thaw() == {"xs": [1, {"a": 2}]}


def test_model_rejects_unknown_role() -> None:
    with pytest.raises(ValueError, match="unknown role 'bot'"):
        Message("bot", ())  # type: ignore[arg-type]


def test_tool_result_text() -> None:
    assert ToolResult("c1", (Text("a"), Text("b"))).text == "ab"


def test_console_script_help() -> None:
    out = subprocess.run([sys.executable, "-m", "conformance.cli.main", "--help"],
                         capture_output=True, text=True, check=True)
    assert "usage: conformance" in out.stdout
