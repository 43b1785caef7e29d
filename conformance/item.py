"""One item = scenario × provider × mode. Running it: build the request, predict with
`check`, send it through the backend, classify, and judge against the expectation
(raw: `expect.raw`; normalized: accept). Shared by `conformance run` and the pytest plugin.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from conformance.backends import Backends
from conformance.bodies import MODES, build, change_json
from conformance.cassettes import cassette_path
from conformance.classify import Verdict, classify
from conformance.expectations import compared_with_prediction
from conformance.providers import Provider
from conformance.scenarios.load import Scenario
from normalizer.check import Violation, check
from normalizer.errors import NormalizerError, WireFormatError


@dataclass(frozen=True, slots=True)
class Item:
    """One scenario × provider × mode: the unit that is run, judged and reported."""

    scenario: Scenario
    provider: Provider
    mode: str

    @property
    def id(self) -> str:
        """The item's id: `scenario path::provider[mode]`."""
        return f"{self.scenario.path}::{self.provider.name}[{self.mode}]"

    @property
    def expected(self) -> str | None:
        """The verdict the item expects: accept when normalized; the scenario's `expect.raw`
        entry when raw, or None when it names none for this provider."""
        if self.mode == "normalized":
            return "accept"
        found = self.scenario.expect_raw.get(self.provider.name)
        return str(found) if found is not None else None

    @property
    def known_gap(self) -> str:
        """The scenario's `known_gaps` entry for this provider (or provider[mode]), if any."""
        for gap in self.scenario.known_gaps:
            target = gap.split(":", 1)[0].strip()
            if target in {self.provider.name, f"{self.provider.name}[{self.mode}]"}:
                return gap
        return ""

    def cassette(self, root: Path) -> Path:
        """The path of this item's cassette under `root`."""
        return cassette_path(root, self.provider.name, self.scenario.topic, self.scenario.fault,
                             self.mode)


@dataclass(frozen=True, slots=True)
class Result:
    """One run item's outcome: the verdict and where it came from, what was expected, what
    check() predicted, the normalization changes, and why it failed (empty when it passed)."""

    id: str
    scenario: str
    title: str
    topic: str
    provider: str
    mode: str
    verdict: Verdict
    expected: str | None
    predicted: str  # what check() says: accept, or reject with the first rule
    predicted_rule: str | None
    predicted_message: str
    source: dict[str, Any] = field(default_factory=dict)
    changes: tuple[dict[str, Any], ...] = ()
    problem: str = ""  # why the item failed, empty when it passed
    known_gap: str = ""  # a declared gap: a failure here is expected and reported as such
    request: Any = None  # the body as sent, where a report shows it (publish/recorded.py)
    evidence: Any = None  # what backs the verdict, where an observation does (evidence/)

    @property
    def passed(self) -> bool:
        """Whether the item met its expectation (a known gap's failure does not pass)."""
        return not self.problem

    @property
    def counts_as_failure(self) -> bool:
        """Whether the item failed and no known gap declares it."""
        return bool(self.problem) and not self.known_gap

    @property
    def differs_from_check(self) -> bool:
        """Our model of the vendor predicted another verdict than the one observed."""
        return self.verdict.kind != "inconclusive" and self.verdict.kind != self.predicted

    def to_json(self) -> dict[str, Any]:
        """The result as plain JSON (a strictness.json row, or an xdist worker's report)."""
        return {"id": self.id, "scenario": self.scenario, "title": self.title,
                "topic": self.topic, "provider": self.provider, "mode": self.mode,
                **self.verdict.to_json(), "expected": self.expected,
                "predicted": self.predicted, "predicted_rule": self.predicted_rule,
                "predicted_message": self.predicted_message, "source": self.source,
                "changes": list(self.changes), "problem": self.problem,
                "known_gap": self.known_gap,
                **({"request": self.request} if self.request is not None else {}),
                **({"evidence": self.evidence} if self.evidence is not None else {})}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Result:
        """The inverse of to_json (a strictness.json row, or an xdist worker's report)."""
        return cls(
            id=data["id"], scenario=data["scenario"], title=data["title"],
            topic=data["topic"], provider=data["provider"], mode=data["mode"],
            verdict=Verdict.from_json(data), expected=data.get("expected"),
            predicted=data["predicted"], predicted_rule=data.get("predicted_rule"),
            predicted_message=data.get("predicted_message") or "",
            source=dict(data.get("source") or {}),
            changes=tuple(dict(c) for c in data.get("changes") or ()),
            problem=data.get("problem") or "", known_gap=data.get("known_gap") or "",
            request=data.get("request"), evidence=data.get("evidence"))


def items(scenarios: Iterable[Scenario], providers: Iterable[Provider],
          modes: Iterable[str] = MODES) -> Iterator[Item]:
    """Every item of `scenarios` × `providers` × `modes`, in that order."""
    providers, modes = list(providers), list(modes)
    for scenario in scenarios:
        for provider in providers:
            for mode in modes:
                yield Item(scenario, provider, mode)


