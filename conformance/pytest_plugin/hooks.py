"""pytest plugin (registered through the pytest11 entry point): every scenario file under a
`scenarios/` folder becomes one item per provider × mode, with ids like
`scenarios/pairing/orphan-tool-result.yaml::anthropic[raw]`, so `-k` selects them.

Inert elsewhere: it only collects YAML files below a folder named `scenarios`.
Each item's result rides on `user_properties`, so the report is whole under pytest-xdist.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conformance import netguard
from conformance.backends import BACKENDS, Backends
from conformance.cassettes import RECORD_MODES
from conformance.item import Result
from conformance.pytest_plugin.collect import ScenarioFile, is_scenario_file, selected_providers

PROPERTY = "conformance-result"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("conformance", "provider-conformance scenarios")
    group.addoption("--provider", action="append", default=[], metavar="NAME",
                    help="run scenarios against this provider only (repeatable)")
    group.addoption("--backend", choices=BACKENDS, default="auto",
                    help="where requests go (auto: live with --live and a key, else the "
                         "cassette if one exists, else the emulator)")
    group.addoption("--live", action="store_true", help="allow live requests (auto backend)")
    group.addoption("--providers-file", metavar="YAML", help="more providers, from YAML")
    group.addoption("--record-mode", choices=RECORD_MODES, default="none",
                    help="vcrpy record mode for cassettes (default none: never record)")
    group.addoption("--cassette-dir", default="cassettes", metavar="DIR")
    group.addoption("--conformance-report", metavar="DIR",
                    help="write the strictness matrix (JSON, Markdown, HTML) into DIR")
    group.addoption("--yes", action="store_true", help="send live requests without asking")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "conformance: a scenario × provider × mode item")


def wants_guard(config: pytest.Config) -> bool:
    """Loopback only unless the run may go live (also off with -p no:conformance)."""
    return not (config.getoption("--live") or config.getoption("--backend") == "live")


def pytest_unconfigure(config: pytest.Config) -> None:
    netguard.uninstall()


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if is_scenario_file(file_path):
        return ScenarioFile.from_parent(parent, path=file_path)
    return None


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config,
                                  items: list[pytest.Item]) -> None:
    if not any(hasattr(i, "resolved_backend") for i in items):
        return  # no scenario here: the plugin stays inert
    if wants_guard(config):
        netguard.install()
    backends = backends_of(config)
    live = [i for i in items if getattr(i, "resolved_backend", lambda _b: "")(backends) == "live"]
    if not live or config.getoption("--yes"):
        return
    message = f"{len(live)} live requests would be sent to vendors (they may cost money)."
    if not sys.stdin.isatty():
        pytest.exit(f"{message} Pass --yes to send them.", returncode=2)
    answer = input(f"{message} Send them? [y/N] ")
    if answer.strip().lower() not in {"y", "yes"}:
        pytest.exit("no live requests sent", returncode=2)


def backends_of(config: pytest.Config) -> Backends:
    found = getattr(config, "_conformance_backends", None)
    if found is None:
        found = Backends(choice=config.getoption("--backend"),
                         cassette_root=Path(config.getoption("--cassette-dir")),
                         record_mode=config.getoption("--record-mode"),
                         live=config.getoption("--live"),
                         providers=selected_providers(config))
        config._conformance_backends = found  # type: ignore[attr-defined]
    return found


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when != "call":
        return
    for name, value in report.user_properties:
        if name == PROPERTY:
            _results_sink().append(json.loads(value))


_SINK: list[dict[str, Any]] = []


def _results_sink() -> list[dict[str, Any]]:
    return _SINK


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    backends = getattr(session.config, "_conformance_backends", None)
    if backends is not None:
        backends.close()
    out = session.config.getoption("--conformance-report")
    if out and _SINK and not hasattr(session.config, "workerinput"):
        from conformance.publish.matrix import write_reports

        written = write_reports([Result.from_json(r) for r in _SINK], Path(out))
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.write_line(f"conformance report: {', '.join(str(p) for p in written)}")


def record(item: pytest.Item, result: Result) -> None:
    item.user_properties.append((PROPERTY, json.dumps(result.to_json(), sort_keys=True)))


def iter_results() -> Iterator[dict[str, Any]]:
    return iter(_SINK)
