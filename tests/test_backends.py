"""Backends: live retries with backoff (bounded, never a verdict), one interaction per
recorded cassette, a cassette mismatch that names the field and the re-record command, and
live items skipped when their key is not set. All on loopback."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import fast_yaml
import pytest
from loopback import Answer, Loopback

from conformance.backends import Backends
from conformance.item import Item, run_item
from conformance.providers import Provider
from conformance.scenarios.load import load_scenario

SCENARIO = Path(__file__).parent / "data" / "scenario_files" / "pairing" / \
    "partial-parallel-results.yaml"
OK = {"id": "c", "object": "chat.completion", "created": 0, "model": "m",
      "choices": [{"index": 0, "finish_reason": "stop",
                   "message": {"role": "assistant", "content": "ok"}}]}


class Script:
    """Answers each POST with the next status of the script (the last repeats)."""

    def __init__(self, *statuses: int) -> None:
        self.statuses, self.seen = list(statuses), list[int]()

    def __call__(self, path: str, body: object) -> Answer:
        status = self.statuses.pop(0) if len(self.statuses) > 1 else self.statuses[0]
        self.seen.append(status)
        return Answer.json(OK if status == 200 else {"error": {"message": "busy"}}, status,
                           **({"retry_after": "0"} if status == 429 else {}))


@pytest.fixture
def server() -> Iterator[Loopback]:
    with Loopback(Script(200)) as loopback:
        yield loopback


def live(server: Loopback, monkeypatch: pytest.MonkeyPatch, tmp: Path,
         record: str = "none") -> tuple[Backends, Provider, list[float]]:
    monkeypatch.setenv("SCRIPTED_KEY", "k-test-scripted")
    provider = Provider("scripted", "openai_chat", f"{server.url}/v1", "SCRIPTED_KEY",
                        "m", "openai", builtin=False)
    slept: list[float] = []
    backends = Backends(choice="live", record_mode=record, cassette_root=tmp,
                        providers=[provider], sleep=slept.append)
    return backends, provider, slept


def test_live_retries_429_then_answers(server: Loopback, tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    server.answer = script = Script(429, 503, 200)
    backends, provider, slept = live(server, monkeypatch, tmp_path)
    result = run_item(Item(load_scenario(SCENARIO), provider, "normalized"), backends)
    backends.close()
    assert script.seen == [429, 503, 200]
    assert slept == [0.0, 2.0]  # Retry-After honoured, then exponential backoff
    assert result.verdict.kind == "accept" and result.source["attempts"] == 3


def test_live_gives_up_after_bounded_attempts(server: Loopback, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    server.answer = script = Script(503)
    backends, provider, slept = live(server, monkeypatch, tmp_path)
    result = run_item(Item(load_scenario(SCENARIO), provider, "normalized"), backends)
    backends.close()
    assert len(script.seen) == 4 and slept == [1.0, 2.0, 4.0]
    assert result.verdict.kind == "inconclusive" and result.problem.startswith("inconclusive")


def test_recording_keeps_only_the_last_attempt(server: Loopback, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    server.answer = Script(429, 200)
    backends, provider, _ = live(server, monkeypatch, tmp_path, record="all")
    item = Item(load_scenario(SCENARIO), provider, "normalized")
    run_item(item, backends)
    backends.close()
    data = fast_yaml.load(item.cassette(tmp_path).read_text())
    assert [i["response"]["status"]["code"] for i in data["interactions"]] == [200]


def test_cassette_mismatch_names_the_field_and_how_to_rerecord(tmp_path: Path) -> None:
    scenario = load_scenario(SCENARIO)
    provider = Provider("openai", "openai_chat", "https://api.openai.com/v1", "OPENAI_API_KEY",
                        "gpt-4.1-mini", "openai")
    recorder = Backends(choice="emulator", record_mode="all", cassette_root=tmp_path,
                        providers=[provider])
    run_item(Item(scenario, provider, "raw"), recorder)
    recorder.close()
    changed = SCENARIO.read_text().replace("Weather in Paris and Rome?", "Weather in Oslo?")
    path = tmp_path / "pairing" / "partial-parallel-results.yaml"
    path.parent.mkdir(parents=True)
    path.write_text(changed)
    replay = Backends(choice="cassette", cassette_root=tmp_path, providers=[provider])
    result = run_item(Item(load_scenario(path), provider, "raw"), replay)
    replay.close()
    assert result.verdict.kind == "inconclusive"
    assert "cassette-mismatch" in result.verdict.reason
    assert "body.messages[0].content: request has \"Weather in Oslo?\"" in result.verdict.reason
    assert "Re-record with: conformance record --provider openai" in result.verdict.reason
