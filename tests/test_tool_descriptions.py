"""A function description longer than the vendor takes (rule tool-description-too-long):
found by check(), cut by normalize with a lossy change that says where, and left alone
where the target states no limit, or no longer has one (api.openai.com lifted it in 2025;
Azure OpenAI raised it to 1,048,576 characters by late 2025)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from normalizer import check, normalize_request
from normalizer.passes.tool_descriptions import MARK

LONG = "Search the issue tracker by text, assignee or label. " * 40  # 2,120 characters


def _chat(description: str) -> dict[str, Any]:
    return {"model": "gpt-4o", "messages": [{"role": "user", "content": "Open bugs?"}],
            "tools": [{"type": "function", "function": {
                "name": "get_weather", "description": "Current weather for a city.",
                "parameters": {"type": "object", "properties": {}}}},
                {"type": "function", "function": {
                    "name": "search_issues", "description": description,
                    "parameters": {"type": "object", "properties": {}}}}]}


REFUSED = dt.date(2025, 4, 25)  # getsentry/sentry-mcp#106
ACCEPTED = dt.date(2025, 12, 19)  # Mirascope's recording, answered 200
AZURE_1024 = dt.date(2024, 11, 8)  # OpenHands/OpenHands#4838, a gpt-4o deployment
MIB = 1_048_576  # Azure's limit in its model page's copies from late 2025 on


@pytest.mark.parametrize(("provider", "on"), [("openai", REFUSED), ("azure_openai", AZURE_1024)])
def test_a_description_over_1024_is_found_with_the_vendors_text(
        provider: str, on: dt.date | None) -> None:
    (found,) = check(_chat(LONG), provider, on=on)
    assert found.rule == "tool-description-too-long"
    assert found.location == "tools[1].function.description"
    assert found.message == (
        "Invalid 'tools[1].function.description': string too long. Expected a string with "
        f"maximum length 1024, but got a string with length {len(LONG)} instead.")
    assert found.error["code"] == "string_above_max_length"


def test_exactly_1024_characters_pass() -> None:
    assert check(_chat("d" * 1024), "azure_openai", on=AZURE_1024) == ()
    assert [v.rule for v in check(_chat("d" * 1025), "azure_openai", on=AZURE_1024)] == [
        "tool-description-too-long"]


def test_azure_takes_up_to_a_mebibyte_today() -> None:
    assert check(_chat(LONG), "azure_openai") == ()
    assert check(_chat("d" * MIB), "azure_openai") == ()
    (found,) = check(_chat("d" * (MIB + 1)), "azure_openai")
    assert found.message == (
        "Invalid 'tools[1].function.description': string too long. Expected a string with "
        f"maximum length {MIB}, but got a string with length {MIB + 1} instead.")
    fixed = normalize_request(_chat(LONG), "openai_chat", "azure_openai")
    assert fixed.changes == ()
    assert fixed.body["tools"][1]["function"]["description"] == LONG


def test_openai_takes_long_descriptions_since_the_limit_was_lifted() -> None:
    assert check(_chat(LONG), "openai", on=ACCEPTED) == ()
    assert check(_chat(LONG), "openai") == ()
    fixed = normalize_request(_chat(LONG), "openai_chat", "openai")
    assert fixed.changes == ()
    assert fixed.body["tools"][1]["function"]["description"] == LONG


def test_normalize_cuts_the_description_and_says_what_went() -> None:
    provider = "azure_openai"
    fixed = normalize_request(_chat(LONG), "openai_chat", provider, on=AZURE_1024)
    (change,) = fixed.changes
    assert (change.code, change.lossless) == ("shorten-tool-description", False)
    assert change.where == "tools.search_issues.description"
    assert f"from {len(LONG)} to 1024 characters" in change.what
    assert f"removed {len(LONG) - 1023} characters" in change.what
    described = [t["function"]["description"] for t in fixed.body["tools"]]
    assert described[0] == "Current weather for a city."  # the short one is untouched
    assert described[1] == LONG[:1023] + MARK and len(described[1]) == 1024
    assert check(fixed.body, provider, on=AZURE_1024) == ()
    again = normalize_request(fixed.body, "openai_chat", provider, on=AZURE_1024)
    assert again.changes == () and again.body == fixed.body


@pytest.mark.parametrize("provider", ["anthropic", "gemini", "mistral", "openai_responses"])
def test_targets_without_the_rule_keep_the_whole_description(provider: str) -> None:
    fixed = normalize_request(_chat(LONG), "openai_chat", provider)
    assert "shorten-tool-description" not in {c.code for c in fixed.changes}
    assert LONG in repr(fixed.body)
