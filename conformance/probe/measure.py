"""One whole probe as a library call, and the diff of a measured profile against another.

`measure` is what `conformance probe` does between the control request and writing the
file (tests call it directly, many probes at once). `profile_diff` compares what a probe
measured with a shipped profile: rules gained (enforced now, not in the shipped one), lost
(shipped enforced, measured lenient), changed limits and changed texts. Rules the probe
could not decide (inconclusive, or not sendable) are listed apart as not measured: they
are neither gained nor lost.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from conformance.probe.cases import ProbeSet, probe_set
from conformance.probe.observe import Observation, Send, observe_all
from conformance.probe.profile import Probed, attribute, is_moot, profile_data
from normalizer.check import check
from normalizer.profiles import Profile, Rule
from normalizer.scope import is_scoped, scoped

_LIMIT_PARAMS = ("max_length", "maximum")


def today() -> str:
    """Today's date in UTC, YYYY-MM-DD (the `date` a probe records)."""
    return dt.datetime.now(dt.UTC).date().isoformat()


def measure(send: Send, probes: ProbeSet, probed: Probed, *, concurrency: int = 2,
            progress: Callable[[Observation], None] | None = None
            ) -> tuple[tuple[Observation, ...], dict[str, Any]]:
    """Every rule of `probes` observed and attributed, and the profile mapping written from
    them (the control request is the caller's: it decides whether to go on)."""
    seen = observe_all(send, probes, concurrency=concurrency, progress=progress)
    found = attribute(seen, probes, probed.model)
    return found, profile_data(found, probes, probed)


@dataclass(frozen=True, slots=True)
class Diff:
    """A measured profile against a shipped one: the rules gained and lost, changed limits and
    texts, and the rules not measured."""

    gained: tuple[str, ...] = ()
    lost: tuple[str, ...] = ()
    limits: tuple[str, ...] = ()  # "rule: max_length 40 -> 16"
    texts: tuple[str, ...] = ()  # "rule: 'old' -> 'new'"
    unmeasured: tuple[str, ...] = ()  # "rule: why"

    @property
    def empty(self) -> bool:
        """Whether nothing measured differs (unmeasured rules do not count)."""
        return not (self.gained or self.lost or self.limits or self.texts)

    def lines(self, shipped: str) -> list[str]:
        """The diff as text lines, headed by the shipped profile's name `shipped`."""
        if self.empty:
            head = [f"no difference from the shipped profile {shipped} in what was measured"]
        else:
            head = [f"difference from the shipped profile {shipped}:"]
        for label, items in (("gained (enforced now)", self.gained),
                             ("lost (no longer enforced)", self.lost),
                             ("changed limits", self.limits), ("changed texts", self.texts),
                             ("not measured", self.unmeasured)):
            head += [f"  {label}: {item}" for item in items]
        return head


def profile_diff(shipped: Profile, measured: Profile, found: Sequence[Observation],
                 model: str | None = None) -> Diff:
    """What the probe measured (`found`, written as `measured`, with `model`) against
    `shipped`. A shipped rule for other models only (params.model_prefixes) is not measured
    by a probe with this model, nor is one whose requests both break another rule it enforces
    for this model (a moot finding); of rules scoped by model or date (normalizer/scope.py) the
    ones that hold today for `model` are compared."""
    shipped = scoped(shipped, model=model)
    other_models = {r.id for r in shipped.rules if model and _other_models(r, model)}
    allowed = _allowed_here(shipped, model) - other_models
    decided = {o.rule for o in found if o.finding != "inconclusive" and not is_moot(o)} \
        - other_models - allowed
    unmeasured = [f"{o.rule}: {o.reason or o.verdict.reason}" for o in found
                  if (o.finding == "inconclusive" or is_moot(o)) and shipped.enforces(o.rule)]
    unmeasured += [f"{r.id}: no probe request for it" for r in shipped.rules
                   if r.enforced and r.id not in {o.rule for o in found}]
    unmeasured += [f"{rule_id}: the shipped rule is for other models than {model}"
                   for rule_id in sorted(other_models)]
    unmeasured += [f"{rule_id}: the probe's request does not break the shipped rule's copy "
                   f"for {model}" for rule_id in sorted(allowed)]
    gained, lost, limits, texts = [], [], [], []
    for rule_id in sorted(decided):
        now, before = measured.rule(rule_id), shipped.rule(rule_id)
        on, was = now is not None and now.enforced, before is not None and before.enforced
        if on and not was:
            gained.append(rule_id)
        elif was and not on:
            lost.append(rule_id)
        elif on and was and now is not None and before is not None:
            limits += _limit_changes(before, now)
            if before.message != now.message:
                texts.append(f"{rule_id}: {before.message!r} -> {now.message!r}")
    return Diff(tuple(gained), tuple(lost), tuple(limits), tuple(texts), tuple(unmeasured))


def _allowed_here(shipped: Profile, model: str | None) -> set[str]:
    """Rules whose copy for this model (normalizer/scope.py) allows the probe's request:
    mistral-small takes a user message after a tool message, which is what the role-order
    probe sends, so the probe cannot tell that copy is on."""
    probes = probe_set(shipped.protocol)
    found = set()
    for rule in shipped.rules:
        case = probes.case(rule.id)
        if not (is_scoped(rule) and rule.enforced and case is not None):
            continue
        # A limit is searched from its ceiling: the body sent first is the one at the ceiling.
        reject = case.reject.thaw() if case.limit is None \
            else case.limit.body(case.reject, case.limit.ceiling)
        body = {"model": model or case.model or "unknown", **reject}
        if rule.id not in {v.rule for v in check(body, shipped, model=model)}:
            found.add(rule.id)
    return found


def _other_models(rule: Rule, model: str) -> bool:
    """The rule holds for other models only (model_prefixes), or is on by default for other
    models only (default_on_model: DeepSeek's thinking mode), so a probe with `model` does
    not see it."""
    if not rule.applies_to(model, when_unknown=True):
        return True
    default_on = rule.params.get("default_on_model")
    return bool(default_on) and re.search(str(default_on), model) is None


def _limit_changes(before: Rule, now: Rule) -> list[str]:
    return [f"{now.id}: {key} {before.params.get(key)} -> {now.params.get(key)}"
            for key in _LIMIT_PARAMS if before.params.get(key) != now.params.get(key)]
