"""The scenario loader: valid files load into the neutral model; every broken file gives
located errors (path:line:col: key.path: problem) and never another kind of exception."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from conformance.scenarios.format import SCHEMA_PATH, schema_text
from conformance.scenarios.load import ScenarioError, load_scenario
from normalizer.model import ToolCall, ToolResult

DATA = Path(__file__).parent / "data" / "scenario_files"
GOOD = DATA / "pairing" / "partial-parallel-results.yaml"
LOCATED = re.compile(r"^[^:]+:\d+:\d+: [^:]+: .+")


def broken(tmp_path: Path, text: str, name: str = "x.yaml") -> ScenarioError:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ScenarioError) as info:
        load_scenario(path, root=tmp_path)
    for line in info.value.lines():
        assert LOCATED.match(line), line
    return info.value


def test_valid_scenario_loads() -> None:
    s = load_scenario(GOOD, root=DATA)
    assert (s.topic, s.fault, s.path) == ("pairing", "partial-parallel-results",
                                          "pairing/partial-parallel-results.yaml")
    assert [m.role for m in s.history] == ["user", "assistant", "tool", "user"]
    assert s.history.messages[1].origin == "gemini"
    assert s.history.messages[1].parts[1] == ToolCall("get_weather", {"city": "Rome"}, "call_2")
    assert s.history.messages[2].parts == (ToolResult("call_1", "18C"),)
    assert s.expect_raw["openai"] == "reject"
    assert s.expect_changes["openai"] == ("insert-missing-tool-result",)
    assert s.tools[0].input_schema["required"] == ("city",)


def test_unknown_key_suggests_the_right_one(tmp_path: Path) -> None:
    err = broken(tmp_path, "title: t\nrefs: [x]\nhistory:\n  - {role: user, content: hi}\n"
                           "  - role: tool\n    tool_call_id: c1\n    content: r\n")
    assert err.lines()[0] == ("x.yaml:6:5: history[1].tool_call_id: unknown key "
                              "'tool_call_id'; did you mean 'call_id'?")


def test_all_problems_at_once(tmp_path: Path) -> None:
    err = broken(tmp_path, "title: t\nrefs: [x]\nhistory:\n  - {role: usr, content: hi}\n"
                           "expect:\n  raw: {opneai: reject, anthropic: maybe}\n")
    text = str(err)
    assert "history[0].role" in text and "did you mean 'user'" in text
    assert "unknown provider 'opneai'; did you mean 'openai'?" in text
    assert "expect.raw.anthropic: Input should be 'accept' or 'reject'" in text


@pytest.mark.parametrize(("snippet", "word"), [
    ("base: &a {x: 1}\nother: *a\n", "anchor &a refused"),
    ("about: !!str hello\n", "tag tag:yaml.org,2002:str refused"),
])
def test_anchors_aliases_tags_refused(tmp_path: Path, snippet: str, word: str) -> None:
    err = broken(tmp_path, "title: t\nrefs: [x]\nhistory: []\n" + snippet)
    assert word in str(err)


def test_yaml_syntax_error_is_located(tmp_path: Path) -> None:
    err = broken(tmp_path, "title: t\nrefs: [x\nhistory: []\n")
    assert err.problems[0].line >= 2 and "not valid YAML" in err.problems[0].message


def test_history_or_wire_required(tmp_path: Path) -> None:
    assert "exactly one of history or wire" in str(broken(tmp_path, "title: t\nrefs: [x]\n"))


def test_title_limit_and_refs_required(tmp_path: Path) -> None:
    err = broken(tmp_path, f"title: {'x' * 71}\nhistory: []\n")
    assert "title" in str(err) and "refs" in str(err)


def test_empty_file(tmp_path: Path) -> None:
    assert "empty" in str(broken(tmp_path, ""))


def test_schema_is_fresh() -> None:
    assert SCHEMA_PATH.read_text(encoding="utf-8") == schema_text(), (
        "conformance/scenarios/scenario.schema.json is stale: "
        "run python -m conformance.scenarios.format")


MUTATIONS = [
    lambda t, r: t.replace("role: assistant", "role: assistent", 1),
    lambda t, r: t.replace("call_id:", "tool_call_id:", 1),
    lambda t, r: t.replace("title:", "titel:", 1),
    lambda t, r: t.replace("reject", "rejected", 1),
    lambda t, r: t.replace("{", "", 1),
    lambda t, r: t.replace("]", "", 1),
    lambda t, r: t.replace("refs:", "refs: &r", 1),
    lambda t, r: t.replace("\n  - role", "\n\t- role", 1),
    lambda t, r: t.replace("arguments: {city: Paris}", "arguments: 7", 1),
    lambda t, r: t.replace("tools:", "tools: 3\nx:", 1),
    lambda t, r: t.replace("openai:", f"op{r.choice('xyz')}enai:", 1),
    lambda t, r: t.replace("name: get_weather", "nam: get_weather", 1),
    lambda t, r: t[: r.randrange(len(t) // 3, len(t) // 2)] + ": : :\n",
]


@pytest.mark.parametrize("seed", range(50))
def test_fuzzed_broken_files_give_located_errors(tmp_path: Path, seed: int) -> None:
    rnd = random.Random(seed)
    text = GOOD.read_text(encoding="utf-8")
    for mutate in rnd.sample(MUTATIONS, k=rnd.randint(1, 3)):
        text = mutate(text, rnd)
    err = broken(tmp_path, text, name=f"fuzz-{seed}.yaml")
    assert err.problems


@pytest.mark.parametrize(("gap", "said"), [
    ("gemnii[raw]: SDK refuses it", "'gemnii[raw]' names no provider and mode; did you mean "
                                    "'gemini'?"),
    ("openai[rwa]: typo in the mode", "'openai[rwa]' names no provider and mode"),
    ("no provider part at all", "'no provider part at all' names no provider and mode"),
])
def test_a_known_gap_naming_no_provider_is_a_located_error(tmp_path: Path, gap: str,
                                                           said: str) -> None:
    text = GOOD.read_text(encoding="utf-8") + f"known_gaps: [{gap!r}]\n"
    error = broken(tmp_path, text)
    assert any(said in line and ": known_gaps[0]: " in line for line in error.lines()), \
        error.lines()


def test_known_gaps_with_a_provider_and_mode_load(tmp_path: Path) -> None:
    path = tmp_path / "ok.yaml"
    path.write_text(GOOD.read_text(encoding="utf-8")
                    + "known_gaps: ['gemini[raw]: a reason', 'openai: another: with colon']\n",
                    encoding="utf-8")
    assert len(load_scenario(path).known_gaps) == 2
