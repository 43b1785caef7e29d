"""Claude Sonnet 4.6, Opus 4.6 and later models take no assistant message last ("This model
does not support assistant message prefill. The conversation must end with a user
message.", smallmain/vscode-unify-chat-provider#249; Anthropic's migration guide), where
Claude Haiku 4.5 continues it. The repair adds a labelled user message after the assistant
message, for those models only; a system message last and a paused server-tool turn are
not refused. A prefill ending in whitespace is refused by every model ("messages: final
assistant content cannot end with trailing whitespace", tailcallhq/forgecode#1872): the
whitespace goes."""

from __future__ import annotations

from typing import Any

import pytest
import sdk_calls as calls

from conformance.emulator import Emulator
from normalizer import check, normalize_request
from normalizer.passes.conversation_ends import CLOSING_TEXT

WORDS = ("This model does not support assistant message prefill. The conversation must end "
         "with a user message.")


def body(model: str, *last: dict[str, Any]) -> dict[str, Any]:
    return {"model": model, "max_tokens": 256,
            "messages": [{"role": "user", "content": "Is 391 a prime number?"}, *last]}


PREFILL = {"role": "assistant", "content": "No: 391 is"}


@pytest.mark.parametrize("model", ["claude-sonnet-4-6", "claude-opus-4-6", "claude-opus-4-8",
                                   "claude-sonnet-5", "claude-opus-5-20260901"])
def test_the_models_after_4_5_refuse_a_prefill(model: str) -> None:
    (found,) = check(body(model, PREFILL), "anthropic")
    assert (found.rule, found.location, found.message) == ("last-message-role", "messages[1]",
                                                           WORDS)
    assert found.error["type"] == "invalid_request_error"


@pytest.mark.parametrize("model", ["claude-haiku-4-5", "claude-sonnet-4-5-20250929",
                                   "claude-opus-4-5", "claude-3-7-sonnet-latest"])
def test_earlier_models_take_it(model: str) -> None:
    assert check(body(model, PREFILL), "anthropic") == ()


def test_a_system_message_or_a_paused_server_tool_turn_last_is_not_a_prefill() -> None:
    system = {"role": "system", "content": [{"type": "text", "text": "Be brief."}]}
    assert "last-message-role" not in {v.rule for v in check(body("claude-opus-4-8", PREFILL,
                                                                   {"role": "user",
                                                                    "content": "Well?"},
                                                                   system), "anthropic")}
    paused = {"role": "assistant", "content": [
        {"type": "text", "text": "Searching."},
        {"type": "server_tool_use", "id": "srvtoolu_01", "name": "web_search",
         "input": {"query": "391 prime"}}]}
    assert "last-message-role" not in {v.rule for v in check(body("claude-sonnet-4-6", paused),
                                                              "anthropic")}


def test_sonnet_4_6_refuses_it_through_the_sdk_and_takes_the_repair(emu: Emulator) -> None:
    sdk = calls.client("anthropic", emu.sdk_base_url("anthropic"))
    raw = body("claude-sonnet-4-6", PREFILL)
    assert calls.refused("anthropic", sdk, raw) == calls.SdkError(400, WORDS)
    assert calls.send("anthropic", sdk, body("claude-haiku-4-5", PREFILL)) is not None

    fixed = normalize_request(raw, "anthropic", "anthropic")
    assert [(c.code, c.where, c.lossless) for c in fixed.changes] == [
        ("insert-closing-user-message", "messages[2]", False)]
    assert fixed.body["messages"] == [raw["messages"][0], PREFILL,
                                      {"role": "user", "content": CLOSING_TEXT}]
    assert calls.send("anthropic", sdk, fixed.body) is not None
    # Haiku 4.5 continues a prefill: nothing to repair.
    assert normalize_request(body("claude-haiku-4-5", PREFILL), "anthropic",
                             "anthropic").changes == ()


TRAILING = "messages: final assistant content cannot end with trailing whitespace"


@pytest.mark.parametrize("content", ["title: ", "title:\n", [{"type": "text", "text": "title:\t"}],
                                     [{"type": "text", "text": "title:"},
                                      {"type": "text", "text": " \n"}]])
def test_a_prefill_ending_in_whitespace_is_refused_and_trimmed(content: Any) -> None:
    raw = body("claude-haiku-4-5", {"role": "assistant", "content": content})
    (found,) = check(raw, "anthropic")
    assert (found.rule, found.message) == ("prefill-trailing-whitespace", TRAILING)
    fixed = normalize_request(raw, "anthropic", "anthropic")
    assert [(c.code, c.lossless) for c in fixed.changes] == [("trim-prefill-whitespace", False)]
    last = fixed.body["messages"][-1]["content"]
    assert (last if isinstance(last, str) else last[-1]["text"]) == "title:"
    assert check(fixed.body, "anthropic") == ()


def test_whitespace_before_a_tool_use_or_in_an_earlier_message_is_taken() -> None:
    tool = {"name": "f", "description": "d", "input_schema": {"type": "object"}}
    calling = {**body("claude-haiku-4-5", {"role": "assistant", "content": [
        {"type": "text", "text": "Checking. "},
        {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}]}), "tools": [tool]}
    assert "prefill-trailing-whitespace" not in {v.rule for v in check(calling, "anthropic")}
    earlier = body("claude-haiku-4-5", {"role": "assistant", "content": "Yes. "},
                   {"role": "user", "content": "Why?"})
    assert check(earlier, "anthropic") == ()


def test_a_trimmed_prefill_goes_through_the_sdk(emu: Emulator) -> None:
    sdk = calls.client("anthropic", emu.sdk_base_url("anthropic"))
    raw = body("claude-haiku-4-5", {"role": "assistant", "content": "title: "})
    assert calls.refused("anthropic", sdk, raw) == calls.SdkError(400, TRAILING)
    assert calls.send("anthropic", sdk, normalize_request(raw, "anthropic",
                                                          "anthropic").body) is not None
    # Sonnet 4.6 takes no prefill: the closing message comes, and the space stays inside.
    newer = normalize_request(body("claude-sonnet-4-6", {"role": "assistant",
                                                         "content": "title: "}),
                              "anthropic", "anthropic")
    assert [c.code for c in newer.changes] == ["insert-closing-user-message"]
    assert calls.send("anthropic", sdk, newer.body) is not None


def test_a_system_prompt_alone_reaches_claude_with_a_labelled_user_turn(emu: Emulator) -> None:
    empty = {"model": "claude-haiku-4-5", "max_tokens": 64, "system": "Write a haiku.",
             "messages": []}
    (found,) = check(empty, "anthropic")
    assert (found.rule, found.location, found.message) == (
        "conversation-empty", "messages", "messages: at least one message is required")
    sdk = calls.client("anthropic", emu.sdk_base_url("anthropic"))
    assert calls.refused("anthropic", sdk, empty).status == 400
    fixed = normalize_request(empty, "anthropic", "anthropic")
    assert [(c.code, c.lossless) for c in fixed.changes] == [
        ("insert-opening-user-message", True)]
    assert fixed.body["system"] == "Write a haiku." and len(fixed.body["messages"]) == 1
    assert calls.send("anthropic", sdk, fixed.body) is not None
