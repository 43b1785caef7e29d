"""The HTML matrix: self-contained, deterministic, escaped, request bodies stored once; and,
driven in headless Chromium, sticky headers, the detail panel beside the viewport, the
request diff, filters and keyboard access (with a screenshot)."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
from chromium_cdp import Browser, chromium_binary

from conformance.item import Result
from conformance.publish.html import page_data, render_html
from conformance.publish.matrix import sort_results, summary, write_reports
from conformance.publish.recorded import recorded_request, with_requests

HOSTILE = '"><script>alert(1)</script>'
TOPICS = ("ids", "pairing", "tools")


def body(n: int, mode: str) -> dict[str, Any]:
    messages = [{"role": "user", "content": f"question {n}"},
                {"role": "assistant", "tool_calls": [{"id": f"call_{n}", "type": "function",
                                                      "function": {"name": "f",
                                                                   "arguments": "{}"}}]}]
    if mode == "normalized" or n % 3 == 0:
        messages.append({"role": "tool", "tool_call_id": f"call_{n}", "content": "42"})
    return {"model": "m", "messages": messages}


def item(n: int, provider: str, mode: str) -> dict[str, Any]:
    scenario = f"scenarios/{TOPICS[n % 3]}/case-{n:02d}.yaml"
    verdict = "reject" if mode == "raw" and n % 3 else "accept"
    r: dict[str, Any] = {
        "id": f"{scenario}::{provider}[{mode}]", "scenario": scenario, "title": f"Case {n}",
        "topic": TOPICS[n % 3], "provider": provider, "mode": mode, "verdict": verdict,
        "status": 400 if verdict == "reject" else 200, "error_type": "invalid_request_error",
        "error_code": None, "message": "no <b>bold</b> & missing tool result"
        if verdict == "reject" else "", "reason": "", "expected": verdict,
        "predicted": verdict, "predicted_rule": "missing-tool-result" if verdict == "reject"
        else None, "predicted_message": "", "changes": [], "problem": "", "known_gap": "",
        "request": body(n, mode),
        "source": {"backend": "cassette", "cassette": f"cassettes/{provider}/x.{mode}.yaml",
                   "provenance": {"backend": "emulator", "model": "m", "recorded": "2026-11-22"}}}
    if mode == "normalized" and n % 3:
        r["changes"] = [{"code": "insert-missing-tool-result", "where": "messages[2]",
                         "what": "added a placeholder result", "lossless": False}]
    # Each item says what backs it, so sort_results keeps it rather than judging it against
    # the real evidence/ and profiles (publish/backing.py).
    r["evidence"] = {"level": "modeled"}
    if provider == "openai" and n % 2 == 0:
        r["evidence"] = {"level": "observed", "date": "2026-01-30", "model": "gpt-5-mini",
                         "source": {"url": "https://github.com/o/r/blob/c/p.yaml"}}
    if provider == "gemini" and n == 1:
        r["evidence"] = {"level": "documented", "source": "javascript:alert(1)"}
    return r


RESULTS = [item(n, p, m) for n in range(60) for p in ("openai", "gemini", "anthropic")
           for m in ("raw", "normalized")]


def typed(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sort_results(Result.from_json(r) for r in rows)


def page(results: list[dict[str, Any]] = RESULTS) -> str:
    ordered = typed(results)
    return render_html(ordered, summary(ordered))


def test_page_is_self_contained_and_deterministic() -> None:
    text = page()
    assert text == page(list(reversed(RESULTS)))
    assert not re.search(r"<(script|link|img)[^>]+(src|href)=", text)
    assert "http://" not in text.split('id="data"')[0]
    assert len(re.findall(r'<td class="cell ', text)) == len(RESULTS)
    for select in ("topic", "provider", "verdict", "evidence"):
        assert f'<select id="{select}">' in text
    assert text.count('tabindex="-1"') == len(RESULTS)


def test_request_bodies_are_stored_once_each() -> None:
    data = page_data(typed(RESULTS))
    distinct = {json.dumps(r["request"], sort_keys=True) for r in RESULTS}
    assert len(data["bodies"]) == len(distinct) < len(RESULTS)
    assert all(i["body"] >= 0 for i in data["items"])
    bare = [{k: v for k, v in r.items() if k != "request"} for r in RESULTS[:2]]
    assert [i["body"] for i in page_data(bare)["items"]] == [-1, -1]


def test_a_hostile_provider_name_and_error_text_stay_inert() -> None:
    hostile = [dict(r, provider=HOSTILE, message=f"</script>{HOSTILE}") for r in RESULTS[:4]]
    text = page(hostile)
    assert "<script>alert(1)" not in text
    assert "&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;" in text
    data = text.split('id="data">', 1)[1].split("</script>", 1)[0]
    assert "<" not in data and json.loads(data)["items"][0]["provider"] == HOSTILE


def test_requests_are_read_back_from_cassettes(tmp_path: Path) -> None:
    sent = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
    (tmp_path / "c.yaml").write_text(
        "interactions:\n- request:\n    body: '" + json.dumps(sent) + "'\n", encoding="utf-8")
    assert recorded_request(tmp_path / "c.yaml") == sent
    assert recorded_request(tmp_path / "missing.yaml") is None
    bare = {k: v for k, v in RESULTS[0].items() if k != "request"}
    found = with_requests([Result.from_json(r) for r in
                           (dict(bare, source={"cassette": "c.yaml"}), bare)], root=tmp_path)
    assert [r.request for r in found].count(sent) == 1 and None in [r.request for r in found]
    written = json.loads(write_reports(found, tmp_path / "out")[0].read_text(encoding="utf-8"))
    assert sum("request" in r for r in written["results"]) == 1


CHROMIUM = chromium_binary()


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Any:
    if CHROMIUM is None:
        pytest.skip("no chromium binary on PATH (apt-get install chromium)")
    root = tmp_path_factory.mktemp("html")
    (root / "matrix.html").write_text(page(), encoding="utf-8")
    started = Browser(CHROMIUM, (root / "matrix.html").as_uri(), root / "profile")
    try:
        started.wait_for("document.readyState === 'complete' && "
                         "!!document.getElementById('count')?.textContent", 10)
        yield started
    finally:
        started.close()


def state(b: Browser) -> dict[str, Any]:
    return b.js("""(() => { const p = document.getElementById('detail');
      const a = document.activeElement; return {open: !p.hidden, panel: p.innerText,
      active: a.dataset.i ?? null, provider: a.dataset.provider ?? null,
      mode: a.textContent, outline: getComputedStyle(a).outlineStyle}; })()""")


def test_click_opens_the_detail_beside_the_viewport_with_diff_and_evidence(
        browser: Browser, tmp_path: Path) -> None:
    started = time.monotonic()
    browser.js("window.scrollTo(0, document.body.scrollHeight)")
    header = browser.js("document.querySelector('thead th.p').getBoundingClientRect().top")
    bar = browser.js("document.querySelector('.filters').getBoundingClientRect().bottom")
    assert browser.js("window.scrollY") > 500 and abs(header - bar) < 2  # headers in view
    browser.click("[...document.querySelectorAll('td.cell.reject[data-ev=observed]')].pop()")
    seen = state(browser)
    assert seen["open"] and seen["provider"] == "openai" and seen["mode"] == "R"
    assert "Vendor's answer" in seen["panel"] and "no <b>bold</b> & missing" in seen["panel"]
    assert "observed" in seen["panel"] and "gpt-5-mini" in seen["panel"]
    assert browser.js("document.querySelector('#detail a').href") == \
        "https://github.com/o/r/blob/c/p.yaml"
    assert browser.js("document.querySelectorAll('#detail pre.diff .add').length") >= 5
    assert browser.js("document.querySelectorAll('#detail pre.diff .del').length") <= 1
    assert "insert-missing-tool-result at messages[2]" in seen["panel"]
    box = browser.js("JSON.stringify(document.getElementById('detail')"
                     ".getBoundingClientRect())")
    rect, height = json.loads(box), browser.js("window.innerHeight")
    assert rect["top"] == 0 and rect["bottom"] == height and rect["right"] <= 1400
    shot = browser.screenshot()
    (tmp_path / "matrix.png").write_bytes(shot)
    assert shot.startswith(b"\x89PNG\r\n\x1a\n") and len(shot) > 10_000
    assert time.monotonic() - started < 10


def test_keyboard_moves_between_cells_opens_and_closes(browser: Browser) -> None:
    browser.click("document.querySelector('#grid tbody tr:nth-child(2) td.cell')")
    browser.key("Escape")
    first = state(browser)
    assert not first["open"] and first["active"] is not None
    assert first["outline"] != "none"  # visible focus
    browser.key("ArrowRight")
    right = state(browser)
    assert right["mode"] == "N" and right["provider"] == first["provider"]
    browser.key("ArrowDown")
    down = state(browser)
    assert down["mode"] == "N" and down["active"] != right["active"]
    browser.key("Enter")
    opened = state(browser)
    assert opened["open"] and "normalized" in opened["panel"]
    browser.key("ArrowLeft")  # the panel follows the focus while open
    assert "· raw" in state(browser)["panel"]
    browser.key("Escape")
    assert not state(browser)["open"]


def test_filters_by_verdict_evidence_and_provider(browser: Browser) -> None:
    def choose(select: str, value: str) -> None:
        browser.js(f"(() => {{ const s = document.getElementById('{select}'); s.value = "
                   f"'{value}'; s.dispatchEvent(new Event('change')); }})()")

    count = "document.getElementById('count').textContent"
    choose("verdict", "reject")
    assert browser.js(count) == "120 cells shown"  # raw rejects: n % 3 != 0, 3 providers
    choose("evidence", "observed")
    assert browser.js(count) == "20 cells shown"  # openai raw rejects on even n
    assert browser.js("document.querySelectorAll('#grid tbody tr:not(.topic)')"
                      ".length - [...document.querySelectorAll('#grid tbody tr:not(.topic)')]"
                      ".filter(r => r.style.display === 'none').length") == 20
    choose("verdict", "")
    choose("evidence", "documented")
    assert browser.js(count) == "2 cells shown"
    choose("evidence", "")
    choose("provider", "gemini")
    assert browser.js(count) == "120 cells shown"
    assert browser.js("getComputedStyle(document.querySelector("
                      "'th.p[data-provider=\"openai\"]')).display") == "none"
    choose("provider", "")
    assert browser.js(count) == f"{len(RESULTS)} cells shown"


def test_a_non_web_source_is_shown_as_text_not_linked(browser: Browser) -> None:
    browser.click("document.querySelector('td.cell.ev-documented')")
    seen = state(browser)
    assert seen["open"] and "documented" in seen["panel"]
    assert "javascript:alert(1)" in seen["panel"]
    assert browser.js("document.querySelectorAll('#detail a').length") == 0
    browser.key("Escape")
