"""The scenario corpus and its cassettes: every scenario loads, titles are unique, every
non-draft scenario has a cassette per built-in provider × mode, and no cassette is orphaned.
Whether the published matrix is current is checked by the scenario run itself (the
`conformance_published` ini option; tests/test_published.py)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from conformance.bodies import MODES
from conformance.cassettes import cassette_path
from conformance.scenarios.load import Scenario, find_scenarios, load_scenario
from normalizer import PROVIDERS

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "scenarios"
CASSETTES = ROOT / "cassettes"
TOPICS = ("pairing", "ordering", "window", "switch", "ids", "names", "thinking", "content",
          "tools", "valid")


def corpus() -> list[Scenario]:
    return [load_scenario(p, root=ROOT) for p in find_scenarios(SCENARIOS)]


def test_every_scenario_loads_with_unique_titles_and_refs() -> None:
    scenarios = corpus()
    assert len(scenarios) >= 80
    titles = Counter(s.title for s in scenarios)
    assert [t for t, n in titles.items() if n > 1] == []
    assert all(s.refs and len(s.title) <= 70 for s in scenarios)
    topics = Counter(s.topic for s in scenarios)
    assert [t for t in TOPICS if topics[t] == 0] == []


def test_every_scenario_expects_a_verdict_from_every_builtin_provider() -> None:
    missing = [(s.path, sorted(set(PROVIDERS) - set(s.expect_raw))) for s in corpus()
               if set(PROVIDERS) - set(s.expect_raw)]
    assert missing == []


def test_cassettes_match_scenarios_one_to_one() -> None:
    wanted = {cassette_path(CASSETTES, p, s.topic, s.fault, m)
              for s in corpus() if not s.draft for p in PROVIDERS for m in MODES}
    present = set(CASSETTES.rglob("*.yaml"))
    assert sorted(str(p.relative_to(ROOT)) for p in wanted - present) == [], "missing"
    assert sorted(str(p.relative_to(ROOT)) for p in present - wanted) == [], "orphaned"
