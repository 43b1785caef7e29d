"""Role rules that hold for some models only. Models that take no system instruction:
Gemma on the Gemini API ("Developer instruction is not enabled for models/gemma-3-27b-it",
0xPlaygrounds/rig#788) and OpenAI's o1-mini ("Unsupported value: 'messages[0].role' does
not support 'system' with this model.", pydantic-ai's recorded cassettes): the repair sends
the instruction as a user message, for the models the rule names only. deepseek-reasoner
refused two user or two assistant messages in a row: they are merged. Gemini wants a turn
besides the system instruction ("* GenerateContentRequest.contents: contents is not
specified", langchain-ai/langchain-google#1393): a labelled user message is added."""

from __future__ import annotations

from typing import Any

import openai
import pytest
import sdk_calls as calls
from google.genai import errors as genai_errors

from conformance.emulator import Emulator
from normalizer import check, normalize_request

GEMMA = "gemma-3-27b-it"
GEMINI_BODY = {"systemInstruction": {"parts": [{"text": "Answer in one sentence."}]},
               "contents": [{"role": "user", "parts": [{"text": "What is a prime?"}]}]}


def chat(model: str, role: str = "system") -> dict[str, Any]:
    return {"model": model, "messages": [{"role": role, "content": "Be brief."},
                                         {"role": "user", "content": "Hello"}]}


def test_only_the_named_models_refuse_and_only_when_the_model_is_known() -> None:
    (found,) = check(GEMINI_BODY, "gemini", model=GEMMA)
    assert (found.rule, found.message) == (
        "role-unsupported-by-model", f"Developer instruction is not enabled for models/{GEMMA}")
    assert check(GEMINI_BODY, "gemini", model=f"models/{GEMMA}")[0].message == found.message
    assert check(GEMINI_BODY, "gemini", model="gemini-2.5-flash") == ()
    assert check(GEMINI_BODY, "gemini") == ()  # the model is in the URL: unknown here
    empty = {**GEMINI_BODY, "systemInstruction": {"parts": [{"text": ""}]}}
    assert [v.rule for v in check(empty, "gemini", model=GEMMA)] == [
        "role-unsupported-by-model"]  # refused even empty (rig#788)
    for role in ("system", "developer"):
        (found,) = check(chat("o1-mini", role), "openai")
        assert found.message == \
            f"Unsupported value: 'messages[0].role' does not support '{role}' with this model."
        assert (found.error["code"], found.error["param"]) == (
            "unsupported_value", "messages[0].role")
    assert check(chat("o1-preview-2024-09-12"), "openai")[0].rule == "role-unsupported-by-model"
    assert check(chat("o1"), "openai") == () and check(chat("gpt-4o-mini"), "openai") == ()


def test_gemma_gets_the_instruction_as_a_user_turn(emu: Emulator) -> None:
    sdk = calls.client("gemini", emu.sdk_base_url("gemini"))
    with pytest.raises(genai_errors.ClientError) as refused:
        calls.send("gemini", sdk, GEMINI_BODY, model=GEMMA)
    assert calls.sdk_error(refused.value) == calls.SdkError(
        400, f"Developer instruction is not enabled for models/{GEMMA}")
    fixed = normalize_request(GEMINI_BODY, "gemini", "gemini", model=GEMMA)
    assert [(c.code, c.where, c.lossless) for c in fixed.changes] == [
        ("system-as-user", "messages[0]", False)]
    assert fixed.body["contents"][0] == {"role": "user",
                                         "parts": [{"text": "Answer in one sentence."}]}
    assert "systemInstruction" not in fixed.body
    assert calls.text_of("gemini", calls.send("gemini", sdk, fixed.body, model=GEMMA))
    # Another Gemini model keeps its system instruction, untouched.
    kept = normalize_request(GEMINI_BODY, "gemini", "gemini", model="gemini-2.5-flash")
    assert kept.changes == () and kept.body["systemInstruction"] == \
        GEMINI_BODY["systemInstruction"]


@pytest.mark.parametrize("role", ["system", "developer"])
def test_o1_mini_gets_the_instruction_as_a_user_message(emu: Emulator, role: str) -> None:
    sdk = calls.client("openai_chat", emu.sdk_base_url("openai"))
    with pytest.raises(openai.BadRequestError) as refused:
        calls.send("openai_chat", sdk, chat("o1-mini", role))
    assert f"does not support '{role}' with this model." in str(refused.value)
    fixed = normalize_request(chat("o1-mini", role), "openai_chat", "openai")
    said = [(c.code, c.lossless) for c in fixed.changes if c.code == "system-as-user"]
    assert said == [("system-as-user", False)]
    assert [m["role"] for m in fixed.body["messages"]] == ["user", "user"]
    assert fixed.body["messages"][0]["content"] == "Be brief."
    assert check(fixed.body, "openai") == ()
    assert calls.text_of("openai_chat", calls.send("openai_chat", sdk, fixed.body))
    assert normalize_request(chat("gpt-4o-mini", role), "openai_chat", "openai"
                             ).body["messages"][0]["role"] == role


