"""The HTML report escapes everything that comes from data (issue 14, reliability): a
hostile provider name, scenario title, topic or vendor error text never becomes markup."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from conformance.item import Result
from conformance.publish.html import render_html
from conformance.publish.matrix import sort_results, summary

HOSTILE = '"><script>alert(1)</script>'


def _result(provider: str, mode: str) -> dict[str, object]:
    return {"id": f"s.yaml::{provider}[{mode}]", "scenario": "s.yaml" + HOSTILE,
            "title": "title " + HOSTILE, "topic": "topic" + HOSTILE, "provider": provider,
            "mode": mode, "verdict": "reject", "expected": "accept", "predicted": "accept",
            "predicted_rule": HOSTILE, "status": 400, "message": "vendor said " + HOSTILE,
            "reason": HOSTILE, "problem": HOSTILE, "known_gap": "",
            "changes": [{"code": HOSTILE, "where": HOSTILE}],
            "source": {"backend": "cassette", "provenance": {"backend": HOSTILE}}}


class _Collect(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.attrs: list[tuple[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attrs += attrs


def test_hostile_names_and_texts_never_become_markup() -> None:
    results = sort_results(Result.from_json(_result(p, m)) for p in ("openai", HOSTILE)
                           for m in ("raw", "normalized"))
    page = render_html(results, summary(results))
    parser = _Collect()
    parser.feed(page)
    assert parser.tags.count("script") == 2  # the page's own: the data and the filters
    assert page.count("<script") == 2 and "alert(1)</script>" not in page
    # the name arrives intact as an attribute value, not as markup
    assert ("data-provider", HOSTILE) in parser.attrs
    assert not [name for name, _ in parser.attrs if name not in {
        "lang", "charset", "class", "data-topic", "data-provider", "colspan", "rowspan",
        "title", "data-detail", "id", "value", "style", "type", "tabindex", "data-i",
        "data-ev", "scope", "name", "content", "aria-label", "hidden"}]
    data = re.search(r'<script type="application/json" id="data">(.*?)</script>', page, re.S)
    assert data is not None and "<" not in data.group(1)
