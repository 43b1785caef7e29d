"""The report: deterministic, complete, and the HTML grid holds every item."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

from conformance.item import Result
from conformance.publish.matrix import (
    provenance_line,
    render_markdown,
    sort_results,
    summary,
    write_reports,
)


def result(scenario: str, provider: str, mode: str, verdict: str, predicted: str,
           problem: str = "") -> Result:
    return Result.from_json({
            "id": f"{scenario}::{provider}[{mode}]", "scenario": scenario, "title": scenario,
            "topic": scenario.split("/")[1], "provider": provider, "mode": mode,
            "verdict": verdict, "status": 400 if verdict == "reject" else 200,
            "error_type": None, "error_code": None, "message": "no <b>", "reason": "",
            "expected": verdict, "predicted": predicted, "predicted_rule": None,
            "predicted_message": "", "changes": [], "problem": problem,
            "source": {"backend": "cassette", "cassette": "c.yaml",
                       "provenance": {"backend": "emulator", "model": "m",
                                      "recorded": "2026-11-22"}}})


RESULTS = [result("scenarios/pairing/a.yaml", p, m, v, pr)
           for p, m, v, pr in [("gemini", "raw", "reject", "reject"),
                               ("openai", "normalized", "accept", "accept"),
                               ("openai", "raw", "reject", "accept"),
                               ("gemini", "normalized", "accept", "accept")]]
RESULTS.append(result("scenarios/ids/b.yaml", "openai", "raw", "accept", "accept", "bad"))


def test_order_is_deterministic_whatever_the_input_order() -> None:
    ids = [r["id"] for r in sort_results(RESULTS)]
    assert ids == [r["id"] for r in sort_results(list(reversed(RESULTS)))]
    assert ids[0] == "scenarios/ids/b.yaml::openai[raw]"
    assert ids[1:3] == ["scenarios/pairing/a.yaml::openai[raw]",
                        "scenarios/pairing/a.yaml::openai[normalized]"]


def test_summary_and_differential() -> None:
    s = summary(RESULTS)
    assert s["differs_from_check"] == 1 and s["failed"] == 1
    assert s["sources"] == {"cassette (recorded against emulator)": 5}
    md = render_markdown(sort_results(RESULTS))
    assert "`scenarios/pairing/a.yaml::openai[raw]` | reject | accept" in md
    assert "recorded against the loopback emulators" in md


def test_the_provenance_line_tells_live_from_emulated_verdicts() -> None:
    live = replace(RESULTS[0], source={"backend": "live"})
    recorded_live = replace(RESULTS[0], source={"backend": "cassette",
                                                "provenance": {"backend": "live"}})
    line = provenance_line([*RESULTS, live, recorded_live, recorded_live])
    assert line == ("verdicts: 1 from live vendors, 2 from live-recorded cassettes, "
                    "5 from emulator-recorded cassettes")
    assert provenance_line(RESULTS[:1]).startswith("verdicts: 0 from live vendors, "
                                                   "0 from live-recorded cassettes, 1 from")


def test_written_files_are_identical_across_runs(tmp_path: Path) -> None:
    first = [p.read_bytes() for p in write_reports(RESULTS, tmp_path / "a")]
    second = [p.read_bytes() for p in write_reports(list(reversed(RESULTS)), tmp_path / "b")]
    assert first == second
    data = json.loads(first[0])
    assert len(data["results"]) == 5


def test_html_grid_has_every_item_escaped_with_filters(tmp_path: Path) -> None:
    html_path = write_reports(RESULTS, tmp_path)[2]
    page = html_path.read_text(encoding="utf-8")
    assert len(re.findall(r'<td class="cell ', page)) == 5
    assert 'id="topic"' in page and 'id="provider"' in page
    assert "no <b>" not in page and "no \\u003cb\\u003e" in page  # in the JSON block
    assert "recorded against emulator" in page
