"""Nothing raises while a stream is assembled, nor when its message is read: an event of the
wrong shape is a malformed-event problem (normalizer/streaming/__init__.py), also where the
shape is only read at the end (`result`). The recorded streams, mutated (values replaced by
junk, removed, wrapped in a list, events repeated, streams cut), must assemble into a
message; the cases below are what such a fuzz found."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import fast_yaml
import pytest
from mutations import mutated
from sizing import examples

from normalizer.errors import StreamEventError
from normalizer.model import Message, Opaque
from normalizer.streaming import assemble

STREAMS = sorted((Path(__file__).parent / "data" / "real_streams").rglob("*.yaml"))


def _recorded() -> list[dict[str, Any]]:
    docs = [fast_yaml.load(path.read_text(encoding="utf-8")) for path in STREAMS]
    return [d for d in docs if isinstance(d, dict) and d.get("events")]


def test_a_gemini_function_call_that_is_not_an_object_is_a_problem() -> None:
    chunks = [{"candidates": [{"content": {"role": "model", "parts": [{"functionCall": 5}]}}]},
              {"candidates": [{"content": {"role": "model", "parts": [{"text": "Done."}]},
                               "finishReason": "STOP"}]}]
    result = assemble(chunks, "gemini")
    assert [p.text for p in result.message.parts] == ["Done."]  # type: ignore[union-attr]
    assert [p.code for p in result.problems] == ["malformed-event"]


def test_a_responses_item_done_that_is_not_an_object_is_a_problem() -> None:
    item = {"type": "message", "id": "msg_1", "role": "assistant", "content": []}
    events = [{"type": "response.output_item.added", "output_index": 0, "item": item},
              {"type": "response.output_item.done", "output_index": 0, "item": [item]}]
    result = assemble(events, "openai_responses")
    assert [p.code for p in result.problems] == ["malformed-event"]
    assert isinstance(result.message, Message)


def test_an_anthropic_block_read_only_at_the_end_is_kept_verbatim_with_a_problem() -> None:
    # `citations: true` where a list belongs is read when the message is built.
    block = {"type": "text", "text": "", "citations": True}
    events = [{"type": "message_start", "message": {"role": "assistant", "content": []}},
              {"type": "content_block_start", "index": 0, "content_block": block},
              {"type": "content_block_delta", "index": 0,
               "delta": {"type": "citations_delta", "citation": {"url": "https://a.example"}}},
              {"type": "content_block_stop", "index": 0}]
    result = assemble(events, "anthropic")
    (part,) = result.message.parts
    assert isinstance(part, Opaque) and part.data["citations"] is True
    assert [p.code for p in result.problems] == ["malformed-event"]


@pytest.mark.parametrize("seed", range(examples(4, 40)))
def test_mutated_recorded_streams_assemble_into_a_message(seed: int) -> None:
    rng = random.Random(seed)
    for doc in _recorded():
        events = mutated(doc["events"], rng, most=4, repeats=True)
        if rng.random() < 0.2:  # and cut anywhere
            events = events[:rng.randint(0, len(events))]
        try:
            result = assemble(events, doc["protocol"])
        except StreamEventError:  # an event that is no JSON object at all: the caller's
            continue
        assert isinstance(result.message, Message)