def run_item(item: Item, backends: Backends, *, keep_request: bool = False) -> Result:
    """Build the item's request, predict its verdict with check(), send it through `backends`,
    classify the answer and judge it: against the expectation, or, for a user provider's raw item
    without one, against the profile's prediction. A request that cannot be built gives an
    inconclusive, failing Result: nothing is raised for it. `keep_request`: a replayed item's
    Result carries the request its cassette recorded (what a published page shows)."""
    try:
        request = build(item.scenario, item.provider, item.mode)
    except (NormalizerError, ValueError, KeyError) as exc:
        verdict = Verdict("inconclusive", None, reason=f"could not build the request: {exc}")
        return _result(item, verdict, None, (), {}, f"could not build the request: {exc}")
    violations = _predicted(request.body, item, request.model)
    sent = backends.send(item.provider, item.cassette(backends.cassette_root), request.body,
                         request.model)
    verdict = classify(sent.outcome)
    changes = tuple(change_json(c) for c in request.changes)
    problem = compared_with_prediction(item.provider, item.expected, item.mode, verdict,
                                       violations)
    if problem is None:
        problem = _judge(item, verdict, changes) or _untouched_bytes(item, request.body)
    result = _result(item, verdict, violations[0] if violations else None, changes,
                     sent.source, problem)
    return replace(result, request=sent.recorded) if keep_request else result


def _predicted(body: Mapping[str, Any], item: Item, model: str | None
               ) -> tuple[Violation, ...]:
    """check()'s violations; a body off its protocol's skeleton (a raw body rendered from
    another protocol's history can carry parts this wire cannot read) is refused before any
    rule, as the emulators refuse it ("bad-input")."""
    try:
        return check(body, item.provider.load_profile(), model=model)
    except WireFormatError as exc:
        return (Violation("bad-input", exc.where, 400, f"{exc.where}: {exc.problem}"),)


def _untouched_bytes(item: Item, body: Mapping[str, Any]) -> str:
    """expect.untouched: the normalized body is the raw body itself (as JSON values), not
    only a body with no change reported (prompt caches key on the bytes)."""
    if item.mode != "normalized" or not _untouched_here(item):
        return ""
    raw = build(item.scenario, item.provider, "raw").body
    return "" if raw == body else ("expected the normalized body to equal the raw body "
                                   "(untouched), but it differs")


def _untouched_here(item: Item) -> bool:
    """expect.untouched holds for the providers the scenario expects to take the history
    raw: one that refuses it (DeepSeek's thinking mode wants reasoning on every tool round)
    gets its repair, which the raw refusal already says it needs."""
    return (item.scenario.expect_untouched
            and item.scenario.expect_raw.get(item.provider.name) == "accept")


def _result(item: Item, verdict: Verdict, first: Any, changes: tuple[dict[str, Any], ...],
            source: dict[str, Any], problem: str) -> Result:
    return Result(
        id=item.id, scenario=item.scenario.path, title=item.scenario.title,
        topic=item.scenario.topic, provider=item.provider.name, mode=item.mode, verdict=verdict,
        expected=item.expected, predicted="reject" if first else "accept",
        predicted_rule=first.rule if first else None,
        predicted_message=first.message if first else "", source=source, changes=changes,
        # A declared gap is what the vendor (or its SDK) does; a cassette that no longer
        # matches the request says nothing about either, and hid stale cassettes.
        problem=problem, known_gap="" if _stale(verdict) else item.known_gap)


def _stale(verdict: Verdict) -> bool:
    return verdict.kind == "inconclusive" and (verdict.reason or "").startswith(
        "cassette-mismatch")


def _judge(item: Item, verdict: Verdict, changes: tuple[dict[str, Any], ...]) -> str:
    if verdict.kind == "inconclusive":
        return f"inconclusive: {verdict.reason}"
    expected = item.expected
    if expected is None:
        return (f"no expectation: add `{item.provider.name}: {verdict.kind}` under "
                f"expect.raw in {item.scenario.path}")
    if verdict.kind != expected:
        said = f" (HTTP {verdict.status}: {verdict.message})" if verdict.kind == "reject" else ""
        return f"expected {expected}, got {verdict.kind}{said}"
    if item.mode == "normalized" and _untouched_here(item) and changes:
        return ("expected normalize to leave this valid history untouched, but it made "
                f"{len(changes)} change(s): " + "; ".join(f"{c['code']} at {c['where']}"
                                                          for c in changes))
    if item.mode == "normalized":
        wanted = item.scenario.expect_changes.get(item.provider.name, ())
        codes = {c["code"] for c in changes}
        missing = [c for c in wanted if c not in codes]
        if missing:
            return f"the normalization report lacks {missing} (it has {sorted(codes)})"
    return ""
