"""Gemini refuses a request that names a cache (`cachedContent`) and also sets a system
instruction, tools or a tool config ("Tool config, tools and system instruction should not
be set in the request when using cached content.", 567-labs/instructor#2580): the cache
holds its own. The repair leaves the three to the cache and keeps the cache."""

from __future__ import annotations

from typing import Any

import pytest
import sdk_calls as calls
from google.genai import errors as genai_errors

from conformance.emulator import Emulator
from normalizer import History, Message, Text, ToolSpec, check, normalize, normalize_request

CACHE = "cachedContents/report-cache"
WORDS = "Tool config, tools and system instruction should not be set in the request when " \
        "using cached content."
SEARCH = {"name": "search_report", "description": "Search the report.",
          "parameters": {"type": "object", "properties": {"phrase": {"type": "string"}}}}


def body(**fields: Any) -> dict[str, Any]:
    return {"contents": [{"role": "user", "parts": [{"text": "Revenue growth?"}]}], **fields}


SYSTEM = {"parts": [{"text": "Answer in one sentence."}]}
TOOLS = [{"functionDeclarations": [SEARCH]}]
CONFIG = {"functionCallingConfig": {"mode": "AUTO"}}


@pytest.mark.parametrize("field", [
    {"systemInstruction": SYSTEM}, {"system_instruction": SYSTEM}, {"tools": TOOLS},
    {"toolConfig": CONFIG}, {"tool_config": CONFIG},
    {"systemInstruction": SYSTEM, "tools": TOOLS, "toolConfig": CONFIG}])
def test_each_field_beside_a_named_cache_is_refused_once(field: dict[str, Any]) -> None:
    (found,) = check(body(cachedContent=CACHE, **field), "gemini")
    assert (found.rule, found.location, found.message) == (
        "cached-content-with-prompt-fields", "cachedContent", WORDS)
    (found,) = check(body(cached_content=CACHE, **field), "gemini")
    assert found.location == "cached_content"
    # No cache: the fields are the request's; a function-calling config without the
    # functions is refused for that (UKGovernmentBEIS/inspect_ai#2462).
    alone = {v.rule for v in check(body(**field), "gemini")}
    calling_alone = "tools" not in field and ({"toolConfig", "tool_config"} & set(field))
    assert alone == ({"tool-choice-without-tools"} if calling_alone else set())


def test_an_unnamed_cache_or_an_empty_tools_list_is_not_flagged() -> None:
    assert check(body(cachedContent="", systemInstruction=SYSTEM), "gemini") == ()
    assert check(body(cachedContent=None, tools=TOOLS), "gemini") == ()
    assert check(body(cachedContent=CACHE, tools=[]), "gemini") == ()
    assert check(body(cachedContent=CACHE), "gemini") == ()
    # The other wires have no such field: OpenAI refuses it as unknown, not as this rule.
    assert [v.rule for v in check({"model": "gpt-4o", "messages": [
        {"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"}],
        "cachedContent": CACHE}, "openai")] == ["unknown-request-field"]


def test_the_three_go_to_the_cache_and_the_vendor_takes_the_rest(emu: Emulator) -> None:
    raw = body(cachedContent=CACHE, systemInstruction=SYSTEM, toolConfig=CONFIG,
               tools=[{"functionDeclarations": [SEARCH]}, {"googleSearch": {}}],
               generationConfig={"maxOutputTokens": 32})
    sdk = calls.client("gemini", emu.sdk_base_url("gemini"))
    with pytest.raises(genai_errors.ClientError) as refused:
        calls.send("gemini", sdk, raw, model="gemini-2.5-flash")
    assert calls.sdk_error(refused.value) == calls.SdkError(400, WORDS)
    fixed = normalize_request(raw, "gemini", "gemini")
    assert fixed.body == body(cachedContent=CACHE, generationConfig={"maxOutputTokens": 32})
    said = [(c.code, c.where, c.lossless) for c in fixed.changes]
    assert said == [
        # the hosted declaration, sent as it came, goes at the request's level
        ("drop-field-beside-cached-content", "tools", False),
        ("drop-field-beside-cached-content", "messages[0]", False),
        ("drop-field-beside-cached-content", "tools.search_report", False),
        ("drop-field-beside-cached-content", "toolConfig", False)]
    assert "googleSearch" in fixed.changes[0].what
    assert check(fixed.body, "gemini") == ()
    reply = calls.send("gemini", sdk, fixed.body, model="gemini-2.5-flash")
    assert calls.text_of("gemini", reply)


def test_without_a_cache_nothing_moves_and_the_user_turns_always_stay() -> None:
    history = History((Message("system", (Text("Be brief."),)),
                       Message("user", (Text("Revenue growth?"),))))
    tool = ToolSpec("search_report", "Search the report.", SEARCH["parameters"])
    plain = normalize(history, "gemini", tools=(tool,), options={"toolConfig": CONFIG})
    assert plain.changes == () and plain.tools == (tool,)
    cached = normalize(history, "gemini", tools=(tool,),
                       options={"cached_content": CACHE, "toolConfig": CONFIG})
    assert [m.role for m in cached.history.messages] == ["user"]
    assert cached.tools == () and cached.render() == {
        "contents": [{"role": "user", "parts": [{"text": "Revenue growth?"}]}],
        "cached_content": CACHE}
    # Another vendor's profile has no such rule: the option is left to that vendor.
    other = normalize(history, "anthropic", tools=(tool,), options={"cachedContent": CACHE})
    assert all(c.code != "drop-field-beside-cached-content" for c in other.changes)
