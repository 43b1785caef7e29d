"""The one SDK seam (conformance/clients.py): its exception mapper survives any vendor
answer and tells failures apart by the SDKs' exception types, never by names or messages;
a bad Gemini key is an auth failure (probe exit 4), not strictness; keyless providers run
live without a key. Every server here is on loopback (tests/loopback.py)."""

from __future__ import annotations

import json
from pathlib import Path

import anthropic
import httpx2
import openai
import pytest
from loopback import Answer, Loopback
from test_classify import GEMINI_BAD_KEY
from vcr.errors import CannotOverwriteExistingCassetteException

from conformance.backends import Backends
from conformance.classify import classify
from conformance.cli.main import main
from conformance.clients import close_clients, outcome_of_exception, plain_json, send
from conformance.item import Item, run_item
from conformance.probe.observe import EXIT_AUTH
from conformance.providers import BUILTIN_PROVIDERS, KEYLESS_KEY, Provider, load_providers_file
from conformance.publish.matrix import write_reports
from conformance.scenarios.load import load_scenario

SCENARIO = Path(__file__).parent / "data" / "scenario_files" / "pairing" / \
    "partial-parallel-results.yaml"
# The shape anthropic 2.12 reads into `APIStatusError.details` (an SDK object:
# types/shared/ramp_limit_exceeded_error_details.py). The message is a placeholder: the
# vendor's wording for this answer is not known here.
ANTHROPIC_DETAILS = {"type": "error", "error": {
    "type": "rate_limit_error", "message": "(placeholder, not a vendor text)",
    "details": {"error_code": "ramp_limit_exceeded"}}}
BODY = {"messages": [{"role": "user", "content": "hi"}], "max_tokens": 16}


@pytest.fixture(autouse=True)
def _fresh_clients() -> object:
    yield
    close_clients()


def test_an_anthropic_error_with_details_gives_plain_json() -> None:
    with Loopback(Answer.json(ANTHROPIC_DETAILS, 429, retry_after="0")) as server:
        outcome = send("anthropic", base_url=server.url, api_key="k-test", model="m",
                       body=BODY)
    assert outcome.status == 429 and outcome.retry_after == 0.0
    assert outcome.body == ANTHROPIC_DETAILS  # what came over the wire, as plain JSON
    json.dumps(outcome.body)


