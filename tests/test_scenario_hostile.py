"""Hostile scenario files (issue 14, reliability): each is refused with located errors
before PyYAML builds anything, and one bad file never stops the others loading."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
import yaml

from conformance.batch import plan
from conformance.providers import BUILTIN_PROVIDERS
from conformance.scenarios.load import ScenarioError, load_scenario
from conformance.scenarios.safe_yaml import MAX_DEPTH

BOMB = Path(__file__).parent / "data" / "hostile" / "billion-laughs.yaml"
DATA = Path(__file__).parent / "data"
GOOD = DATA / "scenario_files" / "pairing" / "partial-parallel-results.yaml"
LOCATED = re.compile(r"^[^:]+:\d+:\d+: [^:]+: .+")
HEAD = "title: t\nrefs: [x]\nhistory: []\n"

HOSTILE = {
    "python-tag": (HEAD + "about: !!python/object/apply:os.system ['true']\n",
                   "tag tag:yaml.org,2002:python/object/apply:os.system refused"),
    "include-tag": (HEAD + "about: !include other.yaml\n", "tag !include refused"),
    "complex-key": (HEAD + "? [a, b]\n: 1\n", "a key must be a plain scalar, not a list"),
    "mapping-key": (HEAD + "{a: 1}: 2\n", "a key must be a plain scalar, not a mapping"),
    "duplicate-key": (HEAD + "title: again\n", "duplicate key 'title' (first on line 1)"),
    "duplicate-inline": (HEAD + "about: {a: 1, a: 2}\n", "duplicate key 'a'"),
    "deep-flow": (HEAD + "about: " + "[" * 5000 + "]" * 5000 + "\n",
                  f"nested deeper than {MAX_DEPTH} levels"),
    "deep-block": (HEAD + "".join("  " * i + f"k{i}:\n" for i in range(150)) + "  " * 150 + "v\n",
                   f"nested deeper than {MAX_DEPTH} levels"),
    "two-documents": (HEAD + "---\n" + HEAD, "not valid YAML"),
    "not-utf8": ("", "cannot read the file"),
}


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / f"{name}.yaml"
    if name == "not-utf8":
        path.write_bytes(b"title: \xff\xfe\n")
    else:
        path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_file_gives_a_located_error(tmp_path: Path, name: str) -> None:
    text, word = HOSTILE[name]
    with pytest.raises(ScenarioError) as info:
        load_scenario(_write(tmp_path, name, text), root=tmp_path)
    assert any(word in line for line in info.value.lines()), info.value.lines()
    for line in info.value.lines():
        assert LOCATED.match(line), line


def test_anchor_bomb_is_refused_before_any_node_is_built(monkeypatch: pytest.MonkeyPatch) -> None:
    # Counting, not timing: the composer (where aliases would start to cost) never runs.
    composed: list[object] = []
    real = yaml.composer.Composer.compose_node

    def counting(self: yaml.composer.Composer, *args: object) -> yaml.Node:
        composed.append(args)
        return real(self, *args)

    monkeypatch.setattr(yaml.composer.Composer, "compose_node", counting)
    with pytest.raises(ScenarioError) as info:
        load_scenario(BOMB, root=BOMB.parent)
    assert composed == []
    assert info.value.lines()[0].startswith("billion-laughs.yaml:4:4: (top): anchor &a refused")
    assert "alias *a refused" in info.value.lines()[2]
    assert info.value.lines()[-1].endswith("too many problems; stopped here")


def test_one_bad_file_never_stops_the_others(tmp_path: Path) -> None:
    folder = tmp_path / "scenarios" / "pairing"
    folder.mkdir(parents=True)
    (folder / "good.yaml").write_text(GOOD.read_text(encoding="utf-8"), encoding="utf-8")
    for name, (text, _) in HOSTILE.items():
        _write(folder, name, text)
    (folder / "bomb.yaml").write_text(BOMB.read_text(encoding="utf-8"), encoding="utf-8")
    err = io.StringIO()
    work = plan(tmp_path, [BUILTIN_PROVIDERS["openai"]], ["raw"], err=err)
    assert [s.fault for s in work.scenarios] == ["good"]
    assert len(work.broken) == len(HOSTILE) + 1
    assert "Traceback" not in err.getvalue()
