"""The matrix says what backs each cell (observed / contradicted / documented / modeled
only), compares the observed vendor answers with check(), and never calls an emulator's
words "seen" — on small inputs, with the evidence given explicitly."""

from __future__ import annotations

from typing import Any

from conformance.evidence.agree import agreement
from conformance.evidence.load import Observation, Source
from conformance.publish.matrix import render_markdown, sort_results, summary

EMULATED = {"backend": "cassette", "cassette": "c.yaml",
            "provenance": {"backend": "emulator", "model": "m", "recorded": "2026-11-22"}}
LIVE = {"backend": "cassette", "cassette": "l.yaml",
        "provenance": {"backend": "live", "model": "gpt-4o", "recorded": "2026-10-01"}}
ORPHAN_BODY = {"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"},
                                                {"role": "tool", "tool_call_id": "c",
                                                 "content": "x"}]}


def result(scenario: str, provider: str, mode: str, verdict: str, rule: str | None,
           source: dict[str, Any] = EMULATED) -> dict[str, Any]:
    return {"id": f"{scenario}::{provider}[{mode}]", "scenario": scenario, "title": scenario,
            "topic": scenario.split("/")[1], "provider": provider, "mode": mode,
            "verdict": verdict, "status": 400 if verdict == "reject" else 200,
            "message": "words", "reason": "", "expected": verdict, "predicted": verdict,
            "predicted_rule": rule, "predicted_message": "", "changes": [], "problem": "",
            "source": source}


def observation(status: int, date: str, rules: tuple[str, ...], gap: str | None = None,
                vendor: str = "openai") -> Observation:
    return Observation(
        path=f"evidence/{vendor}/o-{date}.yaml", vendor=vendor, protocol="openai_chat",
        endpoint="api.openai.com/v1/chat/completions", model="gpt-4o", date=date,
        status=status, error=None if status < 300 else "no", error_type=None,
        request=ORPHAN_BODY, reconstructed=(), confidence="recorded",
        source=Source("https://example.org/x"), rules=rules, notes="n", gap=gap)


def test_cells_say_what_backs_them() -> None:
    evidence = [agreement(observation(400, "2025-01-01", ("orphan-tool-result",)))]
    results = [result("scenarios/pairing/a.yaml", "openai", "raw", "reject",
                      "orphan-tool-result"),
               result("scenarios/pairing/a.yaml", "openai", "normalized", "accept", None),
               result("scenarios/pairing/a.yaml", "xai", "raw", "accept", None),
               result("scenarios/pairing/b.yaml", "deepseek", "raw", "reject",
                      "orphan-tool-result"),
               result("scenarios/pairing/c.yaml", "groq", "raw", "accept", None, LIVE)]
    cells = {r["id"]: r["evidence"] for r in sort_results(results, evidence)}
    observed = cells["scenarios/pairing/a.yaml::openai[raw]"]
    assert observed == {"level": "observed", "via": "evidence", "date": "2025-01-01",
                        "model": "gpt-4o", "status": 400, "source": "https://example.org/x",
                        "path": "evidence/openai/o-2025-01-01.yaml"}
    assert cells["scenarios/pairing/a.yaml::openai[normalized]"] == {"level": "modeled"}
    assert cells["scenarios/pairing/a.yaml::xai[raw]"] == {"level": "modeled"}
    assert cells["scenarios/pairing/b.yaml::deepseek[raw]"]["level"] == "documented"
    assert cells["scenarios/pairing/c.yaml::groq[raw]"]["via"] == "cassette l.yaml"
    s = summary(sort_results(results, evidence))
    assert s["backing"]["openai"] == {"observed": 1, "contradicted": 0, "documented": 0,
                                      "modeled": 1, "cells": 2}


def test_the_newest_observation_decides_and_a_contradiction_is_listed() -> None:
    evidence = [agreement(observation(400, "2025-01-01", ("orphan-tool-result",))),
                agreement(observation(200, "2026-07-14", ("orphan-tool-result",),
                                      gap="check() rejects what the vendor accepted"))]
    rows = sort_results([result("scenarios/pairing/a.yaml", "openai", "raw", "reject",
                                "orphan-tool-result")], evidence)
    assert rows[0]["evidence"]["level"] == "contradicted"
    md = render_markdown(rows, evidence)
    assert "| ✗!→  |" in md
    assert "Cells an observation contradicts" in md
    assert "HTTP 200 from gpt-4o on 2026-07-14" in md


def test_sections_word_emulated_verdicts_as_such() -> None:
    evidence = [agreement(observation(200, "2026-01-01", ("orphan-tool-result",),
                                      gap="we do not model it"))]
    rows = sort_results([result("scenarios/pairing/a.yaml", "openai", "raw", "reject",
                                "orphan-tool-result")], evidence)
    md = render_markdown(rows, evidence)
    assert "## Error texts emulated (raw requests" in md
    assert "Error texts seen from vendors" not in md
    assert "None, by construction: every verdict came from our emulators" in md
    assert "## What backs the verdicts" in md
    assert "| openai | 1 | 0 (0%) | 1 | 0 | 0 | 1 (0 / 1 / 0) |" in md
    assert "## Observed vendor answers vs check()" in md
    assert "| openai | 1 | 0 | 1 | 0 | 0 |" in md
    assert "| reject orphan-tool-result | we do not model it |" in md
    assert "| *raw verdicts observed* | 0/1 |" in md


def test_live_texts_are_seen() -> None:
    rows = sort_results([result("scenarios/pairing/a.yaml", "openai", "raw", "reject",
                                "orphan-tool-result", LIVE)], [])
    md = render_markdown(rows, [])
    assert "## Error texts seen from vendors (raw requests)" in md
    assert "Error texts emulated" not in md
    assert "| ✗●→  |" in md


def test_an_observation_check_agrees_with_contradicts_nothing() -> None:
    """A 2026 accept that check() also accepts is another form of the request: the 2025
    reject still backs the reject cell."""
    evidence = [agreement(observation(400, "2025-01-01", ("orphan-tool-result",))),
                agreement(observation(200, "2026-07-14", ("orphan-tool-result",)))]
    assert evidence[1].outcome == "disagrees"  # the orphan body is rejected by check()
    accepted = observation(200, "2026-07-14", ("orphan-tool-result",))
    fine = agreement(Observation(**{**{f: getattr(accepted, f) for f in accepted.__slots__},
                                    "request": {"model": "gpt-4o", "messages": [
                                        {"role": "user", "content": "hi"}]}}))
    assert fine.outcome == "agrees"
    rows = sort_results([result("scenarios/pairing/a.yaml", "openai", "raw", "reject",
                                "orphan-tool-result")], [evidence[0], fine])
    assert rows[0]["evidence"]["level"] == "observed"
    assert rows[0]["evidence"]["date"] == "2025-01-01"
