"""Per-vendor pages: generated from the evidence files, current in docs/generated/vendors/,
verbatim answers kept verbatim, and a timeline where a rule was seen both ways."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from conformance.cli.main import main
from conformance.publish.vendors import (
    read_observations,
    render_vendor,
    vendor_pages,
    write_vendor_pages,
)

ROOT = Path(__file__).resolve().parent.parent
PAGES = ROOT / "docs" / "generated" / "vendors"


def obs(model: str, date: str, status: int, rules: list[str], error: str | None = None,
        vendor: str = "acme") -> dict[str, Any]:
    return {"vendor": vendor, "protocol": "openai_chat", "endpoint": "api.acme.test/v1/chat",
            "model": model, "date": date, "status": status, "error": error,
            "request": {"model": model, "messages": []}, "reconstructed": [],
            "confidence": "recorded", "rules": rules, "notes": "What it shows.",
            "source": {"url": "https://github.com/o/r/blob/c/t.yaml", "repo": "o/r",
                       "path": "t.yaml", "commit": "0123456789" * 4}}


SAMPLE = [("evidence/acme/long-id-rejected-2025.yaml",
           obs("m-1", "2025-03-01", 400, ["tool-call-id-too-long"], "id too long: ```x``` |")),
          ("evidence/acme/long-id-accepted-2026.yaml",
           obs("m-2", "2026-07-14", 200, ["tool-call-id-too-long"])),
          ("evidence/acme/plain-round-trip.yaml", obs("m-2", "2026-01-02", 200, [])),
          ("evidence/zeta/orphan-rejected.yaml",
           obs("z", "2024-01-01", 422, ["orphan-tool-result"], "orphan", vendor="zeta"))]


def test_committed_pages_are_current() -> None:
    fresh = vendor_pages(read_observations(ROOT / "evidence"))
    committed = {p.name: p.read_text(encoding="utf-8") for p in PAGES.glob("*.md")}
    assert sorted(committed) == sorted(fresh), "run `conformance report --vendors`"
    stale = [name for name, text in fresh.items() if committed[name] != text]
    assert stale == [], f"stale vendor pages {stale}: run `conformance report --vendors`"


def test_a_rule_seen_both_ways_gets_a_timeline_and_answers_stay_verbatim() -> None:
    page = render_vendor("acme", [po for po in SAMPLE if po[1]["vendor"] == "acme"])
    changed = page.split("## What changed over time", 1)[1].split("## By rule", 1)[0]
    assert "`tool-call-id-too-long`" in changed
    assert changed.index("2025-03-01") < changed.index("2026-07-14")
    assert "By date: rejected 2025-03-01 (`m-1`) → accepted 2026-07-14 (`m-2`)" in changed
    assert "````text\nid too long: ```x``` |\n````" in page  # fence longer than the text's
    assert "(no rule: a plain tool round trip): 1 accepted" in page
    assert '<a id="long-id-accepted-2026"></a>' in page
    assert "[o/r t.yaml @ 0123456](https://github.com/o/r/blob/c/t.yaml)" in page
    assert "- file: [evidence/acme/plain-round-trip.yaml](../../../evidence/acme/" in page


def test_index_counts_and_order_do_not_depend_on_input_order() -> None:
    pages = vendor_pages(SAMPLE)
    assert pages == vendor_pages(list(reversed(SAMPLE)))
    assert list(pages) == ["README.md", "acme.md", "zeta.md"]
    assert "| [acme](acme.md) | 3 | 2 | 1 | 0 | 3 | 0 | 0 | 0 | 2 | 2025-03-01 – 2026-07-14 | " \
           "`tool-call-id-too-long` |" in pages["README.md"]
    assert "| [zeta](zeta.md) | 1 | 0 | 1 | 0 |" in pages["README.md"]


def test_report_vendors_writes_the_pages_and_drops_stale_ones(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for path, o in SAMPLE:
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(yaml.safe_dump(o), encoding="utf-8")
    (tmp_path / "evidence" / "acme" / "broken.yaml").write_text("a: [", encoding="utf-8")
    out = tmp_path / "docs"
    (out / "vendors").mkdir(parents=True)
    (out / "vendors" / "gone.md").write_text("old", encoding="utf-8")
    assert main(["report", "--vendors", "--evidence", str(tmp_path / "evidence"),
                 "--out", str(out)]) == 0
    assert sorted(p.name for p in (out / "vendors").iterdir()) == [
        "README.md", "acme.md", "zeta.md"]
    assert "wrote 3 vendor pages" in capsys.readouterr().out
    assert write_vendor_pages(tmp_path / "evidence", tmp_path / "again")[0].name == "README.md"
    assert main(["report", "--vendors", "--evidence", str(tmp_path / "none")]) == 2
