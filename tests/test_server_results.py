"""An Anthropic server tool result with no server_tool_use block before it in its message
(rule server-tool-result-orphan): found with Anthropic's text, sent as text by normalize
with a lossy change, and a result that follows its server_tool_use left alone."""

from __future__ import annotations

from typing import Any

import pytest

from normalizer import check, normalize_request

ID = "srvtoolu_01JjfQsdhSJkT7qLCL7Pj9jc"
RESULT = {"type": "advisor_tool_result", "tool_use_id": ID,
          "content": {"type": "advisor_result", "text": "Replicas first."}}
USE = {"type": "server_tool_use", "id": ID, "name": "advisor", "input": {}}


def _body(*assistant: dict[str, Any]) -> dict[str, Any]:
    return {"model": "claude-sonnet-5", "max_tokens": 64,
            "tools": [{"type": "advisor_20260301", "name": "advisor",
                       "model": "claude-opus-4-8"}],
            "messages": [{"role": "user", "content": "Plan the migration."},
                         {"role": "assistant", "content": [*assistant,
                                                           {"type": "text", "text": "Done."}]},
                         {"role": "user", "content": "Go on."}]}


def test_a_result_without_its_use_is_refused_in_anthropics_words() -> None:
    (found,) = check(_body(RESULT), "anthropic")
    assert found.rule == "server-tool-result-orphan"
    assert found.location == "messages[1].content[0]"
    assert found.message == (
        f"messages.1.content.0: unexpected `tool_use_id` found in `advisor_tool_result` "
        f"blocks: {ID}. Each `advisor_tool_result` block must have a corresponding "
        "`server_tool_use` block before it.")


@pytest.mark.parametrize("blocks", [(USE, RESULT), (USE,)])
def test_a_result_after_its_use_or_a_use_alone_passes(blocks: tuple[dict[str, Any], ...]) -> None:
    assert check(_body(*blocks), "anthropic") == ()


def test_the_use_after_the_result_does_not_count() -> None:
    assert [v.rule for v in check(_body(RESULT, USE), "anthropic")] == [
        "server-tool-result-orphan"]


def test_an_mcp_result_is_not_this_rule() -> None:
    mcp = {"type": "mcp_tool_result", "tool_use_id": "mcptoolu_1", "content": []}
    assert "server-tool-result-orphan" not in {v.rule for v in check(_body(mcp), "anthropic")}


def test_normalize_sends_the_orphan_result_as_text_and_keeps_a_paired_one() -> None:
    fixed = normalize_request(_body(RESULT), "anthropic", "anthropic")
    (change,) = fixed.changes
    assert (change.code, change.lossless) == ("orphan-server-result-as-text", False)
    assert change.where == "messages[1].parts[0]" and ID in change.what
    first = fixed.body["messages"][1]["content"][0]
    assert first["type"] == "text" and "Replicas first." in first["text"] and ID in first["text"]
    assert check(fixed.body, "anthropic") == ()
    assert normalize_request(fixed.body, "anthropic", "anthropic").changes == ()
    paired = normalize_request(_body(USE, RESULT), "anthropic", "anthropic")
    assert paired.changes == ()
    assert paired.body["messages"][1]["content"][:2] == [USE, RESULT]
