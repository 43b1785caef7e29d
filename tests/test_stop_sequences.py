"""Anthropic refuses an empty or whitespace-only stop sequence (rule stop-sequence-invalid,
pass drop_invalid_stop_sequences): apps send OpenAI's usual stop ["\\n"] to every vendor
(BerriAI/litellm#3286, MegaGrindStone/mcp-web-ui#5)."""

from __future__ import annotations

from typing import Any

import anthropic
import pytest
import sdk_calls as calls

from conformance.emulator import Emulator
from normalizer import check, normalize
from normalizer.model import History, Message, Text

QUESTION = History((Message("user", (Text("Name a colour."),)),))


def body(**options: Any) -> dict[str, Any]:
    return {"model": "claude-haiku-4-5", "max_tokens": 64,
            "messages": [{"role": "user", "content": "Name a colour."}], **options}


def test_each_refused_stop_sequence_is_named_with_anthropics_words_for_its_fault() -> None:
    found = [(v.location, v.message)
             for v in check(body(stop_sequences=["", "\n", "END", " \t"]), "anthropic")]
    assert found == [
        ("stop_sequences[0]", "stop_sequences: each stop sequence must be non-empty"),
        ("stop_sequences[1]", "stop_sequences: each stop sequence must contain non-whitespace"),
        ("stop_sequences[3]", "stop_sequences: each stop sequence must contain non-whitespace")]
    assert check(body(stop_sequences=["END", "\nUser:"]), "anthropic") == ()


def test_normalize_leaves_them_out_and_the_list_where_none_is_left() -> None:
    result = normalize(QUESTION, "anthropic", options={"stop_sequences": ["\n", "END"]})
    assert result.render()["stop_sequences"] == ["END"]
    assert [(c.code, c.where, c.lossless) for c in result.changes] == [
        ("drop-stop-sequence", "stop_sequences[0]", False)]
    alone = normalize(QUESTION, "anthropic", options={"stop_sequences": ["", "\n"]})
    assert "stop_sequences" not in alone.render()
    assert [c.where for c in alone.changes] == ["stop_sequences[0]", "stop_sequences[1]"]
    # Other vendors' profiles say nothing of it: OpenAI keeps its newline stop.
    kept = normalize(QUESTION, "openai", options={"stop": ["\n"]})
    assert kept.changes == () and kept.render()["stop"] == ["\n"]


def test_the_raw_request_is_refused_and_the_normalized_one_taken_through_the_sdk(
        emu: Emulator) -> None:
    sdk = calls.client("anthropic", emu.sdk_base_url("anthropic"))
    with pytest.raises(anthropic.BadRequestError) as refused:
        calls.send("anthropic", sdk, body(stop_sequences=["\n"]))
    assert "each stop sequence must contain non-whitespace" in str(refused.value)
    sent = normalize(QUESTION, "anthropic", options={"stop_sequences": ["\n"]}).render()
    assert calls.text_of("anthropic", calls.send("anthropic", sdk, sent)) == "ok"
