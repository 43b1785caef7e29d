"""The real corpus through the wire modules (issue 17): `parse` accepts every real request
body, and a same-protocol `render(parse(body))` gives the body back as JSON values, tool
call `arguments` strings byte for byte. Where a body holds a spelling the vendor's SDK
itself rewrites before sending, the file is named below with the reason, and the body is
compared after that rewrite."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import fast_yaml
import pytest

from normalizer.model import Media, Opaque, ToolCall
from normalizer.wire import parse, render

DATA = Path(__file__).parent / "data" / "real_requests"
REQUESTS = sorted(DATA.rglob("*.yaml"))
HISTORY_KEYS = ("messages", "input", "contents", "system", "instructions",
                "systemInstruction", "system_instruction", "model")

# Vertex AI / the Python SDK accept snake_case field names, but google-genai converts them to
# the REST camelCase spelling before sending (its _common.convert_to_dict/by_alias dump);
# the library renders the spelling the SDK sends.
SDK_NORMALISES = {
    "gemini/gemini3-signature-llm-plugin": "snake_case function_call, camelCase on the wire",
    "gemini/snake-case-calls-camel-case-signature": "snake_case function_call/response",
    "gemini/vertex-inline-image-in-function-response": "snake_case inline_data/mime_type",
    # snake_case inside functionResponse.parts, as ruby_llm sent it (and as google-genai 3.4
    # itself sends that list: cassettes/gemini/real/anthropic-pdf-in-tool-result.raw.yaml);
    # the REST API takes both spellings, and the library writes camelCase as for every part.
    "gemini/function-response-parts-image": "snake_case inline_data inside functionResponse",
}
_CAMEL = {"function_call": "functionCall", "function_response": "functionResponse",
          "thought_signature": "thoughtSignature", "inline_data": "inlineData",
          "mime_type": "mimeType", "file_data": "fileData", "file_uri": "fileUri",
          "system_instruction": "systemInstruction"}


def _camel(value: Any, key: str = "") -> Any:
    if key in ("args", "response"):
        return value
    if isinstance(value, dict):
        return {_CAMEL.get(k, k): _camel(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [_camel(v, key) for v in value]
    return value


def _load(path: Path) -> tuple[str, dict[str, Any]]:
    doc = fast_yaml.load(path.read_text(encoding="utf-8"))
    return doc["protocol"], doc["request"]


def _name(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


def _round_trip(protocol: str, body: dict[str, Any]) -> dict[str, Any]:
    options = {k: v for k, v in body.items() if k not in HISTORY_KEYS}
    out = render(parse(body, protocol), protocol, model=body.get("model"), options=options)
    if protocol == "gemini" or (protocol == "openai_responses" and "model" not in body):
        out.pop("model", None)  # render always names one; a stored prompt names it there
    if protocol == "anthropic" and "max_tokens" not in body:
        out.pop("max_tokens")
    return out


def _arguments(body: Any) -> list[str]:
    """Every OpenAI-style `arguments` string in a body, in order."""
    if isinstance(body, dict):
        own = [body["arguments"]] if isinstance(body.get("arguments"), str) else []
        return own + [a for v in body.values() for a in _arguments(v)]
    if isinstance(body, list):
        return [a for v in body for a in _arguments(v)]
    return []


def test_the_corpus_is_there() -> None:
    assert len(REQUESTS) >= 68


@pytest.mark.parametrize("path", REQUESTS, ids=_name)
def test_parse_accepts_and_round_trip_is_exact(path: Path) -> None:
    protocol, body = _load(path)
    expected = _camel(body) if _name(path) in SDK_NORMALISES else body
    out = _round_trip(protocol, body)
    assert out == expected
    assert _arguments(out) == _arguments(expected)


def test_the_corpus_exercises_the_new_parts() -> None:
    """The kinds issue 17 names reach the model as parts, not as errors."""
    kinds: set[str] = set()
    for path in REQUESTS:
        protocol, body = _load(path)
        for message in parse(body, protocol):
            inner = [q for p in message.tool_results if not isinstance(p.content, str)
                     for q in p.content]
            for part in (*message.parts, *inner):
                if isinstance(part, Media):
                    kinds.add(f"media:{part.kind}:{part.source}")
                elif isinstance(part, Opaque):
                    kinds.add(f"{'hosted' if part.hosted else 'opaque'}:{part.kind}")
                elif isinstance(part, ToolCall) and part.wire_arguments is not None:
                    kinds.add("arguments-as-sent")
    for expected in ("media:image:base64", "media:image:url", "media:image:file_id",
                     "media:document:base64", "media:audio:base64", "media:video:url",
                     "hosted:server_tool_use", "hosted:mcp_tool_use", "hosted:web_search_call",
                     "hosted:tool_search_call", "hosted:executableCode", "arguments-as-sent"):
        assert expected in kinds, expected
