"""Two tools declared under one name (rule duplicate-tool-name): found with Anthropic's and
Gemini's texts, the later declaration dropped by normalize, lossless only where it was the
same declaration."""

from __future__ import annotations

from typing import Any

import pytest

from normalizer import check, normalize_request


def _decl(name: str, description: str, key: str = "key") -> dict[str, Any]:
    return {"type": "function", "function": {
        "name": name, "description": description,
        "parameters": {"type": "object", "properties": {key: {"type": "string"}}}}}


def _chat(*tools: dict[str, Any]) -> dict[str, Any]:
    return {"model": "gpt-4o-mini", "tools": list(tools),
            "messages": [{"role": "user", "content": "What did I ask you to remember?"}]}


BUILT_IN, SEARCH = _decl("memory", "Built-in memory."), _decl("search", "Search docs.")
MCP = _decl("memory", "An MCP server's memory.", key="entity")


@pytest.mark.parametrize(("provider", "message"), [
    ("anthropic", "tools: Tool names must be unique."),
    ("gemini", "Duplicate function declaration found: memory")])
def test_a_repeated_name_is_refused_in_the_vendors_words(provider: str, message: str) -> None:
    # The request as a naive client sends it: the same tools, written in the vendor's form.
    body = normalize_request(_chat(BUILT_IN, SEARCH), "openai_chat", provider).body
    if provider == "anthropic":
        body["tools"].append({**body["tools"][0], "description": "An MCP server's memory."})
    else:
        declarations = body["tools"][0]["functionDeclarations"]
        declarations.append({**declarations[0], "description": "An MCP server's memory."})
    (found,) = check(body, provider)
    assert (found.rule, found.message) == ("duplicate-tool-name", message)


@pytest.mark.parametrize("provider", ["anthropic", "gemini"])
def test_a_different_later_declaration_is_dropped_and_said_lost(provider: str) -> None:
    out = normalize_request(_chat(BUILT_IN, SEARCH, MCP), "openai_chat", provider)
    (change,) = [c for c in out.changes if c.code == "drop-duplicate-tool"]
    assert (change.where, change.lossless) == ("tools[2]", False)
    assert "'memory'" in change.what and "no longer offered" in change.what
    assert check(out.body, provider) == ()
    assert "An MCP server's memory." not in str(out.body)


def test_the_same_declaration_twice_goes_once_losslessly() -> None:
    out = normalize_request(_chat(BUILT_IN, SEARCH, BUILT_IN), "openai_chat", "anthropic")
    (change,) = [c for c in out.changes if c.code == "drop-duplicate-tool"]
    assert change.lossless
    assert [t["name"] for t in out.body["tools"]] == ["memory", "search"]


@pytest.mark.parametrize("provider", ["openai", "mistral", "openai_responses"])
def test_targets_without_a_known_refusal_keep_both(provider: str) -> None:
    out = normalize_request(_chat(BUILT_IN, SEARCH, MCP), "openai_chat", provider)
    assert "drop-duplicate-tool" not in {c.code for c in out.changes}
    assert "An MCP server's memory." in str(out.body)


def test_a_function_named_like_a_kept_server_tool_goes() -> None:
    body = {"model": "claude-sonnet-4-5", "max_tokens": 64,
            "messages": [{"role": "user", "content": "Search the web for it."}],
            "tools": [{"type": "web_search_20250305", "name": "web_search"},
                      {"name": "web_search", "description": "Our own search.",
                       "input_schema": {"type": "object", "properties": {}}}]}
    assert [v.rule for v in check(body, "anthropic")] == ["duplicate-tool-name"]
    out = normalize_request(body, "anthropic", "anthropic")
    assert [(c.code, c.lossless) for c in out.changes] == [("drop-duplicate-tool", False)]
    assert out.body["tools"] == [{"type": "web_search_20250305", "name": "web_search"}]
    assert check(out.body, "anthropic") == ()
