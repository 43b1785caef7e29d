"""Anthropic takes at most four blocks carrying cache_control in a request, counted over the
tool declarations, the system blocks and the message blocks ("A maximum of 4 blocks with
cache_control may be provided. Found 5.", continuedev/continue#6937); the repair keeps the
last four in prompt order."""

from __future__ import annotations

from typing import Any

import anthropic
import pytest
import sdk_calls as calls

from conformance.emulator import Emulator
from normalizer import check, normalize_request

MARK = {"type": "ephemeral"}


def text(words: str, marked: bool = True) -> dict[str, Any]:
    return {"type": "text", "text": words, **({"cache_control": MARK} if marked else {})}


def body(turns: int, *, tool_mark: bool = False) -> dict[str, Any]:
    """A system block and `turns` user turns, each marked, answered in between."""
    messages: list[dict[str, Any]] = []
    for n in range(turns):
        if messages:
            messages.append({"role": "assistant", "content": f"Answer {n}."})
        messages.append({"role": "user", "content": [text(f"Question {n}.")]})
    out: dict[str, Any] = {"model": "claude-haiku-4-5", "max_tokens": 64,
                           "system": [text("Be brief.")], "messages": messages}
    if tool_mark:
        out["tools"] = [{"name": "lookup", "description": "Look a word up.",
                         "input_schema": {"type": "object",
                                          "properties": {"word": {"type": "string"}}},
                         "cache_control": MARK}]
    return out


def test_four_are_taken_and_a_fifth_is_refused_where_it_stands() -> None:
    assert check(body(3), "anthropic") == ()
    (found,) = check(body(4), "anthropic")
    assert (found.rule, found.location, found.message) == (
        "too-many-cache-breakpoints", "messages[6].content[0].cache_control",
        "A maximum of 4 blocks with cache_control may be provided. Found 5.")
    # A tool declaration's mark counts first; so does a tool_result's own block.
    (found,) = check(body(3, tool_mark=True), "anthropic")
    assert found.location == "messages[4].content[0].cache_control"
    inner = body(3)
    inner["messages"][1:1] = [
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1",
                                           "name": "lookup", "input": {"word": "a"}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1",
                                      "content": [text("found")]}]}]
    inner["messages"][0]["content"].append(text("and", marked=False))
    inner["tools"] = body(1, tool_mark=True)["tools"]
    inner["tools"][0].pop("cache_control")
    found = check(inner, "anthropic")  # a mark there is refused anyway (below)
    assert [v.rule for v in found] == ["cache-control-in-tool-result",
                                       "too-many-cache-breakpoints"]


def test_the_last_four_are_kept_and_the_vendor_takes_them(emu: Emulator) -> None:
    raw = body(5, tool_mark=True)  # seven marks: the tool's, the system's, five turns'
    sdk = calls.client("anthropic", emu.sdk_base_url("anthropic"))
    with pytest.raises(anthropic.BadRequestError) as refused:
        calls.send("anthropic", sdk, raw)
    assert "A maximum of 4 blocks with cache_control may be provided. Found 7." in \
        refused.value.response.text
    fixed = normalize_request(raw, "anthropic", "anthropic")
    dropped = [c.where for c in fixed.changes if c.code == "drop-cache-breakpoint"]
    assert dropped == ["tools[0]", "messages[0].parts[0]", "messages[1].parts[0]"]
    assert all(not c.lossless for c in fixed.changes if c.code == "drop-cache-breakpoint")
    out = fixed.body
    assert "cache_control" not in out["tools"][0] and "cache_control" not in out["system"][0]
    users = [m["content"] for m in out["messages"] if m["role"] == "user"]
    # The first turn's text, its mark gone, may go as a plain string: the same prompt.
    assert [u if isinstance(u, str) else u[0]["text"] for u in users] == [
        f"Question {n}." for n in range(5)]
    assert [u[0].get("cache_control") for u in users[1:]] == [MARK] * 4
    assert check(out, "anthropic") == ()
    assert calls.send("anthropic", sdk, out).content


