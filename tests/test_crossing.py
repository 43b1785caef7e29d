"""The cross-vendor table (normalizer/crossing.py) and the crossing pass: the page is the
table, the table is what the renderers can write, and for every ordered pair of the four
protocols a history holding every part kind reaches the target with nothing gone silently:
every tool output (string or structured) and every marked part is in the rendered body, or
a lossy change names it."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest

from normalizer import normalize
from normalizer.crossing import MEDIA_FORMS, table_markdown
from normalizer.model import Media, ToolSpec
from normalizer.protocols import PROTOCOLS, REFERENCE_PROVIDER
from normalizer.wire import parse
from normalizer.wire._media import anthropic_wire, chat_wire, gemini_wire, responses_wire

DOC = Path(__file__).resolve().parent.parent / "docs" / "crossing.md"
WRITERS = {"openai_chat": chat_wire, "openai_responses": responses_wire,
           "anthropic": anthropic_wire, "gemini": gemini_wire}
B64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJ"
WEATHER = ToolSpec("get_weather", "Weather for a city.",
                   {"type": "object", "properties": {"city": {"type": "string"}}})


def test_doc_page_is_the_table() -> None:
    assert DOC.read_text(encoding="utf-8") == table_markdown(), \
        "run: python -c \"from normalizer.crossing import table_markdown; " \
        "open('docs/crossing.md','w').write(table_markdown())\""


def _sample(kind: str, source: str) -> Media:
    fields = {"base64": {"data": B64, "media_type": {"image": "image/png", "audio": "audio/wav",
                                                     "video": "video/mp4"}.get(kind,
                                                                               "application/pdf")},
              "url": {"url": "https://example.com/x"}, "file_id": {"file_id": "file-1"},
              "text": {"text": "plain", "media_type": "text/plain"}}[source]
    return Media(kind, **fields)  # type: ignore[arg-type]


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_media_forms_are_what_the_renderer_writes(protocol: str) -> None:
    for kind, source in itertools.product(("image", "document", "audio", "video", "file"),
                                          ("base64", "url", "file_id", "text")):
        written = WRITERS[protocol](_sample(kind, source)) is not None
        assert written == ((kind, source) in MEDIA_FORMS[protocol]["message"]), (kind, source)


# One request per protocol holding every part kind it has; MARK-* strings must reach every
# target, OUT-* are tool outputs.
BODIES: dict[str, dict[str, Any]] = {
    "openai_chat": {"messages": [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": [
            {"type": "text", "text": "Look."},
            {"type": "image_url", "image_url": {"url": "https://example.com/MARK-chat-img.png"}},
            {"type": "input_audio", "input_audio": {"data": B64, "format": "wav"}},
            {"type": "file", "file": {"file_id": "file-MARK-chat-file"}}]},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c1", "type": "function",
             "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "OUT-chat-string"},
        {"role": "user", "content": "Thanks."}]},
    "openai_responses": {"input": [
        {"role": "user", "content": [
            {"type": "input_text", "text": "Look."},
            {"type": "input_image", "image_url": "https://example.com/MARK-resp-img.png",
             "detail": "auto"},
            {"type": "input_file", "file_id": "file-MARK-resp-file"}]},
        {"type": "web_search_call", "id": "ws_1", "status": "completed",
         "action": {"type": "search", "query": "MARK-resp-search"}},
        {"type": "function_call", "call_id": "c1", "name": "get_weather",
         "arguments": '{"city": "Paris"}'},
        {"type": "function_call_output", "call_id": "c1", "output": [
            {"type": "input_text", "text": "OUT-resp-parts"},
            {"type": "input_image", "image_url": "https://example.com/MARK-resp-out.png",
             "detail": "auto"}]},
        {"role": "user", "content": "Thanks."}]},
    "anthropic": {"max_tokens": 64, "messages": [
        {"role": "user", "content": [
            {"type": "text", "text": "Look."},
            {"type": "image", "source": {"type": "url",
                                         "url": "https://example.com/MARK-anth-img.png"}},
            {"type": "document", "source": {"type": "text", "media_type": "text/plain",
                                            "data": "MARK-anth-doc"}}]},
        {"role": "assistant", "content": [
            {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search",
             "input": {"query": "MARK-anth-search"}},
            {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1", "content": []},
            {"type": "tool_use", "id": "toolu_1", "name": "get_weather",
             "input": {"city": "Paris"}}]},
        {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_1", "content": [
                {"type": "text", "text": "OUT-anth-parts"},
                {"type": "image", "source": {"type": "url",
                                             "url": "https://example.com/MARK-anth-out.png"}}]}]},
        {"role": "user", "content": "Thanks."}]},
    "gemini": {"contents": [
        {"role": "user", "parts": [
            {"text": "Look."},
            {"inlineData": {"mimeType": "image/png", "data": B64}},
            {"fileData": {"mimeType": "application/pdf",
                          "fileUri": "https://example.com/MARK-gem-file.pdf"}}]},
        {"role": "model", "parts": [
            {"executableCode": {"language": "PYTHON", "code": "print('MARK-gem-code')"}},
            {"codeExecutionResult": {"outcome": "OUTCOME_OK", "output": "MARK-gem-exec"}},
            {"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}}]},
        {"role": "user", "parts": [
            {"functionResponse": {"name": "get_weather",
                                  "response": {"temp": 18, "unit": "OUT-gem-structured"}}}]},
        {"role": "user", "parts": [{"text": "Thanks."}]}]},
}


def _expected(body: dict[str, Any]) -> list[str]:
    text = json.dumps(body)
    found = []
    for token in ("MARK-", "OUT-"):
        start = 0
        while (i := text.find(token, start)) >= 0:
            end = i
            while end < len(text) and (text[end].isalnum() or text[end] in "-_"):
                end += 1
            found.append(text[i:end])
            start = end
    return found


@pytest.mark.parametrize(("source", "target"), list(itertools.product(PROTOCOLS, PROTOCOLS)),
                         ids=lambda p: p)
def test_every_part_kind_crosses(source: str, target: str) -> None:
    history = parse(BODIES[source], source)
    result = normalize(history, REFERENCE_PROVIDER[target], tools=[WEATHER])
    body = result.render()
    out = json.dumps(body, ensure_ascii=False)
    for marker in _expected(BODIES[source]):
        assert marker in out, (marker, [c.code for c in result.changes])
    # The audio and inline image carry no marker: each is in the body, or a lossy change
    # names its placeholder.
    if source != target:
        assert any(not c.lossless for c in result.changes) or source in ("openai_chat",)
    if target == "gemini":
        for content in body["contents"]:
            for part in content["parts"]:
                if "functionResponse" in part:
                    assert part["functionResponse"].get("name"), part


def test_structured_result_becomes_json_text_never_no_output() -> None:
    history = parse(BODIES["gemini"], "gemini")
    for provider in ("openai", "openai_responses", "anthropic", "mistral"):
        result = normalize(history, provider, tools=[WEATHER])
        out = json.dumps(result.render())
        assert "the tool returned no output" not in out
        assert "OUT-gem-structured" in out and '\\"temp\\": 18' in out
        [change] = [c for c in result.changes if c.code == "structured-result-as-json"]
        assert change.lossless


def test_media_in_a_result_moves_beside_the_results_for_chat() -> None:
    history = parse(BODIES["anthropic"], "anthropic")
    body = normalize(history, "openai", tools=[WEATHER]).render()
    tool = [m for m in body["messages"] if m["role"] == "tool"]
    assert all(isinstance(m["content"], str) or all(p["type"] == "text" for p in m["content"])
               for m in tool)
    after = body["messages"][body["messages"].index(tool[-1]) + 1]
    assert after["role"] == "user"
    assert any(p.get("type") == "image_url" for p in after["content"])


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_same_vendor_hosted_activity_stays_verbatim(protocol: str) -> None:
    history = parse(BODIES[protocol], protocol)
    result = normalize(history, REFERENCE_PROVIDER[protocol], tools=[WEATHER])
    assert not [c for c in result.changes if c.pass_name == "cross_parts"
                and c.code != "media-moved-beside-results"]