def test_deepseek_reasoner_gets_successive_messages_merged(emu: Emulator) -> None:
    """deepseek-reasoner (R1, 2025) refused two user or two assistant messages in a row
    (deepseek-ai/DeepSeek-R1#21); deepseek-chat takes them."""
    raw = {"model": "deepseek-reasoner", "messages": [
        {"role": "system", "content": "Answer briefly."}, {"role": "user", "content": "Hi"},
        {"role": "user", "content": "Is 391 a prime number?"}]}
    (found,) = check(raw, "deepseek")
    assert (found.rule, found.location) == ("role-alternation", "messages[2]")
    assert "(messages[1] and messages[2] in your input)" in found.message
    assert check({**raw, "model": "deepseek-chat"}, "deepseek") == ()
    tool_turn = {"model": "deepseek-reasoner", "messages": [
        {"role": "user", "content": "Weather?"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "call_1", "type": "function",
             "function": {"name": "weather", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": "18C"},
        {"role": "assistant", "content": "18C."}]}
    assert [v.rule for v in check(tool_turn, "deepseek")
            if v.rule == "role-alternation"] == []  # a tool message stands between
    sdk = calls.client("openai_chat", emu.sdk_base_url("deepseek"))
    with pytest.raises(openai.BadRequestError):
        calls.send("openai_chat", sdk, raw)
    fixed = normalize_request(raw, "openai_chat", "deepseek")
    assert [(c.code, c.lossless) for c in fixed.changes] == [
        ("merge-consecutive-messages", True)]
    user = fixed.body["messages"][1]
    assert [p["text"] for p in user["content"]] == ["Hi", "Is 391 a prime number?"]
    assert check(fixed.body, "deepseek") == ()
    assert calls.text_of("openai_chat", calls.send("openai_chat", sdk, fixed.body))


CONTENTS_WORDS = "* GenerateContentRequest.contents: contents is not specified"


def test_a_system_prompt_alone_reaches_gemini_with_a_labelled_user_turn(emu: Emulator) -> None:
    alone = {"systemInstruction": {"parts": [{"text": "Write a haiku about the sea."}]}}
    for body in (alone, {**alone, "contents": []}):
        (found,) = check(body, "gemini", model="gemini-2.5-flash")
        assert (found.rule, found.location, found.message) == (
            "conversation-empty", "contents", CONTENTS_WORDS)
    chat = {"model": "gpt-4.1-mini",
            "messages": [{"role": "system", "content": "Write a haiku about the sea."}]}
    fixed = normalize_request(chat, "openai_chat", "gemini", model="gemini-2.5-flash")
    assert [(c.code, c.where, c.lossless) for c in fixed.changes if c.code != "replace-model"] \
        == [("insert-opening-user-message", "messages[1]", True)]
    assert fixed.body["systemInstruction"] == alone["systemInstruction"]
    assert [c["role"] for c in fixed.body["contents"]] == ["user"]
    sdk = calls.client("gemini", emu.sdk_base_url("gemini"))
    assert calls.send("gemini", sdk, fixed.body, model="gemini-2.5-flash") is not None
    # The other vendors take a system prompt alone: nothing is added for them.
    assert normalize_request(chat, "openai_chat", "openai").changes == ()


EMPTY_ARRAY = ("Invalid 'messages': empty array. Expected an array with minimum length 1, but "
               "got an empty array instead.")


def test_openai_refuses_no_message_at_all_and_takes_a_system_prompt_alone(emu: Emulator) -> None:
    (found,) = check({"model": "gpt-5-nano", "messages": []}, "openai")
    assert (found.rule, found.message, found.error["code"]) == (
        "conversation-empty", EMPTY_ARRAY, "empty_array")
    alone = chat("gpt-5-nano")
    alone["messages"] = alone["messages"][:1]  # the system message alone fills the list
    assert check(alone, "openai") == ()
    assert normalize_request(alone, "openai_chat", "openai").changes == ()
    sdk = calls.client("openai_chat", emu.sdk_base_url("openai"))
    assert calls.refused("openai_chat", sdk, {"model": "gpt-5-nano", "messages": []}) \
        == calls.SdkError(400, EMPTY_ARRAY)
    fixed = normalize_request({"model": "gpt-5-nano", "messages": []}, "openai_chat", "openai")
    assert [c.code for c in fixed.changes] == ["insert-opening-user-message"]
    assert calls.send("openai_chat", sdk, fixed.body) is not None
