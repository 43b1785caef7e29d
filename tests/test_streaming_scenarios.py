"""Streaming scenarios: the `stream` field is loaded with located errors, replayed by the
emulator over loopback HTTP, read by the unmodified official SDK's streaming iterator and
assembled into exactly what the assembler gives for the same events."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
import yaml

from conformance.backends import Backends
from conformance.batch import plan
from conformance.bodies import build
from conformance.emulator import Replay, serve
from conformance.emulator.replay import encode_recorded
from conformance.errors import StreamReplayError
from conformance.item import run_item
from conformance.providers import select
from conformance.scenarios import replay as stream_replay
from conformance.scenarios.load import ScenarioError, load_scenario
from normalizer.check import check
from normalizer.model import History, Message, Text, ToolCall, ToolResult, ToolSpec
from normalizer.normalize import normalize
from normalizer.streaming import assemble, emit
from normalizer.wire import render

PROTOCOLS = ("openai_chat", "openai_responses", "anthropic", "gemini")
CALLS = Message("assistant", (Text("Checking both."),
                              ToolCall("get_weather", {"city": "Paris"}, "call_p1"),
                              ToolCall("get_weather", {"city": "Rome"}, "call_r2")))
TOOLS = [{"name": "get_weather", "description": "Weather for a city.",
          "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}}}]


def _pieces(s: str) -> list[str]:
    return [s[i:i + 4] for i in range(0, len(s), 4)]


def _events(protocol: str) -> list[Mapping[str, Any]]:
    return emit(CALLS, protocol, split=_pieces)


def _write(tmp_path: Path, stream: Mapping[str, Any], **extra: Any) -> Path:
    doc = {"title": "streamed turn", "refs": ["test"], "tools": TOOLS,
           "history": [{"role": "user", "content": "Weather in Paris and Rome?"}],
           "stream": dict(stream), **extra}
    path = tmp_path / "streaming" / "case.yaml"
    path.parent.mkdir(exist_ok=True)
    # JSON is YAML; safe_dump would write anchors for the events' shared objects
    path.write_text(json.dumps(doc, indent=1, ensure_ascii=False), encoding="utf-8")
    return path


def _problems(path: Path) -> list[str]:
    with pytest.raises(ScenarioError) as caught:
        load_scenario(path, root=path.parent.parent)
    return caught.value.lines()


def test_loader_accepts_a_stream(tmp_path: Path) -> None:
    events = _events("anthropic")
    path = _write(tmp_path, {"protocol": "anthropic", "events": events,
                             "then": [{"role": "user", "content": "go on"}]})
    scenario = load_scenario(path)
    assert scenario.stream is not None
    assert scenario.stream.protocol == "anthropic"
    assert scenario.stream.origin == "anthropic"  # the protocol's own provider by default
    assert [e.thaw() for e in scenario.stream.events] == events
    assert scenario.stream.then == History((Message("user", (Text("go on"),)),))


@pytest.mark.parametrize(("stream", "extra", "wanted"), [
    ({"protocol": "anthropic", "event": [{"type": "ping"}]}, {},
     "stream.event: unknown key 'event'; did you mean 'events'?"),
    ({"protocol": "antropic", "events": [{"type": "ping"}]}, {},
     "did you mean 'anthropic'?"),
    ({"protocol": "anthropic", "events": []}, {}, "stream.events: List should have at least 1"),
    ({"protocol": "gemini", "events": [{"candidates": []}], "origin": "gemni"}, {},
     "stream.origin: unknown provider 'gemni'; did you mean 'gemini'?"),
])
def test_loader_refuses_a_bad_stream(tmp_path: Path, stream: dict[str, Any],
                                     extra: dict[str, Any], wanted: str) -> None:
    lines = _problems(_write(tmp_path, stream, **extra))
    assert any(wanted in line for line in lines), lines
    assert all(line.startswith("streaming/case.yaml:") for line in lines)


def test_an_event_the_protocol_does_not_send_is_refused_where_it_is(tmp_path: Path) -> None:
    events = [*_events("anthropic")[:2], {"type": "content_block_delta_typo", "index": 0}]
    path = _write(tmp_path, {"protocol": "anthropic", "events": events})
    lines = _problems(path)
    typo = next(n for n, text in enumerate(path.read_text().splitlines(), start=1)
                if "content_block_delta_typo" in text)
    line_of = typo - 1  # the event's own `{` line (the file is indented JSON)
    assert any(line.startswith(f"streaming/case.yaml:{line_of}:") and "stream.events[2]" in line
               and "unknown-event" in line for line in lines), lines


def test_a_stream_after_a_wire_body_is_refused_with_its_reason(tmp_path: Path) -> None:
    doc = {"title": "t", "refs": ["r"],
           "wire": {"protocol": "anthropic", "body": {"messages": []}},
           "stream": {"protocol": "gemini", "events": [{"candidates": []}]}}
    path = tmp_path / "s.yaml"
    path.write_text(yaml.safe_dump(doc), encoding="utf-8")
    with pytest.raises(ScenarioError) as caught:
        load_scenario(path)
    assert "a stream follows a history: give history, not wire" in str(caught.value)


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_replay_through_the_sdk_equals_the_assembler(tmp_path: Path, protocol: str) -> None:
    events = _events(protocol)
    scenario = load_scenario(_write(tmp_path, {"protocol": protocol, "events": events}))
    assert scenario.stream is not None
    replayed = stream_replay.replay(scenario.history, scenario.tools, scenario.stream)
    expected = assemble(events, protocol, origin=scenario.stream.origin,
                        **stream_replay._id_options(protocol, scenario.history))
    assert replayed.sdk_error == ""
    assert replayed.events_seen == len(events)
    assert replayed.result == expected
    assert [(c.name, c.arguments, c.id) for c in replayed.result.tool_calls] == [
        (c.name, c.arguments, c.id) for c in CALLS.tool_calls]


def _post(url: str, body: dict[str, object]) -> tuple[int, str, bytes]:
    """POST JSON with the standard library (no undeclared HTTP client): status, type, bytes."""
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, answer.headers.get("content-type", ""), answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("content-type", ""), error.read()


def test_the_replay_is_real_http_on_loopback() -> None:
    events = _events("openai_chat")
    log: list[str] = []
    with serve([], replays={"one": Replay.of("openai_chat", events)}, log=log.append) as emu:
        url = emu.replay_url("one", "openai_chat")
        assert url.startswith("http://127.0.0.1:") and url.endswith("/_replay/one/v1")
        answer = _post(f"{url}/chat/completions", {"model": "m", "messages": []})
        missing = _post(f"{emu.root}/_replay/other/v1/chat/completions", {})
    assert answer[0] == 200
    assert answer[1].startswith("text/event-stream")
    assert answer[2] == encode_recorded(events, "openai_chat")
    assert missing[0] == 404 and "no replay 'other'" in json.loads(missing[2])["error"]["message"]
    assert log[0].startswith("POST /_replay/one/v1/chat/completions -> 200")


def test_a_cut_openai_stream_is_served_without_done_and_stays_cut(tmp_path: Path) -> None:
    events = _events("openai_chat")
    cut = [e for e in events if not e["choices"] or e["choices"][0].get("finish_reason") is None]
    cut = cut[:-2]  # drop the last argument fragments too: mid-arguments
    assert b"[DONE]" not in encode_recorded(cut, "openai_chat")
    assert encode_recorded(events, "openai_chat").endswith(b"data: [DONE]\n\n")
    scenario = load_scenario(_write(tmp_path, {"protocol": "openai_chat", "events": cut}))
    assert scenario.stream is not None
    replayed = stream_replay.replay(scenario.history, scenario.tools, scenario.stream)
    assert not replayed.result.complete
    assert replayed.result.incomplete_calls
    assert replayed.result == assemble(cut, "openai_chat", origin="openai", id_seed="1")


def test_resolve_appends_the_turn_then_the_following_messages_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    events = _events("anthropic")
    _write(tmp_path, {"protocol": "anthropic", "events": events,
                      "then": [{"role": "user", "content": "and Oslo?"}]})
    calls: list[int] = []
    real = stream_replay.replay

    def counted(*args: Any) -> Any:
        calls.append(1)
        return real(*args)

    monkeypatch.setattr(stream_replay, "replay", counted)
    work = plan(tmp_path, select(["openai", "anthropic", "gemini"], {}))
    scenario = work.items[0].scenario
    turn = assemble(events, "anthropic", origin="anthropic").message
    want = History((*scenario.history.messages, turn, Message("user", (Text("and Oslo?"),))))
    assert scenario.replayed == want
    assert stream_replay.resolve(scenario) is scenario  # resolved once, never again
    for item in work.items:
        build(item.scenario, item.provider, item.mode)
    assert calls == [1]  # one replay per scenario, when planned; none per body


def test_building_a_body_starts_no_server(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    path = _write(tmp_path, {"protocol": "openai_chat", "events": _events("openai_chat")})
    resolved = stream_replay.resolve(load_scenario(path))
    import conformance.emulator as emulator

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("bodies.build started an emulator")

    monkeypatch.setattr(emulator, "serve", refuse)
    monkeypatch.setattr(stream_replay, "replay", refuse)
    openai = select(["openai"], {})[0]
    assert build(resolved, openai, "normalized").body["messages"]
    with pytest.raises(ValueError, match="not resolved"):
        build(load_scenario(path), openai, "raw")


def test_a_stream_the_sdk_cannot_read_fails_its_items_not_the_plan(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _write(tmp_path, {"protocol": "openai_chat", "events": _events("openai_chat")})

    def unreadable(*args: Any) -> Any:
        raise StreamReplayError("the SDK read no event of the recorded openai_chat stream")

    monkeypatch.setattr(stream_replay, "replay", unreadable)
    work = plan(tmp_path, select(["openai"], {}), ["raw"])
    result = run_item(work.items[0], Backends(choice="emulator"))
    assert result.verdict.kind == "inconclusive"
    assert "the SDK read no event" in result.verdict.reason


def test_normalize_shows_the_stream_as_the_suite_reads_it() -> None:
    """`conformance normalize` assembles the recorded events without SDK or server; for every
    committed streaming scenario that is the history the suite reads through the SDK."""
    folder = Path(__file__).parent.parent / "scenarios" / "streaming"
    for path in sorted(folder.glob("*.yaml")):
        scenario = load_scenario(path)
        assert stream_replay.offline_history(scenario) == \
            stream_replay.resolve(scenario).replayed, path


def test_a_cut_stream_then_a_user_turn_is_calls_without_results(tmp_path: Path) -> None:
    events = _events("openai_chat")[:-3]  # cut inside the second call's arguments
    path = _write(tmp_path, {"protocol": "openai_chat", "events": events,
                             "then": [{"role": "user", "content": "still there?"}]})
    scenario = load_scenario(path)
    openai = select(["openai"], {})[0]
    scenario = stream_replay.resolve(scenario)
    raw = build(scenario, openai, "raw")
    fixed = build(scenario, openai, "normalized")
    assert [v.rule for v in check(raw.body, "openai")][:1] == ["missing-tool-result"]
    assert tuple(check(fixed.body, "openai")) == ()
    assert "insert-missing-tool-result" in {c.code for c in fixed.changes}
    assert json.dumps(raw.body).count('"call_') >= 2


def test_the_committed_streaming_scenarios_load() -> None:
    folder = Path(__file__).parent.parent / "scenarios" / "streaming"
    loaded = [load_scenario(p) for p in sorted(folder.glob("*.yaml"))]
    assert len(loaded) >= 6
    assert {s.stream.protocol for s in loaded if s.stream} == set(PROTOCOLS)


CUT = History((
    Message("user", (Text("Weather in Rome and Paris?"),)),
    Message("assistant", (ToolCall("get_weather", '{"city": "Rome"}', "call_r1"),
                          ToolCall("get_weather", '{"city": "Pa', "call_p2",
                                   {"incomplete": True, "raw_arguments": '{"city": "Pa'}))),
    Message("tool", (ToolResult("call_r1", "21C"), ToolResult("call_p2", "interrupted"))),
    Message("user", (Text("thanks"),)),
))


@pytest.mark.parametrize("provider", ["anthropic", "gemini"])
def test_string_arguments_become_objects_where_the_wire_needs_one(provider: str) -> None:
    specs = tuple(ToolSpec(t["name"], t["description"], t["input_schema"]) for t in TOOLS)
    raw = render(CUT, provider, tools=specs)  # the provider's protocol has its name here
    assert [v.rule for v in check(raw, provider)][:1] == ["tool-arguments-not-object"]
    fixed = normalize(CUT, provider, tools=specs)
    calls = fixed.history.messages[1].tool_calls
    assert [c.arguments for c in calls] == [{"city": "Rome"}, {}]
    mine = [c for c in fixed.changes if c.pass_name == "parse_string_arguments"]
    assert [(c.code, c.lossless, c.where) for c in mine] == [
        ("parse-string-arguments", True, "messages[1].parts[0]"),
        ("replace-invalid-arguments", False, "messages[1].parts[1]")]
    assert '{"city": "Pa' in mine[1].what  # the lost text is in the report
    assert tuple(check(fixed.render(), provider)) == ()
    again = normalize(fixed.history, provider, tools=fixed.tools)
    assert not [c for c in again.changes if c.pass_name == "parse_string_arguments"]


def test_string_arguments_stay_text_where_the_wire_is_text() -> None:
    fixed = normalize(CUT, "openai")
    assert [c.arguments for c in fixed.history.messages[1].tool_calls] == [
        '{"city": "Rome"}', '{"city": "Pa']
    assert not [c for c in fixed.changes if c.pass_name == "parse_string_arguments"]


def test_conformance_normalize_reads_a_streaming_scenario_offline(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    import conformance.emulator as emulator
    from conformance.cli.main import main

    monkeypatch.setattr(emulator, "serve", None)  # calling it would fail the test

    events = _events("anthropic")[:-4]  # cut before the second call's block_stop
    path = _write(tmp_path, {"protocol": "anthropic", "events": events,
                             "then": [{"role": "user", "content": "still there?"}]})
    assert main(["normalize", str(path), "--to", "openai"]) == 0
    report = json.loads(capsys.readouterr().out)
    messages = report["body"]["messages"]
    assert [m["role"] for m in messages] == ["user", "assistant", "tool", "tool", "user"]
    assert [c["id"] for c in messages[1]["tool_calls"]] == ["call_p1", "call_r2"]
    assert "insert-missing-tool-result" in {c["code"] for c in report["changes"]}
