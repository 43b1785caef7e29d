"""Functions whose strict flags differ (rule strict-tools-mixed). Cerebras: "Tools with mixed
values for 'strict' are not allowed. Please set all tools to 'strict: true' or 'strict:
false'" (mpfaffenberger/code_puppy#368, 400; RooCodeInc/Roo-Code#10334, 422), for strict
true beside false or beside no flag at all. normalize removes every flag and keeps the
schemas; the tools that were strict are reported as a loss."""

from __future__ import annotations

from typing import Any

import pytest
import sdk_calls as calls

from normalizer import check, normalize, normalize_request
from normalizer.model import History, Message, Text, ToolSpec

WORDS = ("Tools with mixed values for 'strict' are not allowed. Please set all tools to "
         "'strict: true' or 'strict: false'")
CLOSED = {"type": "object", "properties": {"path": {"type": "string"}},
          "required": ["path"], "additionalProperties": False}
OPEN = {"type": "object", "properties": {"directory": {"type": "string"},
                                         "recursive": {"type": "boolean"}},
        "required": ["directory"]}


def _tool(name: str, parameters: dict[str, Any], strict: bool | None) -> dict[str, Any]:
    function: dict[str, Any] = {"name": name, "description": f"The {name} tool.",
                                "parameters": parameters}
    if strict is not None:
        function["strict"] = strict
    return {"type": "function", "function": function}


def _body(*flags: bool | None) -> dict[str, Any]:
    tools = [_tool("read_file", CLOSED, flags[0]),
             *(_tool(f"list_files_{k}", OPEN, flag) for k, flag in enumerate(flags[1:]))]
    return {"model": "zai-glm-4.7", "tools": tools,
            "messages": [{"role": "user", "content": "Read notes.txt and list its folder."}]}


@pytest.mark.parametrize("flags", [(True, None), (True, False), (None, True), (True, True, None)])
def test_cerebras_refuses_strict_beside_false_or_no_flag_in_its_words(
        flags: tuple[bool | None, ...]) -> None:
    (found,) = check(_body(*flags), "cerebras")
    assert (found.rule, found.location, found.status, found.message) == (
        "strict-tools-mixed", "tools", 400, WORDS)
    assert found.error["param"] == "tools"


@pytest.mark.parametrize("flags", [(True,), (True, True), (None, None), (False, None),
                                   (False, False)])
def test_flags_that_read_alike_are_taken(flags: tuple[bool | None, ...]) -> None:
    assert check(_body(*flags), "cerebras") == ()


def test_only_cerebras_has_the_rule() -> None:
    assert check(_body(True, None), "groq") == ()
    assert check(_body(True, None), "openai") == ()  # OpenAI's flag is per function


def test_normalize_removes_every_flag_keeps_the_schemas_and_says_which_was_lost() -> None:
    body = _body(True, False, None)
    fixed = normalize_request(body, "openai_chat", "cerebras")
    functions = [t["function"] for t in fixed.body["tools"]]
    assert all("strict" not in f for f in functions)
    assert [f["parameters"] for f in functions] == [CLOSED, OPEN, OPEN]
    assert [(c.pass_name, c.code, c.where, c.lossless) for c in fixed.changes] == [
        ("drop_mixed_strict_flags", "drop-tool-strict", "tools.read_file.strict", False),
        ("drop_mixed_strict_flags", "drop-tool-strict", "tools.list_files_0.strict", True)]
    assert check(fixed.body, "cerebras") == ()
    # Every flag the same: nothing to do, and another vendor keeps the flags as sent.
    same = _body(True, True)
    assert normalize_request(same, "openai_chat", "cerebras").body["tools"] == same["tools"]
    kept = normalize_request(body, "openai_chat", "openai").body["tools"]
    assert [t["function"].get("strict") for t in kept] == [True, False, None]


def test_the_normalize_api_unifies_the_tools_it_is_given() -> None:
    history = History((Message("user", (Text("Read notes.txt and list its folder."),)),))
    tools = (ToolSpec("read_file", "The text of a file.", CLOSED, strict=True),
             ToolSpec("list_files", "The files of a folder.", OPEN))
    done = normalize(history, "cerebras", tools=tools)
    assert [t["function"].get("strict") for t in done.render()["tools"]] == [None, None]
    assert [c.where for c in done.changes] == ["tools.read_file.strict"]
    assert normalize(history, "cerebras", tools=tools[:1]).changes == ()


def test_through_the_cerebras_sdk_seam_raw_is_refused_and_normalized_answered(emu: Any) -> None:
    sdk = calls.client("openai_chat", emu.sdk_base_url("cerebras"))
    body = _body(True, None)
    said = calls.refused("openai_chat", sdk, body)
    assert (said.status, said.message) == (400, WORDS)
    reply = calls.send("openai_chat", sdk,
                       normalize_request(body, "openai_chat", "cerebras").body)
    assert reply.choices[0].finish_reason in {"stop", "tool_calls"}
