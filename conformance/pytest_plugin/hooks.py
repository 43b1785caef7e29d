"""pytest plugin (registered through the pytest11 entry point `conformance`).

Opt-in per project: it collects scenario files only from the folders the project names in
its pytest ini, paths relative to the rootdir::

    [tool.pytest.ini_options]
    conformance_scenarios = ["scenarios"]

Each `*.yaml` there becomes one item per provider × mode, with ids like
`scenarios/pairing/orphan-tool-result.yaml::anthropic[raw]`, so `-k` selects them.

Without the ini option it collects nothing, patches nothing and adds only its prefixed
options (`--conformance-backend`, …, built from `conformance.options`). The network guard
is on only while a scenario item runs (collect.py). This module imports only pytest, the
standard library and two stdlib-only siblings; the suite (SDKs, vcrpy, the normalizer) is
imported when a scenario file is collected. Each item's result rides on `user_properties`,
so the report is whole under pytest-xdist.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from conformance.options import PYTEST_PREFIX, RUN_OPTIONS, plugin_flag
from conformance.pytest_plugin.state import (
    BACKENDS,
    COLLECTED,
    PROPERTY,
    PUBLISHED_INI,
    RESULTS,
    SCENARIO_DIRS,
    WARMUP,
)

INI = "conformance_scenarios"
SUFFIXES = frozenset({".yaml", ".yml"})


def pytest_addoption(parser: pytest.Parser) -> None:
    """Add the ini options (scenario folders, published folder) and the prefixed run options."""
    parser.addini(INI, type="linelist", default=[],
                  help="folders (relative to the rootdir) holding provider-conformance "
                       "scenarios; without it the conformance plugin does nothing")
    parser.addini(PUBLISHED_INI, default="",
                  help="folder holding the published strictness.{md,json,html}: a run whose "
                       "scenario items are exactly the published ones fails when they are "
                       "stale")
    group = parser.getgroup("conformance", f"provider-conformance scenarios (where the ini "
                                           f"option {INI} names their folders)")
    for option in RUN_OPTIONS:
        if option.pytest:
            group.addoption(option.flag(PYTEST_PREFIX), **option.kwargs(PYTEST_PREFIX))


def scenario_dirs(config: pytest.Config) -> tuple[Path, ...]:
    """The scenario folders the project names in its ini, resolved against the rootdir."""
    return tuple((config.rootpath / line).resolve() for line in config.getini(INI))


def pytest_configure(config: pytest.Config) -> None:
    """Where the project opted in: remember its scenario folders, register the marker and the
    results sink."""
    dirs = scenario_dirs(config)
    if not dirs:
        return  # not opted in: nothing registered, nothing patched
    config.stash[SCENARIO_DIRS] = dirs
    config.stash[RESULTS] = results = []
    config.addinivalue_line("markers", "conformance: a scenario × provider × mode item")
    config.pluginmanager.register(ResultsSink(results, config), "conformance-results")


def is_scenario_file(file_path: Path, dirs: tuple[Path, ...]) -> bool:
    """Whether `file_path` is a YAML file inside one of the scenario folders."""
    if not dirs or file_path.suffix not in SUFFIXES:
        return False
    resolved = file_path.resolve()
    return any(resolved.is_relative_to(folder) for folder in dirs)


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    """A ScenarioFile for a scenario file (importing the suite then), else None."""
    config = parent.config
    if not is_scenario_file(file_path, config.stash.get(SCENARIO_DIRS, ())):
        return None
    from conformance.pytest_plugin.collect import ScenarioFile

    config.stash[COLLECTED] = True
    return ScenarioFile.from_parent(parent, path=file_path)


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config,
                                  items: list[pytest.Item]) -> None:
    """Ask once before live requests, when scenario files were collected (may exit the session)."""
    if not config.stash.get(COLLECTED, False):
        return  # no scenario file here: nothing to ask
    from conformance.pytest_plugin.collect import confirm_live_items

    confirm_live_items(config, items)


class ResultsSink:
    """Gathers the results carried by the reports (from xdist workers too) into the list
    kept in `config.stash[RESULTS]`. Registered only where the project opted in."""

    def __init__(self, results: list[dict[str, Any]], config: pytest.Config) -> None:
        self.results = results
        self.config = config

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """Keep the result a scenario item put on its call report."""
        if report.when != "call":
            return
        for name, value in report.user_properties:
            if name == PROPERTY:
                if not self.results:
                    _start_warmup(self.config)
                self.results.append(json.loads(value))


def _start_warmup(config: pytest.Config) -> None:
    """Scenario items run here: where a published folder is named, start loading what its
    check needs besides the results (published.Warmup), while the items still run."""
    folder = config.getini(PUBLISHED_INI)
    if folder and not hasattr(config, "workerinput") and WARMUP not in config.stash:
        from conformance.pytest_plugin.published import Warmup

        config.stash[WARMUP] = Warmup(config.rootpath / folder)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Close the backends; then, unless this is an xdist worker, write the report files when
    `--conformance-report` asks, and fail the session when the published matrix is stale."""
    config = session.config
    backends = config.stash.get(BACKENDS, None)
    if backends is not None:
        backends.close()
    results = config.stash.get(RESULTS, [])
    if not results or hasattr(config, "workerinput"):
        return
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    out = config.getoption(plugin_flag("report"))
    if out:
        from conformance.item import Result
        from conformance.publish.matrix import write_reports
        from conformance.publish.recorded import with_requests

        # As `conformance report` writes them: each cell with the request it sent.
        written = write_reports(with_requests([Result.from_json(r) for r in results],
                                              root=config.rootpath), Path(out))
        if reporter is not None:
            reporter.write_line(f"conformance report: {', '.join(str(p) for p in written)}")
    _check_published(session, results, reporter)


def _check_published(session: pytest.Session, results: list[dict[str, Any]],
                     reporter: Any) -> None:
    folder = session.config.getini(PUBLISHED_INI)
    if not folder:
        return
    from conformance.pytest_plugin.published import stale_pages

    root = session.config.rootpath
    stale = stale_pages(results, root / folder, root=root,
                        warmup=session.config.stash.get(WARMUP, None))
    if not stale:
        return
    session.exitstatus = pytest.ExitCode.TESTS_FAILED
    if reporter is not None:
        reporter.write_line(f"conformance: the published matrix in {folder} is stale "
                            f"({', '.join(stale)}): run `conformance report --out {folder}`",
                            red=True, bold=True)
