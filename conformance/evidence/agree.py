"""Every observation is a test: whether `check()` agrees with what the vendor answered.

An observation agrees when check() accepts what the vendor accepted, or rejects what the
vendor refused with a first violation whose rule is one of the observation's `rules`. The
check runs through the vendor's profile on the observation's date, model and endpoint (rules
are scoped, normalizer/scope.py). Where we choose not to model something, the file declares
a `gap:` with its reason; a gap that check() no longer needs is reported as stale, so gaps
cannot outlive the profile change that closed them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from conformance.evidence.load import Observation
from normalizer.check import Violation, check
from normalizer.errors import WireFormatError
from normalizer.profiles import HERE, PROVIDERS, Profile, load_profile, provider_for

Outcome = Literal["agrees", "gap", "disagrees", "stale-gap", "unmodelled"]
FAILING: frozenset[str] = frozenset({"disagrees", "stale-gap"})


@dataclass(frozen=True, slots=True)
class Agreement:
    """What check() says of one observation: the outcome (agrees, gap, disagrees, stale-gap,
    unmodelled), its prediction and first violation, and why."""

    observation: Observation
    outcome: Outcome
    predicted: str  # accept | reject | "" (unmodelled)
    rule: str | None  # the rule of check()'s first violation
    message: str  # check()'s text for it, or ""
    why: str  # the gap's reason, why unmodelled, or what differs
    # The texts of the first violation and of those right after it under the same rule, one
    # per line: Gemini answers every field a schema rule finds in one message, a line each.
    lines: str = ""

    @property
    def text_matches(self) -> bool | None:
        """Whether check()'s text is the vendor's, for an agreeing reject (None otherwise):
        the first violation's, or that of the run of violations under its rule."""
        obs = self.observation
        if self.outcome != "agrees" or obs.accepted or not self.message:
            return None
        said = (obs.error or "").strip()
        return self.message.strip() == said or (bool(self.lines) and self.lines.strip() == said)


def profile_for(obs: Observation) -> tuple[Profile | None, str]:
    """The profile that models the observation's vendor and protocol, or why there is none."""
    if obs.vendor not in PROVIDERS and not (HERE / f"{obs.vendor}.yaml").is_file():
        return None, f"no profile for vendor {obs.vendor!r}"
    profile = load_profile(obs.vendor if obs.vendor in PROVIDERS
                           else HERE / f"{obs.vendor}.yaml")
    if profile.protocol == obs.protocol:
        return profile, ""
    served = provider_for(obs.vendor, obs.protocol)
    if served is not None:
        return load_profile(served), ""
    return None, f"the {obs.vendor} profile models {profile.protocol}, not {obs.protocol}"


def agreement(obs: Observation) -> Agreement:
    """Check the observation's request with its vendor's profile (on its date, model and
    endpoint) and compare the first violation with what the vendor answered."""
    profile, why = profile_for(obs)
    if profile is None:
        return Agreement(obs, "unmodelled", "", None, "", why)
    try:
        found = check(obs.request, profile, model=obs.known_model, on=obs.date,
                      endpoint=obs.endpoint)
    except WireFormatError as exc:  # off the protocol's skeleton: refused before any rule
        return _off_skeleton(obs, exc)
    first: Violation | None = found[0] if found else None
    predicted = "reject" if first else "accept"
    rule, message = (first.rule, first.message) if first else (None, "")
    same = _same(obs, first)
    if same and obs.gap:
        return Agreement(obs, "stale-gap", predicted, rule, message,
                         f"check() now agrees; remove the gap ({obs.gap})")
    if same:
        return Agreement(obs, "agrees", predicted, rule, message, "", _lines(found))
    if obs.gap:
        return Agreement(obs, "gap", predicted, rule, message, obs.gap)
    return Agreement(obs, "disagrees", predicted, rule, message, _difference(obs, first))


def _off_skeleton(obs: Observation, exc: WireFormatError) -> Agreement:
    """check() refuses the body's shape (normalizer/skeleton.py). No rule id names that, so
    it agrees with no observation: a declared gap, or a skeleton stricter than the vendor."""
    why = f"check() refuses the body's shape: {exc.where}: {exc.problem}"
    if obs.gap:
        return Agreement(obs, "gap", "reject", None, str(exc), obs.gap)
    return Agreement(obs, "disagrees", "reject", None, str(exc),
                     f"the vendor answered {obs.status}; {why}")


def agreements(observations: Iterable[Observation]) -> tuple[Agreement, ...]:
    """The agreement of each observation, in order."""
    return tuple(agreement(o) for o in observations)


def _lines(found: tuple[Violation, ...]) -> str:
    """The messages of the leading violations that share the first one's rule, a line each."""
    run = [v.message for v in found[:1]]
    for v in found[1:]:
        if v.rule != found[0].rule:
            break
        run.append(v.message)
    return "\n".join(run) if len(run) > 1 else ""


def _same(obs: Observation, first: Violation | None) -> bool:
    if obs.accepted:
        return first is None
    return first is not None and first.rule in obs.rules


def _difference(obs: Observation, first: Violation | None) -> str:
    said = f"the vendor answered {obs.status}"
    if first is None:
        return f"{said}; check() accepts (rules {', '.join(obs.rules) or 'none named'})"
    if obs.accepted:
        return f"{said}; check() rejects with {first.rule} at {first.location}"
    return (f"{said} about {', '.join(obs.rules) or 'no named rule'}; check()'s first "
            f"violation is {first.rule} at {first.location}")