def test_a_live_run_survives_it_and_writes_its_report(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LOOPBACK_KEY", "k-test-loopback")
    with Loopback(Answer.json(ANTHROPIC_DETAILS, 429, retry_after="0")) as server:
        provider = Provider("claude-loop", "anthropic", server.url, "LOOPBACK_KEY", "m",
                            "anthropic", builtin=False)
        backends = Backends(choice="live", providers=[provider], sleep=lambda s: None)
        result = run_item(Item(load_scenario(SCENARIO), provider, "raw"), backends)
        backends.close()
    assert (result.verdict.kind, result.verdict.failure) == ("inconclusive", "rate-limit")
    written = write_reports([result], tmp_path)
    assert all(path.stat().st_size for path in written)
    assert json.loads(written[0].read_text())["results"][0]["status"] == 429


def test_sdk_objects_in_a_body_become_text() -> None:
    class Opaque:
        def __str__(self) -> str:
            return "opaque"

    assert plain_json({"error": {"details": Opaque(), "n": [1, 2.5, None]}}) == {
        "error": {"details": "opaque", "n": [1, 2.5, None]}}


def test_a_bad_gemini_key_through_google_genai_is_auth_not_strictness() -> None:
    with Loopback(Answer.json(GEMINI_BAD_KEY, 400)) as server:
        outcome = send("gemini", base_url=server.url, api_key="k-test", model="m",
                       body={"contents": [{"role": "user", "parts": [{"text": "hi"}]}]})
    verdict = classify(outcome)
    assert outcome.status == 400
    assert (verdict.kind, verdict.failure) == ("inconclusive", "auth")


def test_probe_exits_4_for_a_bad_gemini_key(monkeypatch: pytest.MonkeyPatch,
                                            tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("PROBE_KEY", "k-test-probe")
    with Loopback(Answer.json(GEMINI_BAD_KEY, 400)) as server:
        code = main(["probe", "--protocol", "gemini", "--base-url", server.url, "--model",
                     "m", "--api-key-env", "PROBE_KEY", "--out", str(tmp_path / "p.yaml")])
    assert code == EXIT_AUTH == 4
    assert "refused the API key" in capsys.readouterr().err


def _request() -> httpx2.Request:
    return httpx2.Request("POST", "http://127.0.0.1:1/v1/chat/completions")


def test_a_cassette_mismatch_is_known_by_its_type_through_the_cause() -> None:
    # vcrpy builds its message from a live cassette; the type is what matters here.
    mismatch = CannotOverwriteExistingCassetteException.__new__(
        CannotOverwriteExistingCassetteException)
    try:
        try:
            raise mismatch
        except CannotOverwriteExistingCassetteException as exc:
            raise openai.APIConnectionError(request=_request()) from exc
    except openai.APIConnectionError as wrapped:
        assert outcome_of_exception(wrapped).failure == "cassette-mismatch"


def test_no_name_or_message_sniffing() -> None:
    named = ConnectionError("CannotOverwriteExistingCassetteException in the text only")
    assert outcome_of_exception(named).failure == "connection"

    class TimeoutLookalike(Exception):
        pass

    assert outcome_of_exception(TimeoutLookalike("Timeout")).failure == "sdk"
    assert outcome_of_exception(anthropic.APITimeoutError(_request())).failure == "timeout"


def test_keyless_providers_run_live_without_a_key(monkeypatch: pytest.MonkeyPatch,
                                                  tmp_path: Path) -> None:
    monkeypatch.delenv("OLLAMA_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    assert BUILTIN_PROVIDERS["ollama"].api_key() == KEYLESS_KEY
    assert BUILTIN_PROVIDERS["openai"].api_key() is None
    monkeypatch.setenv("OLLAMA_API_KEY", "k-test-ollama")
    assert BUILTIN_PROVIDERS["ollama"].api_key() == "k-test-ollama"
    listed = tmp_path / "providers.yaml"
    listed.write_text("providers:\n  - {name: local, protocol: openai_chat, "
                      "base_url: 'http://127.0.0.1:1/v1', model: m}\n", encoding="utf-8")
    local = load_providers_file(listed)["local"]
    assert local.keyless and local.api_key() == KEYLESS_KEY
    ok = {"id": "c", "object": "chat.completion", "created": 0, "model": "m",
          "choices": [{"index": 0, "finish_reason": "stop",
                       "message": {"role": "assistant", "content": "ok"}}]}
    with Loopback(Answer.json(ok)) as server:
        local = Provider("local", "openai_chat", f"{server.url}/v1", "", "m", "openai",
                         builtin=False, keyless=True)
        assert Backends(choice="auto", live=True).resolve(local, tmp_path / "none") \
            == "emulator"  # auto never assumes a keyless server is up
        backends = Backends(choice="live", providers=[local])
        result = run_item(Item(load_scenario(SCENARIO), local, "normalized"), backends)
        backends.close()
    assert result.verdict.kind == "accept" and result.source["backend"] == "live"


def test_an_sdk_still_importing_in_another_thread_is_not_read(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A probe maps exceptions in several threads while one of them may still be importing
    an SDK: its module is then in sys.modules without its attributes yet (it was "partially
    initialized module 'anthropic' has no attribute 'APIStatusError'")."""
    import importlib.machinery
    import sys
    import types

    half = types.ModuleType("anthropic")
    half.__spec__ = importlib.machinery.ModuleSpec("anthropic", None)
    half.__spec__._initializing = True  # type: ignore[attr-defined]  # what importlib sets
    monkeypatch.setitem(sys.modules, "anthropic", half)
    outcome = outcome_of_exception(openai.APIConnectionError(request=httpx2.Request(
        "POST", "http://127.0.0.1:9/v1")))
    assert outcome.failure == "connection"
