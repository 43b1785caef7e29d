"""`conformance normalize`: repaired body and report as JSON; exit 2 with a clear message on
input it cannot read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance.cli.main import main
from normalizer import DEFAULT_MODEL, check

WEDGED = {"model": "gpt-4o", "max_tokens": 100, "messages": [
    {"role": "user", "content": "weather?"},
    {"role": "assistant", "content": None, "tool_calls": [
        {"id": "call_1", "type": "function",
         "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}}]},
    {"role": "assistant", "content": "Let me check that..."},
    {"role": "tool", "tool_call_id": "call_1", "content": "18C"},
]}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["normalize", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_repairs_for_another_provider(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "body.json"
    path.write_text(json.dumps(WEDGED), encoding="utf-8")
    code, out, _ = run(capsys, str(path), "--from", "openai_chat", "--to", "anthropic")
    assert code == 0
    report = json.loads(out)
    assert check(report["body"], "anthropic") == ()
    assert [c["code"] for c in report["changes"]] == ["replace-model", "move-tool-result",
                                                      "declare-missing-tool"]
    assert report["body"]["messages"][-1]["content"] == "Let me check that..."
    assert report["body"]["max_tokens"] == 100  # an option with a counterpart is carried
    assert report["body"]["model"] == DEFAULT_MODEL["anthropic"]  # gpt-4o means nothing there


def test_prints_the_property_name_map(tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    tools = [{"type": "function", "function": {
        "name": "list_apps", "description": "d",
        "parameters": {"type": "object", "properties": {"filter[name]": {"type": "string"}}}}}]
    path = tmp_path / "body.json"
    path.write_text(json.dumps({"model": "gpt-4o", "tools": tools, "messages": [
        {"role": "user", "content": "Apps named Notes?"}]}), encoding="utf-8")
    code, out, _ = run(capsys, str(path), "--from", "openai_chat", "--to", "anthropic")
    report = json.loads(out)
    assert code == 0 and report["key_map"] == {"list_apps": {"filter_name_": "filter[name]"}}
    assert list(report["body"]["tools"][0]["input_schema"]["properties"]) == ["filter_name_"]


def test_keeps_the_bodys_model_tools_and_options(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    tools = [{"type": "function", "function": {"name": "get_weather", "description": "d",
                                               "parameters": {"type": "object"}}}]
    path = tmp_path / "body.json"
    path.write_text(json.dumps({**WEDGED, "tools": tools, "tool_choice": "required"}),
                    encoding="utf-8")
    code, out, _ = run(capsys, str(path), "--from", "openai_chat", "--to", "mistral")
    body = json.loads(out)["body"]
    assert code == 0 and body["model"] == "gpt-4o" and body["tools"] == tools
    assert body["tool_choice"] == "required"
    code, out, _ = run(capsys, str(path), "--from", "openai_chat", "--to", "anthropic")
    body = json.loads(out)["body"]
    assert body["tools"][0]["description"] == "d" and body["tool_choice"] == {"type": "any"}


def test_same_protocol_keeps_request_options(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "body.json"
    path.write_text(json.dumps(WEDGED), encoding="utf-8")
    code, out, _ = run(capsys, str(path), "--from", "openai_chat", "--to", "openai",
                       "--unanswered-calls", "drop", "--budget", "3")
    report = json.loads(out)
    assert code == 0 and report["body"]["max_tokens"] == 100
    assert check(report["body"], "openai") == ()


@pytest.mark.parametrize(("content", "argv", "says"), [
    (None, ("--from", "openai_chat"), "cannot read"),
    ("{not json", ("--from", "openai_chat"), "not valid JSON"),
    (json.dumps(WEDGED), (), "--from"),
    (json.dumps({"messages": 3}), ("--from", "openai_chat"), "messages"),
    (json.dumps(WEDGED), ("--from", "openai_chat", "--budget", "0"), "at least 1"),
])
def test_unreadable_input_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                  content: str | None, argv: tuple[str, ...], says: str) -> None:
    path = tmp_path / "body.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    code, out, err = run(capsys, str(path), "--to", "openai", *argv)
    assert code == 2 and out == ""
    assert err.startswith("conformance normalize: ") and says in err


def test_unknown_provider_lists_the_known_ones(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "body.json"
    path.write_text(json.dumps(WEDGED), encoding="utf-8")
    code, _, err = run(capsys, str(path), "--from", "openai_chat", "--to", "opneai")
    assert code == 2 and "unknown provider 'opneai'" in err and "openai" in err


def test_reads_a_scenario(capsys: pytest.CaptureFixture[str]) -> None:
    scenario = Path(__file__).parent.parent / "scenarios" / "valid" / \
        "parallel-calls-all-answered.yaml"
    if not scenario.exists():
        pytest.skip("scenario not written yet")
    code, out, _ = run(capsys, str(scenario), "--to", "gemini")
    assert code == 0 and check(json.loads(out)["body"], "gemini") == ()


def test_broken_scenario_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("title: x\nhistory: 3\n", encoding="utf-8")
    code, _, err = run(capsys, str(path), "--to", "openai")
    assert code == 2 and "bad.yaml" in err


def test_says_what_it_could_not_repair(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    # A profile whose reasoning-content-required names no placeholder has no repair for it
    # (fill_reasoning_content sends only a value the profile says the vendor takes for
    # none), so the repaired body is still refused: the report and stderr say so.
    profile = tmp_path / "kimi-without-placeholder.yaml"
    profile.write_text(
        "provider: kimi-without-placeholder\nprotocol: openai_chat\nmodel: kimi-k2.5\n"
        "rules:\n  - id: reasoning-content-required\n    forbids: no reasoning\n"
        "    status: 400\n    message: \"thinking is enabled but reasoning_content is missing "
        "in assistant tool call message at index {index}\"\n"
        "    source: continuedev/continue#11600\n"
        "    last_verified: 2026-11-29\n    confidence: high\n"
        "    params: {default_on_model: '^kimi-k2', field: reasoning_content}\n",
        encoding="utf-8")
    kimi = {"model": "kimi-k2.5", "thinking": {"type": "enabled"}, "messages": [
        WEDGED["messages"][0], WEDGED["messages"][1],
        {"role": "tool", "tool_call_id": "call_1", "content": "18C"}]}
    path = tmp_path / "body.json"
    path.write_text(json.dumps(kimi), encoding="utf-8")
    code, out, err = run(capsys, str(path), "--from", "openai_chat", "--to", str(profile))
    assert code == 0
    (left,) = json.loads(out)["unrepaired"]
    assert (left["rule"], left["location"]) == ("reasoning-content-required", "messages[1]")
    assert err == ("conformance normalize: not repaired: reasoning-content-required at "
                   "messages[1]: thinking is enabled but reasoning_content is missing in "
                   "assistant tool call message at index 1\n")
    path.write_text(json.dumps(WEDGED), encoding="utf-8")
    code, out, err = run(capsys, str(path), "--from", "openai_chat", "--to", "anthropic")
    assert (code, json.loads(out)["unrepaired"], err) == (0, [], "")
