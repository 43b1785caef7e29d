"""Backends: live retries with backoff (bounded, never a verdict), one interaction per
recorded cassette, a cassette mismatch that names the field and the re-record command, and
live items skipped when their key is not set. All on loopback."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
import yaml

from conformance.backends import Backends
from conformance.item import Item, run_item
from conformance.providers import Provider
from conformance.scenarios.load import load_scenario

SCENARIO = Path(__file__).parent / "data" / "scenario_files" / "pairing" / \
    "partial-parallel-results.yaml"
OK = {"id": "c", "object": "chat.completion", "created": 0, "model": "m",
      "choices": [{"index": 0, "finish_reason": "stop",
                   "message": {"role": "assistant", "content": "ok"}}]}


class Scripted(BaseHTTPRequestHandler):
    """Answers each POST with the next status of the server's script (the last repeats)."""

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("content-length", 0)))
        script: list[int] = self.server.script  # type: ignore[attr-defined]
        status = script.pop(0) if len(script) > 1 else script[0]
        self.server.seen.append(status)  # type: ignore[attr-defined]
        body = json.dumps(OK if status == 200 else {"error": {"message": "busy"}}).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        if status == 429:
            self.send_header("retry-after", "0")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def server() -> Iterator[ThreadingHTTPServer]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Scripted)
    httpd.script, httpd.seen = [200], []  # type: ignore[attr-defined]
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd
    httpd.shutdown()
    httpd.server_close()


def live(server: ThreadingHTTPServer, monkeypatch: pytest.MonkeyPatch, tmp: Path,
         record: str = "none") -> tuple[Backends, Provider, list[float]]:
    monkeypatch.setenv("SCRIPTED_KEY", "k-test-scripted")
    host, port = server.server_address[:2]
    provider = Provider("scripted", "openai_chat", f"http://{host}:{port}/v1", "SCRIPTED_KEY",
                        "m", "openai", builtin=False)
    slept: list[float] = []
    backends = Backends(choice="live", record_mode=record, cassette_root=tmp,
                        providers=[provider], sleep=slept.append)
    return backends, provider, slept


def test_live_retries_429_then_answers(server: ThreadingHTTPServer, tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    server.script = [429, 503, 200]  # type: ignore[attr-defined]
    backends, provider, slept = live(server, monkeypatch, tmp_path)
    result = run_item(Item(load_scenario(SCENARIO), provider, "normalized"), backends)
    backends.close()
    assert server.seen == [429, 503, 200]  # type: ignore[attr-defined]
    assert slept == [0.0, 2.0]  # Retry-After honoured, then exponential backoff
    assert result.verdict.kind == "accept" and result.source["attempts"] == 3


def test_live_gives_up_after_bounded_attempts(server: ThreadingHTTPServer, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    server.script = [503]  # type: ignore[attr-defined]
    backends, provider, slept = live(server, monkeypatch, tmp_path)
    result = run_item(Item(load_scenario(SCENARIO), provider, "normalized"), backends)
    backends.close()
    assert len(server.seen) == 4 and slept == [1.0, 2.0, 4.0]  # type: ignore[attr-defined]
    assert result.verdict.kind == "inconclusive" and result.problem.startswith("inconclusive")


def test_recording_keeps_only_the_last_attempt(server: ThreadingHTTPServer, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    server.script = [429, 200]  # type: ignore[attr-defined]
    backends, provider, _ = live(server, monkeypatch, tmp_path, record="all")
    item = Item(load_scenario(SCENARIO), provider, "normalized")
    run_item(item, backends)
    backends.close()
    data = yaml.safe_load(item.cassette(tmp_path).read_text())
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
