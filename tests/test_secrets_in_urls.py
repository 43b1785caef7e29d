"""Credentials inside a provider's base_url (issue 14, reliability): a password and a
`?key=` in `https://user:secret@host/v1?key=XYZ` are scrubbed from cassettes (recorded URI
and provenance), reports and error texts, and the cassette lint finds them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance import cassettes
from conformance.backends import Backends
from conformance.emulator import serve
from conformance.item import Item, Result, run_item
from conformance.providers import Provider
from conformance.publish.matrix import write_reports
from conformance.scenarios.load import load_scenario

SCENARIO = Path(__file__).parent / "data" / "scenario_files" / "pairing" / \
    "partial-parallel-results.yaml"
PASSWORD, QUERY_KEY = "PLANTEDpassword4711", "PLANTEDquerykey0815"


def test_scrub_url() -> None:
    assert cassettes.scrub_url("https://user:secret@host/v1?key=XYZ&alt=sse") == \
        "https://redacted@host/v1?key=redacted&alt=sse"
    assert cassettes.scrub_url("http://127.0.0.1:8700/openai/v1") == \
        "http://127.0.0.1:8700/openai/v1"
    assert cassettes.url_secrets("https://user:secret@host/v1?key=XYZW") == ["secret", "XYZW"]
    assert cassettes.url_secrets("https://LONEKEY1234@host/v1") == ["LONEKEY1234"]


def test_lint_finds_credentials_in_urls(tmp_path: Path) -> None:
    leaked = tmp_path / "leak.yaml"
    leaked.write_text("  uri: https://user:secret@host/v1/chat/completions\n"
                      "  base_url: https://host/v1?alt=sse&key=XYZW\n"
                      "  base_url: https://redacted@host/v1?key=redacted\n", encoding="utf-8")
    assert [p.split(": ", 1)[1] for p in cassettes.lint(leaked)] == [
        "password in a URL", "credential in a URL query"]


@pytest.mark.parametrize("backend", ["live", "emulator-recorded"])
def test_base_url_credentials_never_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            backend: str) -> None:
    monkeypatch.setenv("PLANTED_KEY", "planted-api-key-0000")
    scenario = load_scenario(SCENARIO)
    with serve(["openai"]) as emulator:
        host_path = emulator.sdk_base_url("openai").removeprefix("http://")
        base_url = f"http://user:{PASSWORD}@{host_path}?key={QUERY_KEY}"
        provider = Provider("openai", "openai_chat", base_url, "PLANTED_KEY", "gpt-4.1-mini",
                            "openai", builtin=False)
        choice = "live" if backend == "live" else "emulator"
        backends = Backends(choice=choice, record_mode="all",
                            cassette_root=tmp_path / "cassettes", providers=[provider])
        if choice == "emulator":  # the emulator's own URL carries no secret: plant it there
            monkeypatch.setattr(backends, "emulator_base_url", lambda p: base_url)
        try:
            results = [run_item(Item(scenario, provider, m), backends).to_json()
                       for m in ("raw", "normalized")]
        finally:
            backends.close()
    # The openai SDK appends its path after the query (a 404 from the emulator): what
    # matters is that an HTTP answer came back and was recorded.
    assert all(r["status"] for r in results), results
    write_reports([Result.from_json(r) for r in results], tmp_path / "report")
    written = "\n".join(p.read_text(encoding="utf-8") for p in sorted(tmp_path.rglob("*"))
                        if p.is_file()) + json.dumps(results)
    assert PASSWORD not in written and QUERY_KEY not in written
    recorded = sorted((tmp_path / "cassettes").rglob("*.yaml"))
    assert recorded and [p for path in recorded for p in cassettes.lint(path)] == []
    stamp = cassettes.read_provenance(recorded[0])
    assert stamp["base_url"].startswith("http://redacted@127.0.0.1")


def test_connection_error_text_has_no_url_credentials(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLANTED_KEY", "planted-api-key-0000")
    provider = Provider("closed", "openai_chat",
                        f"http://user:{PASSWORD}@127.0.0.1:9/v1?key={QUERY_KEY}",
                        "PLANTED_KEY", "m", "openai", builtin=False)
    waits: list[float] = []  # the live retries' backoff, recorded instead of slept (7 s)
    backends = Backends(choice="live", providers=[provider], sleep=waits.append)
    try:
        result = run_item(Item(load_scenario(SCENARIO), provider, "raw"), backends)
    finally:
        backends.close()
    text = json.dumps(result.to_json())
    assert PASSWORD not in text and QUERY_KEY not in text
    assert waits == [1.0, 2.0, 4.0]  # every attempt failed the same way
