"""The pytest plugin end to end, against the emulator. Inner runs are in process (the SDKs
and the suite stay loaded: conftest.suite_loaded) except where a process is the point: the
terminal question. The xdist run's controller is in process too; its two workers are
processes, as under any xdist run."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

GOOD = (Path(__file__).parent / "data" / "scenario_files" / "pairing" /
        "partial-parallel-results.yaml").read_text(encoding="utf-8")
WRONG_EXPECTATION = GOOD.replace("raw: {openai: reject", "raw: {openai: accept")
BROKEN = "title: broken\nrefs: [x]\nhistory:\n  - {role: usr, content: hi}\n"
ARGS = ("-p", "no:cacheprovider", "--conformance-provider", "openai",
        "--conformance-backend", "emulator")


@pytest.fixture
def scenarios(pytester: pytest.Pytester, suite_loaded: None) -> pytest.Pytester:
    folder = pytester.path / "scenarios" / "pairing"
    folder.mkdir(parents=True)
    (folder / "partial.yaml").write_text(GOOD, encoding="utf-8")
    pytester.makeini("[pytest]\nconformance_scenarios = scenarios\n")
    return pytester


def test_items_have_readable_ids(scenarios: pytest.Pytester) -> None:
    result = scenarios.runpytest_inprocess("--co", "-q", *ARGS,
                                               "--conformance-provider", "anthropic")
    out = result.stdout.str()
    for name in ("openai[raw]", "openai[normalized]", "anthropic[raw]", "anthropic[normalized]"):
        assert f"scenarios/pairing/partial.yaml::{name}" in out
    picked = scenarios.runpytest_inprocess("--co", "-q", *ARGS, "-k", "openai and raw")
    assert "1/2 tests collected" in picked.stdout.str() or "1 test" in picked.stdout.str()


def test_bad_file_fails_alone_with_located_error(scenarios: pytest.Pytester) -> None:
    (scenarios.path / "scenarios" / "pairing" / "broken.yaml").write_text(BROKEN)
    result = scenarios.runpytest_inprocess(*ARGS)
    result.assert_outcomes(passed=2, failed=1)
    out = result.stdout.str()
    assert "scenarios/pairing/broken.yaml:4:12: history[0].role:" in out
    assert "did you mean 'user'" in out
    assert "Traceback" not in out


def test_failure_is_short_and_says_what_next(scenarios: pytest.Pytester) -> None:
    (scenarios.path / "scenarios" / "pairing" / "partial.yaml").write_text(WRONG_EXPECTATION)
    result = scenarios.runpytest_inprocess(*ARGS)
    result.assert_outcomes(passed=1, failed=1)
    out = result.stdout.str()
    assert "expected accept, got reject (HTTP 400: An assistant message with 'tool_calls'" in out
    assert "check() predicted: reject [missing-tool-result]" in out
    assert "next: pytest 'scenarios/pairing/partial.yaml::openai[raw]' --conformance-backend" in out
    assert "Traceback" not in out and "raise ScenarioFailure" not in out


def test_xdist_and_report(scenarios: pytest.Pytester) -> None:
    report = scenarios.path / "rep"
    result = scenarios.runpytest_inprocess(*ARGS, "--conformance-provider", "gemini",
                                           "-n", "2", "--conformance-report", str(report))
    result.assert_outcomes(passed=4)
    data = json.loads((report / "strictness.json").read_text(encoding="utf-8"))
    assert sorted(r["id"] for r in data["results"]) == sorted(
        f"scenarios/pairing/partial.yaml::{p}[{m}]" for p in ("openai", "gemini")
        for m in ("raw", "normalized"))
    assert (report / "strictness.html").read_text().startswith("<!doctype html>")


def test_live_run_needs_yes_when_not_a_tty(scenarios: pytest.Pytester,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-" + "test-not-a-real-key-000000000000")
    result = scenarios.runpytest_inprocess("-p", "no:cacheprovider",
                                            "--conformance-provider", "openai",
                                            "--conformance-backend", "live")
    assert "2 live requests would be sent" in result.stdout.str() + result.stderr.str()
    assert "Pass --conformance-yes" in result.stdout.str() + result.stderr.str()
    assert result.ret == 2


def test_live_items_without_a_key_are_skipped_with_the_reason(
        scenarios: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    result = scenarios.runpytest_inprocess("-p", "no:cacheprovider",
                                            "--conformance-provider", "openai",
                                            "--conformance-backend", "live",
                                            "--conformance-yes", "-rs")
    result.assert_outcomes(skipped=2)
    assert "live: OPENAI_API_KEY is not set for openai" in result.stdout.str()


def _read_until(fd: int, marker: str, seconds: float) -> str:
    """What a pty shows until `marker` appears (or the child closes it, or time runs out)."""
    seen, deadline = "", time.monotonic() + seconds
    while marker not in seen and time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.5)
        if not ready:
            continue
        try:
            chunk = os.read(fd, 4096)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        seen += chunk.decode(errors="replace")
    return seen


def test_live_question_reaches_a_terminal_and_no_means_no(scenarios: pytest.Pytester) -> None:
    """pytest captures stdin and stdout; the question still reaches the terminal. The provider
    points at a closed loopback port, so even a wrong "yes" could not leave the machine."""
    providers = scenarios.path / "providers.yaml"
    providers.write_text("providers:\n  - {name: local, protocol: openai_chat, "
                         "base_url: 'http://127.0.0.1:9/v1', api_key_env: CONFORMANCE_TEST_KEY, "
                         "model: m, profile: openai}\n", encoding="utf-8")
    main, child = os.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--conformance-provider",
         "local", "--conformance-providers-file", str(providers), "--conformance-backend",
         "live"], cwd=scenarios.path, stdin=child, stdout=child, stderr=child,
        env={**os.environ, "CONFORMANCE_TEST_KEY": "not-a-key"})
    os.close(child)
    try:
        asked = _read_until(main, "Send them? [y/N]", 120)
        assert "2 live requests would be sent to vendors" in asked, asked
        os.write(main, b"n\n")
        told = _read_until(main, "no live requests sent", 60)
        assert proc.wait(timeout=60) == 2
    finally:
        proc.kill()
        os.close(main)
    assert "no live requests sent" in told, told
