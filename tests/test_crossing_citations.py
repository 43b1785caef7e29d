"""Citations crossing vendors (issue 17): Anthropic `citations` and Responses `annotations`
reach a protocol without them as their text, and the lossy change names every citation the
body no longer carries; for their own protocol they stay as sent. On the real bodies that
hold them (tests/data/real_requests)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import fast_yaml
import pytest

from normalizer import normalize_request
from normalizer.crossing import citation_names
from normalizer.protocols import PROTOCOLS, REFERENCE_PROVIDER

DATA = Path(__file__).resolve().parent / "data" / "real_requests"
BODIES = {"anthropic": DATA / "anthropic" / "web-search-citations.yaml",
          "openai_responses": DATA / "openai_responses" / "web-search-url-citation.yaml"}
KEY = {"anthropic": "citations", "openai_responses": "annotations"}


def _citations(body: Any, key: str) -> list[Any]:
    """Every non-empty `key` list in a body."""
    if isinstance(body, dict):
        own = list(body[key]) if isinstance(body.get(key), list) else []
        return own + [c for v in body.values() for c in _citations(v, key)]
    if isinstance(body, list):
        return [c for v in body for c in _citations(v, key)]
    return []


@pytest.mark.parametrize("source", sorted(BODIES))
@pytest.mark.parametrize("target", PROTOCOLS)
def test_citations_survive_or_a_lossy_change_names_them(source: str, target: str) -> None:
    doc = fast_yaml.load(BODIES[source].read_text(encoding="utf-8"))
    cited = _citations(doc["request"], KEY[source])
    assert cited, "the body holds citations"
    result = normalize_request(doc["request"], source, REFERENCE_PROVIDER[target])
    if target == source:
        assert _citations(result.body, KEY[source]) == cited
        assert not [c for c in result.changes if c.code == "citations-dropped"]
        return
    out = json.dumps(result.body, ensure_ascii=False)
    named = " ".join(c.what for c in result.changes
                     if c.code == "citations-dropped" and not c.lossless)
    for name in citation_names(cited):
        assert name in out or name in named, name


def test_the_cited_text_stays() -> None:
    doc = fast_yaml.load(BODIES["openai_responses"].read_text(encoding="utf-8"))
    texts = [c["text"] for item in doc["request"]["input"] if isinstance(item, dict)
             for c in (item.get("content") if isinstance(item.get("content"), list) else [])
             if c.get("annotations")]
    body = normalize_request(doc["request"], "openai_responses", "anthropic").body
    out = json.dumps(body, ensure_ascii=False)
    assert texts and all(json.dumps(t, ensure_ascii=False)[1:-1] in out for t in texts)


def test_citations_on_a_text_only_turn_are_named_too() -> None:
    # A turn of text blocks alone skipped the crossing pass, so their citations went
    # unsaid (Mirascope's recorded web-search request: 3 citations on the answer's text,
    # crossed to OpenAI with no change). The block's shape is Anthropic's char_location.
    cited = {"type": "char_location", "cited_text": "hi", "document_index": 0,
             "document_title": "Doc", "start_char_index": 0, "end_char_index": 2}
    body = {"model": "claude-sonnet-4-5", "max_tokens": 100, "messages": [
        {"role": "user", "content": "What does the doc say?"},
        {"role": "assistant", "content": [{"type": "text", "text": "It says hi.",
                                           "citations": [cited]}]},
        {"role": "user", "content": "Thanks"}]}
    for target in ("openai", "openai_responses", "gemini"):
        out = normalize_request(body, "anthropic", target)
        dropped = [c for c in out.changes if c.code == "citations-dropped"]
        assert len(dropped) == 1 and "Doc" in dropped[0].what and not dropped[0].lossless
        assert "It says hi." in json.dumps(out.body)
    same = normalize_request(body, "anthropic", "anthropic")
    assert same.body == body and same.changes == ()
