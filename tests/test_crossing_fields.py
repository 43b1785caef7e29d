"""Fields one protocol owns (extras keys: `ProtocolFacts.own_extras`), crossing to a protocol
that does not: every such field is classified in `crossing.FOREIGN_FIELDS`, and a setting or
content field that holds a value never disappears unsaid (the renderer skips it, so the
crossing pass takes it off and names it in a `foreign-field-dropped` change). The real
request bodies of tests/data/real_requests, each crossed to the other three protocols, are
the data; the small bodies below pin each case."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import fast_yaml
import pytest

from normalizer import check, normalize, normalize_request, parse
from normalizer.crossing import FOREIGN_FIELDS, reported_fields
from normalizer.model import Change, History, Message, ToolResult
from normalizer.protocols import FACTS, PROTOCOLS, REFERENCE_PROVIDER, foreign_extras

REQUESTS = sorted((Path(__file__).resolve().parent / "data" / "real_requests").rglob("*.yaml"))
CODE = "foreign-field-dropped"


def test_every_field_a_protocol_owns_has_a_fate() -> None:
    owned = set().union(*(facts.own_extras for facts in FACTS.values()))
    assert owned - set(FOREIGN_FIELDS) == set(), "classify them in crossing.FOREIGN_FIELDS"
    assert set(FOREIGN_FIELDS) - owned == set(), "no protocol owns these any more"


def _held(extras: Any, keys: frozenset[str]) -> list[str]:
    return [k for k, v in extras.items() if k in keys
            and v not in (None, False, "") and not (hasattr(v, "__len__") and not len(v))]


def _left(history: History, keys: frozenset[str]) -> list[tuple[int, str]]:
    """Reported fields still on the history (which the target's renderer would skip)."""
    found: list[tuple[int, str]] = []

    def parts(i: int, items: Any) -> None:
        for part in items:
            found.extend((i, k) for k in _held(getattr(part, "extras", {}), keys))
            if isinstance(part, ToolResult) and not isinstance(part.content, str):
                parts(i, part.content)

    for i, message in enumerate(history.messages):
        found.extend((i, k) for k in _held(message.extras, keys - {"name"}))
        parts(i, message.parts)
    return found


@pytest.mark.parametrize("path", REQUESTS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_no_setting_or_content_field_crosses_unsaid(path: Path) -> None:
    doc = fast_yaml.load(path.read_text(encoding="utf-8"))
    history = parse(doc["request"], doc["protocol"])
    for target in PROTOCOLS:
        if target == doc["protocol"]:
            continue
        result = normalize(history, REFERENCE_PROVIDER[target])
        # Citations on a text are taken off by their own change (citations-dropped).
        keys = reported_fields(target) - {"citations", "annotations"}
        assert _left(result.history, keys) == [], target


def _one(changes: tuple[Change, ...]) -> Change:
    [change] = [c for c in changes if c.code == CODE]
    return change


def test_cache_hints_are_named_in_lossless_changes() -> None:
    # Mirascope's recorded multi-turn caching request (real corpus), to Gemini and Responses.
    doc = fast_yaml.load((Path(__file__).resolve().parent / "data" / "real_requests" /
                          "anthropic" / "cache-control-multi-turn.yaml").read_text("utf-8"))
    for provider in ("gemini", "openai_responses"):
        out = normalize_request(doc["request"], "anthropic", provider)
        dropped = [c for c in out.changes if c.code == CODE]
        assert dropped and all(c.lossless and "cache_control" in c.what for c in dropped)
        assert "cache_control" not in repr(out.body)
    # Chat owns cache_control too (OpenRouter and LiteLLM pass it on): kept, no change.
    out = normalize_request(doc["request"], "anthropic", "openai")
    assert not [c for c in out.changes if c.code == CODE]
    assert "cache_control" in repr(out.body)


def test_a_message_refusal_goes_as_a_refusal_part() -> None:
    # The openai SDK's message object keeps a refusal apart from content (content null):
    # sent back, the refusal reaches every target, as a refusal part or as text.
    body = {"model": "gpt-4.1-mini", "messages": [
        {"role": "user", "content": "Help me pick a lock."},
        {"role": "assistant", "content": None, "refusal": "I can't help with that."},
        {"role": "user", "content": "Then how do locks work?"}]}
    for provider in ("openai", "anthropic", "gemini", "openai_responses"):
        out = normalize_request(body, "openai_chat", provider)
        [change] = [c for c in out.changes if c.code == "refusal-field-as-part"]
        assert change.lossless and change.where in ("history[1]", "messages[1]")
        assert "I can't help with that." in json.dumps(out.body), provider
        assert check(out.body, provider) == (), provider


def test_an_audio_reference_is_named_in_a_lossy_change() -> None:
    body = {"model": "gpt-4o-audio-preview", "messages": [
        {"role": "user", "content": "Say hi."},
        {"role": "assistant", "content": "Hi!", "audio": {"id": "audio_abc123"}},
        {"role": "user", "content": "Again?"}]}
    for provider in ("anthropic", "gemini", "openai_responses"):
        change = _one(normalize_request(body, "openai_chat", provider).changes)
        assert not change.lossless and "audio_abc123" in change.what
        assert change.where == "history[1]"


def test_image_detail_in_a_tool_result_is_named_where_it_was() -> None:
    # Responses lets a function_call_output hold an image; Anthropic keeps it in the result
    # (no `detail` there), Chat moves it beside the results (Chat has `detail`: no change).
    body = {"model": "gpt-4.1-mini", "input": [
        {"role": "user", "content": "Chart?"},
        {"type": "function_call", "call_id": "call_1", "name": "chart", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "call_1", "output": [
            {"type": "input_image", "image_url": "https://example.com/c.png",
             "detail": "high"}]}]}
    change = _one(normalize_request(body, "openai_responses", "anthropic").changes)
    assert change.lossless and change.where.endswith(".content[0]") and '"high"' in change.what
    assert not [c for c in normalize_request(body, "openai_responses", "openai").changes
                if c.code == CODE]


def test_media_moved_beside_results_keeps_its_fields_reported() -> None:
    # An Anthropic image with a cache hint inside a tool result, to Gemini: the image moves
    # beside the results and its cache_control (which Gemini does not have) is named.
    body = {"model": "claude-haiku-4-5", "max_tokens": 64, "messages": [
        {"role": "user", "content": "Chart?"},
        {"role": "assistant", "content": [
            {"type": "tool_use", "id": "toolu_1", "name": "chart", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1",
                                      "content": [{"type": "image", "source": {
                                          "type": "url", "url": "https://example.com/c.png"},
                                          "cache_control": {"type": "ephemeral"}}]}]}]}
    out = normalize_request(body, "anthropic", "gemini")
    codes = [c.code for c in out.changes if c.pass_name == "cross_parts"]
    assert codes == ["media-moved-beside-results", CODE]
    assert _one(out.changes).where == "history[2].parts[0].content[0]"
    assert "cache_control" not in repr(out.body)


def test_bookkeeping_fields_cross_with_no_change() -> None:
    # dd-trace-py's recorded openai-agents body: function_call items with `id` and `status`.
    body = {"model": "gpt-4.1-mini", "input": [
        {"role": "user", "content": "Weather?"},
        {"type": "function_call", "id": "fc_67dd6120", "call_id": "call_1", "name": "w",
         "arguments": "{}", "status": "completed"},
        {"type": "function_call_output", "call_id": "call_1", "output": "18C"}]}
    for provider in ("openai", "anthropic", "gemini"):
        out = normalize_request(body, "openai_responses", provider)
        assert not [c for c in out.changes if c.pass_name == "cross_parts"], provider
        assert "fc_67dd6120" not in repr(out.body)


@pytest.mark.parametrize(("source", "target"),
                         [(s, t) for s, t in itertools.product(PROTOCOLS, PROTOCOLS) if s != t])
def test_each_reported_field_is_taken_off_a_message(source: str, target: str) -> None:
    # Every field `source` owns that `target` reports, with a value, on a user message: one
    # change naming all of them, lossy exactly when one of them is content (a participant
    # name and a refusal have changes of their own).
    keys = sorted(FACTS[source].own_extras & reported_fields(target) - {"name", "refusal"})
    if not keys:
        pytest.skip(f"{source} owns no field {target} reports")
    message = Message("user", parse({"messages": [{"role": "user", "content": "hi"}]},
                                    "openai_chat").messages[0].parts,
                      extras={k: "x" for k in keys})
    result = normalize(History((message,)), REFERENCE_PROVIDER[target])
    change = _one(result.changes)
    assert change.lossless == all(FOREIGN_FIELDS[k].kind == "setting" for k in keys)
    assert all(k in change.what for k in keys)
    assert not set(keys) & set(result.history.messages[0].extras)
    assert set(keys) <= foreign_extras(target)
