"""OpenAI's Responses API refuses Chat Completions' names for the fields it has moved
(rule moved-request-field, pass move_request_fields): an app switching from Chat to
Responses keeps sending reasoning_effort (lobehub/lobehub#8116) or max_completion_tokens."""

from __future__ import annotations

from typing import Any

import openai
import pytest
import sdk_calls as calls

from conformance.emulator import Emulator
from normalizer import check, normalize
from normalizer.model import History, Message, Text

QUESTION = History((Message("user", (Text("Name a colour."),)),))
CHAT_STYLE = {"reasoning_effort": "low", "max_completion_tokens": 256}


def body(**options: Any) -> dict[str, Any]:
    return {"model": "gpt-5-mini", "input": [{"role": "user", "content": "Name a colour."}],
            **options}


def test_each_moved_field_is_refused_naming_its_new_place() -> None:
    found = [(v.rule, v.location, v.message.split(" Try again")[0], v.error.get("code"))
             for v in check(body(**CHAT_STYLE), "openai_responses")]
    assert found == [
        ("moved-request-field", "reasoning_effort", "Unsupported parameter: "
         "'reasoning_effort'. In the Responses API, this parameter has moved to "
         "'reasoning.effort'.", "unsupported_parameter"),
        ("moved-request-field", "max_completion_tokens", "Unsupported parameter: "
         "'max_completion_tokens'. In the Responses API, this parameter has moved to "
         "'max_output_tokens'.", "unsupported_parameter")]
    assert check(body(reasoning={"effort": "low"}, max_output_tokens=256),
                 "openai_responses") == ()
    assert check(body(reasoning_effort=None), "openai_responses") == ()  # null is not sent


def test_normalize_moves_them_and_leaves_them_out_where_the_new_place_is_set() -> None:
    moved = normalize(QUESTION, "openai_responses", model="gpt-5-mini", options=CHAT_STYLE)
    sent = moved.render()
    assert sent["reasoning"] == {"effort": "low"} and sent["max_output_tokens"] == 256
    assert not set(CHAT_STYLE) & set(sent)
    assert [(c.code, c.where, c.lossless) for c in moved.changes] == [
        ("move-request-field", "reasoning_effort", True),
        ("move-request-field", "max_completion_tokens", True)]
    # The request's own setting in the new place wins; the old one goes, said as lossy.
    kept = normalize(QUESTION, "openai_responses", model="gpt-5-mini",
                     options={**CHAT_STYLE, "reasoning": {"effort": "high", "summary": "auto"},
                              "max_output_tokens": 64}).render()
    assert kept["reasoning"] == {"effort": "high", "summary": "auto"}
    assert kept["max_output_tokens"] == 64


def test_a_moved_effort_is_fitted_like_any_other() -> None:
    # gpt-5.1 takes no "minimal" (reasoning-effort-value-unsupported): the moved effort is
    # fitted after it moved, in the same normalize.
    result = normalize(QUESTION, "openai_responses", model="gpt-5.1",
                       options={"reasoning_effort": "minimal"})
    sent = result.render()
    assert sent["reasoning"] == {"effort": "low"} and "reasoning_effort" not in sent
    assert check(sent, "openai_responses") == ()
    assert [(c.code, c.where) for c in result.changes] == [
        ("move-request-field", "reasoning_effort"), ("fit-reasoning-effort", "reasoning.effort")]


def test_the_raw_request_is_refused_and_the_normalized_one_taken_through_the_sdk(
        emu: Emulator) -> None:
    sdk = calls.client("openai_responses", emu.sdk_base_url("openai_responses"))
    with pytest.raises(openai.BadRequestError) as refused:
        calls.send("openai_responses", sdk, body(reasoning_effort="low"))
    assert "this parameter has moved to 'reasoning.effort'" in str(refused.value)
    sent = normalize(QUESTION, "openai_responses", model="gpt-5-mini",
                     options={"reasoning_effort": "low"}).render()
    assert calls.text_of("openai_responses", calls.send("openai_responses", sdk, sent)) == "ok"
