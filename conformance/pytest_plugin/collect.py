"""pytest collectors and items for scenario files. Loaded by hooks.py only once a scenario
file is collected (it brings the suite: SDKs, vcrpy, the normalizer); never imports it back.
Run state lives in `config.stash` (state.py)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import nullcontext
from pathlib import Path
from typing import Any

import pytest

from conformance import netguard
from conformance.backends import Backends
from conformance.batch import confirm_live
from conformance.bodies import MODES
from conformance.errors import ScenarioFailure
from conformance.item import Item, Result, run_item
from conformance.options import plugin_flag
from conformance.providers import Provider, load_providers_file, select
from conformance.pytest_plugin.state import BACKENDS, PROPERTY, PROVIDERS, PUBLISHED_INI
from conformance.scenarios.load import ScenarioError, load_scenario
from conformance.scenarios.replay import resolve


def option(config: pytest.Config, name: str) -> Any:
    """A run option by its table name (`backend`), whatever pytest calls it."""
    return config.getoption(plugin_flag(name))


def _extra_providers(config: pytest.Config) -> dict[str, Provider]:
    path = option(config, "providers-file")
    return load_providers_file(path) if path else {}


def selected_providers(config: pytest.Config) -> list[Provider]:
    """The providers this run sends to (`--conformance-provider`, default every one), chosen once
    per session."""
    if PROVIDERS not in config.stash:
        config.stash[PROVIDERS] = select(option(config, "provider") or None,
                                         _extra_providers(config))
    return config.stash[PROVIDERS]


def known_provider_names(config: pytest.Config) -> list[str]:
    """The provider names a scenario may mention: the built-ins and those of
    `--conformance-providers-file`."""
    return [p.name for p in select(None, _extra_providers(config))]


def backends_of(config: pytest.Config) -> Backends:
    """The session's Backends, made on first use from the run options."""
    if BACKENDS not in config.stash:
        config.stash[BACKENDS] = Backends(
            choice=option(config, "backend"), cassette_root=Path(option(config, "cassette-dir")),
            record_mode=option(config, "record-mode"), live=option(config, "live"),
            providers=selected_providers(config))
    return config.stash[BACKENDS]


def confirm_live_items(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Ask once before live requests (the CLI's question, `batch.confirm_live`)."""
    backends = backends_of(config)
    live = sum(1 for i in items
               if isinstance(i, ScenarioItem) and i.resolved_backend(backends) == "live")
    # The question must reach the terminal and read its answer, so stdin capture is lifted
    # too (as pytest does for pdb); without a terminal it says to pass --conformance-yes.
    capture = config.pluginmanager.get_plugin("capturemanager")
    if capture is not None:
        capture.suspend_global_capture(in_=True)
    try:
        refusal = confirm_live(live, option(config, "yes"), plugin_flag("yes"))
    finally:
        if capture is not None:
            capture.resume_global_capture()
    if refusal:
        pytest.exit(refusal, returncode=2)


def wants_requests(config: pytest.Config) -> bool:
    """Whether the session ends with pages that show each request (`--conformance-report`,
    or the published-matrix check): then each replayed item brings the request its cassette
    recorded, read where vcrpy already loaded it, not from every file again at the end."""
    return bool(option(config, "report") or config.getini(PUBLISHED_INI))


def record(item: pytest.Item, result: Result) -> None:
    """The result rides on the report (JSON), so it reaches the xdist controller."""
    item.user_properties.append((PROPERTY, json.dumps(result.to_json(), sort_keys=True)))


class ScenarioFile(pytest.File):
    """One scenario file: an item per selected provider × mode, or one failing item when the file
    does not load."""

    def collect(self) -> Iterator[pytest.Item]:
        """Load the scenario (reading a recorded stream once) and yield its items."""
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
        """Fail with the file's ScenarioError."""
        raise self.error

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException],
                     style: Any = None) -> str:
        """The file's located errors, without a traceback."""
        return f"{self.error}\n(this scenario file does not run; every other one still does)"

    def reportinfo(self) -> tuple[Path, int, str]:
        """The scenario file and the item's node id, for pytest's report."""
        return self.path, 0, self.nodeid


class ScenarioItem(pytest.Item):
    """One scenario × provider × mode item: skipped for a draft scenario, an expected failure
    where a known gap is declared."""

    def __init__(self, *, item: Item, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.item = item
        self.add_marker(pytest.mark.conformance)
        if item.scenario.draft:
            self.add_marker(pytest.mark.skip(reason="draft scenario"))
        gap = item.known_gap
        if gap:
            self.add_marker(pytest.mark.xfail(reason=f"known gap: {gap}", strict=False))

    def resolved_backend(self, backends: Backends) -> str:
        """The backend this item's request goes to (Backends.resolve)."""
        return str(backends.resolve(self.item.provider, self.item.cassette(backends.cassette_root)))

    def runtest(self) -> None:
        """Run the item (loopback only unless it goes live), record its result on the report, and
        raise ScenarioFailure when it failed; skipped when it goes live without a key."""
        backends = backends_of(self.config)
        provider = self.item.provider
        live = self.resolved_backend(backends) == "live"
        if live and provider.api_key() is None:
            pytest.skip(f"live: {provider.api_key_env or 'no key variable'} is not set for "
                        f"{provider.name}")
        # Loopback only unless this item goes live; the guard ends with the item, pass or fail.
        with nullcontext() if live else netguard.loopback_only():
            result = run_item(self.item, backends, keep_request=wants_requests(self.config))
        record(self, result)
        if result.problem:
            raise ScenarioFailure(result, self.nodeid)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException],
                     style: Any = None) -> str:
        """A failed verdict explained (explain()); any other error as pytest shows it."""
        if isinstance(excinfo.value, ScenarioFailure):
            return explain(excinfo.value.result, self.nodeid)
        return super().repr_failure(excinfo)  # type: ignore[no-any-return]

    def reportinfo(self) -> tuple[Path, int, str]:
        """The scenario file and the item's node id, for pytest's report."""
        return self.path, 0, self.nodeid


def explain(result: Result, nodeid: str) -> str:
    """A failed item as text: the problem, the verdict and where it came from, the vendor's
    message, check()'s prediction, the changes, and the commands to look closer."""
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
    lines.append(f"  next: pytest '{nodeid}' {plugin_flag('backend')} emulator   |   "
                 f"conformance check BODY.json --provider {result.provider}")
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
