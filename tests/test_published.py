"""The published matrix is checked by the scenario run itself: when a run's scenario items
are exactly the published ones, stale pages fail the run; a partial run proves nothing and
is left alone. The corpus side (which items are published) is a cheap test of its own."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from conformance.bodies import MODES
from conformance.pytest_plugin.published import published_ids
from conformance.scenarios.load import find_scenarios, load_scenario
from normalizer import PROVIDERS

pytest_plugins = ["pytester"]
REPO = Path(__file__).resolve().parent.parent
SCENARIO = "pairing/orphan-tool-result"
PUBLISHED = REPO / "docs" / "generated"


def test_the_published_items_are_the_corpus() -> None:
    scenarios = [load_scenario(p, root=REPO) for p in find_scenarios(REPO / "scenarios")]
    wanted = {f"{s.path}::{p}[{m}]" for s in scenarios if not s.draft
              for p in PROVIDERS for m in MODES}
    assert published_ids(PUBLISHED) == wanted, (
        "docs/generated/strictness.json does not list the corpus: run `conformance report`")


@pytest.fixture
def project(pytester: pytest.Pytester, suite_loaded: None) -> pytest.Pytester:
    target = pytester.path / "scenarios" / f"{SCENARIO}.yaml"
    target.parent.mkdir(parents=True)
    shutil.copy(REPO / "scenarios" / f"{SCENARIO}.yaml", target)
    for mode in MODES:
        cassette = Path("cassettes", "openai", f"{SCENARIO}.{mode}.yaml")
        (pytester.path / cassette).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(REPO / cassette, pytester.path / cassette)
    return pytester


def _run(project: pytest.Pytester, *args: str) -> pytest.RunResult:
    return project.runpytest_inprocess(  # the suite stays loaded (conftest.suite_loaded)
        "-p", "no:cacheprovider", "--conformance-provider", "openai",
        "--conformance-backend", "cassette", *args)


def test_stale_pages_fail_a_whole_run_and_a_partial_run_is_left_alone(
        project: pytest.Pytester) -> None:
    project.makeini("[pytest]\nconformance_scenarios = scenarios\n")
    _run(project, "--conformance-report", "pub").assert_outcomes(passed=2)
    project.makeini("[pytest]\nconformance_scenarios = scenarios\n"
                    "conformance_published = pub\n")
    assert _run(project).ret == 0

    page = project.path / "pub" / "strictness.json"
    data = json.loads(page.read_text(encoding="utf-8"))
    data["results"][0]["message"] = "an old vendor text"
    page.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    stale = _run(project)
    assert stale.ret == pytest.ExitCode.TESTS_FAILED
    stale.stdout.fnmatch_lines(["*published matrix in pub is stale (strictness.json)*"])

    assert _run(project, "-k", "raw").ret == 0  # one item of two: nothing to compare
