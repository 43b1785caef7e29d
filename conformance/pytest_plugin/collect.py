"""pytest collectors and items for scenario files (used by conformance.pytest_plugin.hooks)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conformance.bodies import MODES
from conformance.errors import ScenarioFailure
from conformance.item import Item, Result, run_item
from conformance.providers import Provider, load_providers_file, select
from conformance.scenarios.load import ScenarioError, load_scenario
from conformance.scenarios.replay import resolve

NOT_SCENARIOS = {"README.md", "scenario.schema.json"}


def is_scenario_file(path: Path) -> bool:
    return (path.suffix in {".yaml", ".yml"} and "scenarios" in path.parts[:-1]
            and path.name not in NOT_SCENARIOS)


def _extra_providers(config: pytest.Config) -> dict[str, Provider]:
    path = config.getoption("--providers-file")
    return load_providers_file(path) if path else {}


def selected_providers(config: pytest.Config) -> list[Provider]:
    cached = getattr(config, "_conformance_providers", None)
    if cached is None:
        cached = select(config.getoption("--provider") or None, _extra_providers(config))
        config._conformance_providers = cached  # type: ignore[attr-defined]
    return cached


def known_provider_names(config: pytest.Config) -> list[str]:
    return [p.name for p in select(None, _extra_providers(config))]


class ScenarioFile(pytest.File):
    def collect(self) -> Iterator[pytest.Item]:
        providers = selected_providers(self.config)
        root = self.config.rootpath
        try:
            scenario = load_scenario(self.path, providers=known_provider_names(self.config),
                                     root=root)
        except ScenarioError as exc:
            # An item, not a collection error: pytest stops a session on collection errors,
            # and one bad file must never stop the other scenarios.
            yield BrokenScenario.from_parent(self, name="load", error=exc)
            return
        scenario = resolve(scenario)  # a recorded stream is read once, here, not per item
        for provider in providers:
            for mode in MODES:
                yield ScenarioItem.from_parent(self, name=f"{provider.name}[{mode}]",
                                               item=Item(scenario, provider, mode))



class BrokenScenario(pytest.Item):
    """Stands for a scenario file that does not load: fails with its located errors."""

    def __init__(self, *, error: ScenarioError, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.error = error

    def runtest(self) -> None:
        raise self.error

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException],
                     style: Any = None) -> str:
        return f"{self.error}\n(this scenario file does not run; every other one still does)"

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, self.nodeid


class ScenarioItem(pytest.Item):
    def __init__(self, *, item: Item, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.item = item
        self.add_marker(pytest.mark.conformance)
        if item.scenario.draft:
            self.add_marker(pytest.mark.skip(reason="draft scenario"))
        gap = item.known_gap
        if gap:
            self.add_marker(pytest.mark.xfail(reason=f"known gap: {gap}", strict=False))

    def resolved_backend(self, backends: Any) -> str:
        return str(backends.resolve(self.item.provider, self.item.cassette(backends.cassette_root)))

    def runtest(self) -> None:
        from conformance.pytest_plugin.hooks import backends_of, record

        backends = backends_of(self.config)
        provider = self.item.provider
        if self.resolved_backend(backends) == "live" and provider.api_key() is None:
            pytest.skip(f"live: {provider.api_key_env or 'no key variable'} is not set for "
                        f"{provider.name}")
        result = run_item(self.item, backends)
        record(self, result)
        if result.problem:
            raise ScenarioFailure(result, self.nodeid)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException],
                     style: Any = None) -> str:
        if isinstance(excinfo.value, ScenarioFailure):
            return explain(excinfo.value.result, self.nodeid)
        return super().repr_failure(excinfo)  # type: ignore[no-any-return]

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, self.nodeid


def explain(result: Result, nodeid: str) -> str:
    verdict = result.verdict
    source = describe_source(result.source)
    lines = [f"{result.id}: {result.problem}",
             f"  verdict: {verdict.kind} (HTTP {verdict.status}) from {source}"]
    if verdict.message:
        lines.append(f"  vendor said: {verdict.message}")
    lines.append(f"  check() predicted: {result.predicted}"
                 + (f" [{result.predicted_rule}] {result.predicted_message}"
                    if result.predicted_rule else ""))
    for change in result.changes:
        lines.append(f"  change: {change['pass']}: {change['what']} at {change['where']}")
    lines.append(f"  next: pytest '{nodeid}' --backend emulator   |   conformance check "
                 f"BODY.json --provider {result.provider}")
    return "\n".join(lines)


def describe_source(source: dict[str, Any]) -> str:
    """Where a verdict came from, with provenance: e.g. `cassette x.yaml (recorded against
    the emulator, model m, 2026-11-22, openai 3.54)`."""
    backend = str(source.get("backend", "?"))
    stamp = source.get("provenance") or {}
    if not stamp:
        return backend
    sdk = ", ".join(f"{k} {v}" for k, v in sorted((stamp.get("sdk") or {}).items()))
    origin = "the emulator" if stamp.get("backend") == "emulator" else "the live vendor"
    where = f"cassette {source['cassette']}" if source.get("cassette") else backend
    return (f"{where} (recorded against {origin}, model {stamp.get('model')}, "
            f"{stamp.get('recorded')}; {sdk})")
