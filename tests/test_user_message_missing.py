"""A request without a user message (rule user-message-missing): DashScope refuses it,
"<400> InternalError.Algo.InvalidParameter: The input messages do not contain elements with
the role of user" (langfuse/langfuse#10513, agentscope-ai/agentscope-java#613). normalize
adds a labelled user message after the system messages and removes nothing."""

from __future__ import annotations

from typing import Any

import sdk_calls as calls

from normalizer import check, normalize_request
from normalizer.passes.conversation_ends import EMPTY_TEXT, OPENING_TEXT

WORDS = ("<400> InternalError.Algo.InvalidParameter: The input messages do not contain "
         "elements with the role of user")
PIPELINE = {"model": "qwen3-vl-plus", "messages": [
    {"role": "system", "content": "Compare the data with the picture."},
    {"role": "assistant", "content": "The picture shows three rows."}]}


def test_dashscope_refuses_a_history_without_a_user_message_in_its_words() -> None:
    (found,) = check(PIPELINE, "dashscope")
    assert (found.rule, found.location, found.message) == ("user-message-missing",
                                                           "messages", WORDS)
    assert check({**PIPELINE, "messages": PIPELINE["messages"][:1]}, "dashscope")
    with_user = [PIPELINE["messages"][0], {"role": "user", "content": "Go."},
                 PIPELINE["messages"][1]]
    assert check({**PIPELINE, "messages": with_user}, "dashscope") == ()
    assert check(PIPELINE, "openai") == ()  # OpenAI takes it


def test_normalize_adds_a_labelled_user_message_after_the_system_prompt() -> None:
    fixed = normalize_request(PIPELINE, "openai_chat", "dashscope")
    assert fixed.body["messages"] == [PIPELINE["messages"][0],
                                      {"role": "user", "content": OPENING_TEXT},
                                      PIPELINE["messages"][1]]
    (change,) = fixed.changes
    assert (change.code, change.where, change.lossless) == (
        "insert-opening-user-message", "messages[1]", True)
    assert check(fixed.body, "dashscope") == ()
    alone = normalize_request({**PIPELINE, "messages": PIPELINE["messages"][:1]},
                              "openai_chat", "dashscope")
    assert alone.body["messages"][1] == {"role": "user", "content": EMPTY_TEXT}
    assert normalize_request(PIPELINE, "openai_chat", "openai").changes == ()


def test_through_the_openai_sdk_seam_raw_is_refused_and_normalized_answered(emu: Any) -> None:
    sdk = calls.client("openai_chat", emu.sdk_base_url("dashscope"))
    said = calls.refused("openai_chat", sdk, PIPELINE)
    assert (said.status, said.message) == (400, WORDS)
    fixed = normalize_request(PIPELINE, "openai_chat", "dashscope")
    assert calls.send("openai_chat", sdk, fixed.body).choices
