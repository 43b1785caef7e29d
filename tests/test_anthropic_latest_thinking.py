"""Anthropic refuses a request whose latest assistant message carries thinking blocks that
are not as the response signed them: "messages.3.content.4: `thinking` or
`redacted_thinking` blocks in the latest assistant message cannot be modified. These blocks
must remain as they were in the original response." (anthropics/claude-code#63295,
2026-05; evidence/anthropic/thinking-blocks-modified-rejected-claude-code-2026-05.yaml).
check() cannot see it (the vendor compares with what it signed), so normalize must never be
its cause: repairing an Anthropic history for Anthropic, whatever else it fixes, keeps the
latest assistant message's blocks as they came, in order, interleaved thinking included."""

from __future__ import annotations

import copy
from typing import Any

import pytest
import sdk_calls as calls

from normalizer import check, normalize_request

SIGNATURE = "EqQBCkgIARABGAIiQL" + "A" * 60
LATEST = [
    {"type": "thinking", "thinking": "Grep first.", "signature": SIGNATURE},
    {"type": "tool_use", "id": "toolu_01B", "name": "grep", "input": {"q": "x"}},
    {"type": "thinking", "thinking": "And read b too.", "signature": SIGNATURE},
    {"type": "text", "text": "Also b."},
    {"type": "tool_use", "id": "toolu_01C", "name": "read", "input": {"path": "b"}},
]


def _body() -> dict[str, Any]:
    return {"model": "claude-sonnet-4-6", "max_tokens": 4096,
            "thinking": {"type": "enabled", "budget_tokens": 2048},
            "tools": [{"name": n, "input_schema": {"type": "object"}} for n in ("read", "grep")],
            "messages": [
                {"role": "user", "content": "Look at a and b."},
                {"role": "assistant", "content": copy.deepcopy(LATEST)},
                {"role": "user", "content": [
                    {"type": "tool_result", "tool_use_id": "toolu_01B", "content": "hit"},
                    {"type": "tool_result", "tool_use_id": "toolu_01C", "content": "B"}]}]}


def _results(body: dict[str, Any]) -> list[Any]:
    return body["messages"][2]["content"]


def _damaged(kind: str) -> dict[str, Any]:
    body = _body()
    if kind == "a result missing":
        del _results(body)[1]
    elif kind == "a result given twice":
        _results(body).append(dict(_results(body)[0]))
    elif kind == "a user message wedged":
        body["messages"].insert(2, {"role": "user", "content": "Hmm?"})
    elif kind == "an orphan result":
        _results(body).append({"type": "tool_result", "tool_use_id": "toolu_zz",
                               "content": "?"})
    elif kind == "an empty text block":
        body["messages"][0]["content"] = [{"type": "text", "text": ""},
                                          {"type": "text", "text": "Look at a and b."}]
    return body


@pytest.mark.parametrize("kind", ["a result missing", "a result given twice",
                                  "a user message wedged", "an orphan result",
                                  "an empty text block"])
def test_repairs_leave_the_latest_assistant_message_as_it_came(kind: str, emu: Any) -> None:
    fixed = normalize_request(_damaged(kind), "anthropic", "anthropic")
    assert fixed.changes, kind  # something was repaired
    latest = [m for m in fixed.body["messages"] if m["role"] == "assistant"][-1]
    assert latest["content"] == LATEST
    assert check(fixed.body, "anthropic") == ()
    sdk = calls.client("anthropic", emu.sdk_base_url("anthropic"))
    assert calls.send("anthropic", sdk, fixed.body).content