def test_a_mark_inside_a_tool_result_moves_onto_it(emu: Emulator) -> None:
    # caozhiyuan/copilot-api#241 (the words), langchain-ai/langchain#35126 (the same move).
    raw = body(1, tool_mark=True)
    raw["system"][0].pop("cache_control")
    raw["messages"] += [
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1",
                                           "name": "lookup", "input": {"word": "a"}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1",
                                      "content": [text("first"), text("last")]}]}]
    found = check(raw, "anthropic")
    assert [(v.rule, v.location) for v in found] == [
        ("cache-control-in-tool-result", "messages[2].content[0].content[0].cache_control"),
        ("cache-control-in-tool-result", "messages[2].content[0].content[1].cache_control")]
    assert found[0].message == (
        "messages.2.content.0.tool_result.content.0.cache_control: cache_control may not be "
        "specified within `tool_result.content`. Instead, place it directly on `tool_result`")
    sdk = calls.client("anthropic", emu.sdk_base_url("anthropic"))
    with pytest.raises(anthropic.BadRequestError):
        calls.send("anthropic", sdk, raw)
    fixed = normalize_request(raw, "anthropic", "anthropic")
    [moved] = fixed.changes
    assert (moved.code, moved.lossless) == ("move-cache-breakpoint", True)
    result = fixed.body["messages"][2]["content"][0]
    assert result["cache_control"] == MARK
    assert [b["text"] for b in result["content"]] == ["first", "last"]
    assert all("cache_control" not in b for b in result["content"])
    assert check(fixed.body, "anthropic") == ()
    assert calls.send("anthropic", sdk, fixed.body).content


def test_a_one_hour_mark_after_a_five_minute_one_is_shortened(emu: Emulator) -> None:
    # cnighswonger/claude-code-cache-fix#44 (a block), langchain-ai/langchainjs#11099 (the
    # top-level mark, read after the blocks); a mark without a ttl is five minutes.
    hour = {"type": "ephemeral", "ttl": "1h"}
    raw = body(2)
    raw["messages"][0]["content"][0]["cache_control"] = hour
    raw["cache_control"] = hour
    found = [(v.rule, v.location) for v in check(raw, "anthropic")]
    assert found == [("cache-ttl-order", "messages[0].content[0].cache_control.ttl"),
                     ("cache-ttl-order", "cache_control")]
    assert check(raw, "anthropic")[1].message.startswith(
        "cache_control: a ttl='1h' cache_control block must not come after a ttl='5m'")
    sdk = calls.client("anthropic", emu.sdk_base_url("anthropic"))
    with pytest.raises(anthropic.BadRequestError):
        calls.send("anthropic", sdk, raw)
    fixed = normalize_request(raw, "anthropic", "anthropic")
    assert [(c.code, c.where, c.lossless) for c in fixed.changes] == [
        ("shorten-cache-ttl", "messages[1].parts[0]", False),
        ("shorten-cache-ttl", "cache_control", False)]
    assert fixed.body["messages"][0]["content"][0]["cache_control"] == MARK
    assert fixed.body["cache_control"] == MARK
    assert check(fixed.body, "anthropic") == ()
    assert calls.send("anthropic", sdk, fixed.body).content
    # A one-hour mark first, five-minute ones after it: the order the vendor takes.
    ordered = body(2)
    ordered["system"][0]["cache_control"] = hour
    assert check(ordered, "anthropic") == ()
    # A tool declaration's five-minute mark comes first: the request sent is shortened.
    tooled = body(1, tool_mark=True)
    tooled["system"][0]["cache_control"] = hour
    out = normalize_request(tooled, "anthropic", "anthropic")
    assert [(c.code, c.where) for c in out.changes] == [("shorten-cache-ttl", "system[0]")]
    assert check(out.body, "anthropic") == ()


def test_a_chat_messages_cache_mark_moves_onto_its_last_block_for_anthropic(
        emu: Emulator) -> None:
    # OpenRouter's and LiteLLM's Chat messages carry cache_control on the message; Anthropic's
    # messages take none (unknown-message-field), its blocks do: moved, not dropped.
    chat = {"model": "gpt-4.1", "messages": [
        {"role": "system", "content": "Be brief.", "cache_control": MARK},
        {"role": "user", "content": [{"type": "text", "text": "Name a colour."},
                                     {"type": "text", "text": "One word."}],
         "cache_control": MARK}]}
    fixed = normalize_request(chat, "openai_chat", "anthropic")
    moved = [c for c in fixed.changes if c.code == "move-cache-breakpoint"]
    assert [(c.where, c.lossless) for c in moved] == [("messages[0]", True),
                                                      ("messages[1]", True)]
    assert not [c for c in fixed.changes if c.code == "drop-message-field"]
    body = fixed.body
    assert body["system"] == [text("Be brief.")]
    assert body["messages"][0]["content"] == [text("Name a colour.", marked=False),
                                              text("One word.")]
    assert "cache_control" not in body["messages"][0]
    assert check(body, "anthropic") == ()
    sdk = calls.client("anthropic", emu.sdk_base_url("anthropic"))
    assert calls.send("anthropic", sdk, body).content
    # Other targets keep their own answer to the field: Groq's profile drops it.
    groq = normalize_request(chat, "openai_chat", "groq")
    assert [c.code for c in groq.changes].count("drop-message-field") == 2
