"""DashScope's tool names: two it keeps for its own tools, "<400> InternalError.Algo.
InvalidParameter: Tool names are not allowed to be [search]" (tailcallhq/forgecode#1580,
ConardLi/easy-llm-cli#36; [code_interpreter], jd-opensource/joyagent-jdgenie#84), and no
more than 64 characters, "… The length of the tool name cannot exceed 64."
(QwenLM/Qwen3-VL#2069). normalize renames them, and the name map gives the originals back."""

from __future__ import annotations

from typing import Any

import sdk_calls as calls

from normalizer import check, normalize_request

LONG = "mcp__plugin_chrome-devtools-mcp_chrome-devtools__performance_analyze_insight"


def _body(*names: str, called: str | None = None) -> dict[str, Any]:
    messages: list[dict[str, Any]] = [{"role": "user", "content": "Find the release date."}]
    if called:
        messages += [{"role": "assistant", "content": None, "tool_calls": [
            {"id": "call_1", "type": "function",
             "function": {"name": called, "arguments": '{"query":"python 3.13"}'}}]},
                     {"role": "tool", "tool_call_id": "call_1", "content": "2024-10-07"}]
    return {"model": "qwen-plus", "messages": messages, "tools": [
        {"type": "function", "function": {"name": n, "description": "A tool.",
                                          "parameters": {"type": "object", "properties": {
                                              "query": {"type": "string"}}}}}
        for n in names]}


def test_dashscope_refuses_its_own_tool_names_and_long_ones_in_its_words() -> None:
    found = check(_body("search", "code_interpreter", LONG, "web_search"), "dashscope")
    assert [(v.rule, v.location, v.message) for v in found] == [
        ("tool-name-reserved", "tools[0].function.name",
         "<400> InternalError.Algo.InvalidParameter: Tool names are not allowed to be [search]"),
        ("tool-name-reserved", "tools[1].function.name",
         "<400> InternalError.Algo.InvalidParameter: Tool names are not allowed to be "
         "[code_interpreter]"),
        ("tool-name-too-long", "tools[2].function.name",
         "<400> InternalError.Algo.InvalidParameter: The length of the tool name cannot "
         "exceed 64.")]
    assert check(_body("search"), "openai") == ()


def test_normalize_renames_declaration_call_and_result_alike_and_maps_them_back() -> None:
    fixed = normalize_request(_body("search", LONG, called="search"), "openai_chat",
                              "dashscope")
    declared = [t["function"]["name"] for t in fixed.body["tools"]]
    called = fixed.body["messages"][1]["tool_calls"][0]["function"]["name"]
    assert declared[0] != "search" and declared[0].startswith("search_")
    assert called == declared[0] and len(declared[1]) <= 64
    assert {fixed.name_map[n] for n in declared} == {"search", LONG}
    assert all(c.lossless for c in fixed.changes)
    assert check(fixed.body, "dashscope") == ()


def test_through_the_openai_sdk_seam_raw_is_refused_and_normalized_answered(emu: Any) -> None:
    sdk = calls.client("openai_chat", emu.sdk_base_url("dashscope"))
    said = calls.refused("openai_chat", sdk, _body("search"))
    assert said.status == 400 and said.message.endswith("[search]")
    fixed = normalize_request(_body("search"), "openai_chat", "dashscope")
    assert calls.send("openai_chat", sdk, fixed.body).choices
