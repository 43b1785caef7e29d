"""Gemini 3 multimodal function responses (issue 17): media a `functionResponse.parts` list
carries are Media parts of the ToolResult, written back into `functionResponse.parts` for
Gemini and crossed to the other protocols through the crossing table (inside the result
where the target has media there, beside the results for OpenAI Chat). The body is the
recorded ruby_llm request that gemini-3-flash-preview accepted
(tests/data/real_requests/gemini/function-response-parts-image.yaml; the feature is
documented at https://ai.google.dev/gemini-api/docs/function-calling, "Multimodal function
responses")."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from normalizer import check, normalize_request, parse
from normalizer.model import Media, ToolResult

BODY = Path(__file__).resolve().parent / "data" / "real_requests" / "gemini" / \
    "function-response-parts-image.yaml"
DATA = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhf"


def _request() -> dict[str, Any]:
    return yaml.safe_load(BODY.read_text(encoding="utf-8"))["request"]


def test_the_parts_are_media_of_the_result() -> None:
    [result] = [p for m in parse(_request(), "gemini") for p in m.parts
                if isinstance(p, ToolResult)]
    assert result.value is not None and result.name == "image_fetch"
    [media] = result.content
    assert isinstance(media, Media) and media.kind == "image" and media.data == DATA
    assert "function_response" not in result.extras  # modelled, not carried in extras


def test_gemini_gets_them_back_inside_the_function_response() -> None:
    out = normalize_request(_request(), "gemini", "gemini", model="gemini-3-flash-preview")
    response = out.body["contents"][2]["parts"][0]["functionResponse"]
    assert response["parts"] == [{"inlineData": {"mimeType": "image/png", "data": DATA}}]
    assert response["response"] == _request()["contents"][2]["parts"][0][
        "functionResponse"]["response"]
    assert not [c for c in out.changes if c.pass_name == "cross_parts"]


@pytest.mark.parametrize(("provider", "inside"), [
    ("anthropic", True), ("openai_responses", True), ("openai", False), ("mistral", False)])
def test_other_protocols_get_the_image_and_the_structured_response(
        provider: str, inside: bool) -> None:
    out = normalize_request(_request(), "gemini", provider)
    assert not check(out.body, provider)
    text = json.dumps(out.body)
    assert DATA in text and "Fetched the image." in text
    moved = [c for c in out.changes if c.code == "media-moved-beside-results"]
    assert bool(moved) is not inside
    assert [c for c in out.changes if c.code == "structured-result-as-json"]
