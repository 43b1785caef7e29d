"""A planted fake key per SDK (headers and query) never appears in a recorded cassette, a
report or an error text. Live mode is pointed at the loopback emulator."""

from __future__ import annotations

import json
from pathlib import Path

import httpx2
import pytest

from conformance import cassettes
from conformance.backends import Backends
from conformance.emulator import serve
from conformance.item import Item, run_item
from conformance.providers import BUILTIN_PROVIDERS, Provider
from conformance.publish.matrix import write_reports
from conformance.scenarios.load import load_scenario

SCENARIO = Path(__file__).parent / "data" / "scenario_files" / "pairing" / \
    "partial-parallel-results.yaml"
# Fake keys in the vendors' real shapes, built at run time so that no key-like string sits
# in the source (scanners would flag it); the lint must still recognise their shape.
KEYS = {"openai": "sk-" + "proj-PLANTEDopenai0123456789abcdefABCDEF",
        "anthropic": "sk-" + "ant-PLANTEDanthropic0123456789abcdefABCD",
        "gemini": "AI" + "zaPLANTEDgemini0123456789abcdefABCDEFGH"}


def all_text(root: Path) -> str:
    return "\n".join(p.read_text(encoding="utf-8", errors="replace")
                     for p in sorted(root.rglob("*")) if p.is_file())


@pytest.fixture
def planted(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    for name, key in KEYS.items():
        monkeypatch.setenv(f"PLANTED_{name.upper()}_KEY", key)
    return KEYS


def test_planted_keys_never_written(tmp_path: Path, planted: dict[str, str]) -> None:
    scenario = load_scenario(SCENARIO)
    results = []
    with serve(list(KEYS)) as emulator:
        providers = [Provider(name, BUILTIN_PROVIDERS[name].protocol,
                              emulator.sdk_base_url(name), f"PLANTED_{name.upper()}_KEY",
                              BUILTIN_PROVIDERS[name].model, name, builtin=False)
                     for name in KEYS]
        backends = Backends(choice="live", record_mode="all",
                            cassette_root=tmp_path / "cassettes", providers=providers)
        try:
            for provider in providers:
                for mode in ("raw", "normalized"):
                    results.append(run_item(Item(scenario, provider, mode), backends))
        finally:
            backends.close()
    assert {r.verdict.kind for r in results} == {"accept", "reject"}  # errors came back too
    write_reports(results, tmp_path / "report")
    written = all_text(tmp_path) + json.dumps([r.to_json() for r in results])
    for key in planted.values():
        assert key not in written
    recorded = sorted((tmp_path / "cassettes").rglob("*.yaml"))
    assert len(recorded) == 6
    assert [p for path in recorded for p in cassettes.lint(path)] == []


def test_key_in_query_parameter_is_filtered(tmp_path: Path) -> None:
    key = KEYS["gemini"]
    path = tmp_path / "q.yaml"
    with serve(["gemini"]) as emulator, cassettes.use(path, "all", key):
        httpx2.post(f"{emulator['gemini']}/v1beta/models/gemini-2.5-flash:generateContent"
                    f"?key={key}&alt=json", json={"contents": [
                        {"role": "user", "parts": [{"text": f"my key is {key}"}]}]})
    text = path.read_text(encoding="utf-8")
    assert key not in text and "alt=json" in text and "[redacted]" in text


def test_connection_error_text_has_no_key(planted: dict[str, str]) -> None:
    provider = Provider("closed", "openai_chat", "http://127.0.0.1:9/v1",
                        "PLANTED_OPENAI_KEY", "m", "openai", builtin=False)
    waits: list[float] = []  # the live retries' backoff, recorded instead of slept (7 s)
    backends = Backends(choice="live", providers=[provider], sleep=waits.append)
    scenario = load_scenario(SCENARIO)
    try:
        result = run_item(Item(scenario, provider, "raw"), backends)
    finally:
        backends.close()
    assert result.verdict.kind == "inconclusive"
    assert waits == [1.0, 2.0, 4.0]  # every attempt failed the same way
    assert planted["openai"] not in json.dumps(result.to_json())
