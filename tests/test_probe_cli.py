"""`conformance probe --provider NAME`: re-measure a known provider (its protocol, model and
key variable; --base-url points it at a loopback emulator here), print the diff against its
shipped profile, write every answer as an evidence file; --dry-run lists and counts;
requests to a non-loopback host need --yes."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import fast_yaml
import pytest

from conformance.cli.main import main
from conformance.emulator import Emulator, serve
from conformance.probe.cases import probe_set
from conformance.probe.evidence import loopback
from conformance.probe.observe import max_requests
from normalizer.profiles import Profile, load_profile

EVIDENCE_KEYS = ["vendor", "protocol", "endpoint", "model", "date", "status", "error",
                 "request", "reconstructed", "confidence", "source", "rules", "notes"]


def shorter_ids() -> Profile:
    base = load_profile("openai")
    rules = tuple(replace(r, params=r.params.merged(max_length=24))
                  if r.id == "tool-call-id-too-long" else r for r in base.rules)
    return replace(base, provider="openai-next", rules=rules, source_path="<edited>")


@pytest.fixture(scope="module")
def emu() -> Iterator[Emulator]:
    with serve(["anthropic", shorter_ids()]) as running:
        yield running


def test_reprobe_a_builtin_prints_an_empty_diff_and_writes_evidence(
        emu: Emulator, tmp_path: Path, capsys: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-" + "not-a-key")
    out, evidence = tmp_path / "anthropic.yaml", tmp_path / "evidence"
    assert main(["probe", "--provider", "anthropic", "--base-url", emu.sdk_base_url("anthropic"),
                 "--out", str(out), "--evidence", str(evidence)]) == 0
    printed = capsys.readouterr().out
    assert "probing" in printed and "(anthropic, model claude-haiku-4-5)" in printed
    assert "no difference from the shipped profile anthropic in what was measured" in printed
    files = sorted((evidence / "anthropic").glob("*.yaml"))
    sent = sum(emu.stats.values())
    assert len(files) == sent and f"wrote {sent} evidence files" in printed
    url = f"{emu.sdk_base_url('anthropic')}/v1/messages"
    for path in files:
        data = fast_yaml.load(path.read_text())
        assert [k for k in data if k != "error_type"] == EVIDENCE_KEYS, path.name
        assert data["source"] == {"url": url} and data["confidence"] == "recorded"
        assert data["request"]["model"] == "claude-haiku-4-5" and data["reconstructed"] == []
        assert (data["status"] == 200) == (data["error"] is None)
        assert "not-a-key" not in path.read_text()
    orphan = fast_yaml.load((evidence / "anthropic" / "probe-orphan-tool-result-1.yaml")
                            .read_text())
    assert orphan["status"] == 400 and orphan["rules"] == ["orphan-tool-result"]
    assert orphan["endpoint"] == url.split("://", 1)[1]
    assert "not by the vendor's own endpoint" in orphan["notes"]


def test_a_changed_provider_shows_in_the_printed_diff(emu: Emulator, tmp_path: Path,
                                                      capsys: Any) -> None:
    assert main(["probe", "--provider", "openai", "--base-url",
                 emu.sdk_base_url("openai-next"), "--api-key-env", "", "--out",
                 str(tmp_path / "o.yaml")]) == 0
    printed = capsys.readouterr().out
    assert "difference from the shipped profile openai:" in printed
    assert "  changed limits: tool-call-id-too-long: max_length 64 -> 24" in printed
    measured = load_profile(tmp_path / "o.yaml")
    assert measured.provider == "openai" and measured.param(
        "tool-call-id-too-long", "max_length") == 24


def test_dry_run_of_a_provider_counts_and_lists_without_sending(capsys: Any) -> None:
    assert main(["probe", "--provider", "anthropic", "--dry-run"]) == 0
    printed = capsys.readouterr().out
    count = max_requests(probe_set("anthropic"))
    assert printed.startswith(f"dry run: {count} requests at most to https://api.anthropic.com "
                              "(anthropic, model claude-haiku-4-5); nothing is sent")
    assert main(["probe", "--provider", "openai", "--dry-run"]) == 0
    assert "tool-call-id-too-long: then up to 8 requests searching the limit between 1 and " \
           "256" in capsys.readouterr().out


def test_a_vendor_host_needs_yes_without_a_terminal(capsys: Any,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-" + "not-a-key")
    assert main(["probe", "--provider", "anthropic", "--out", "/nonexistent/x.yaml"]) == 2
    assert "Pass --yes to send them." in capsys.readouterr().err
    assert loopback("http://127.0.0.1:8700/v1") and loopback("http://localhost:11434/v1")
    assert not loopback("https://api.anthropic.com")


def test_bad_provider_arguments_exit_2(capsys: Any) -> None:
    assert main(["probe", "--provider", "acme"]) == 2
    assert "unknown provider 'acme'" in capsys.readouterr().err
    assert main(["probe", "--model", "m"]) == 2
    assert "give --protocol, --base-url (or --provider NAME)" in capsys.readouterr().err
    assert main(["probe", "--provider", "openai", "--protocol", "gemini", "--dry-run"]) == 2
