"""The probe's shipped requests (conformance/probe/cases) fit the built-in profiles: every
rule a built-in profile of a protocol uses has one probe case; each case breaks its rule
for every built-in profile that enforces it, and its neighbour breaks nothing; where the
provider has a rule case (conformance/probe/cases/rules, the one copy the probe cases
take their bodies from), the probe request fails first on the rule as the rule case does.
Coverage of every rule × protocol is in test_probe_coverage.py."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest

from conformance.probe.cases import RULES_DIR, ProbeCase, probe_set
from conformance.sized_yaml import safe_load
from normalizer.check import check
from normalizer.profiles import Profile, builtin_profiles, load_profile
from normalizer.scope import scoped
from normalizer.wire import PROTOCOLS

RULE_CASES = RULES_DIR
# The strictest model each protocol's rules know (some rules apply to some models only).
MODELS = {"openai_chat": "test-model", "openai_responses": "gpt-4.1-mini",
          "anthropic": "claude-sonnet-4-5", "gemini": "gemini-3-pro-preview"}
# Copies whose params forbid another form than the case's: one probe request per rule
# measures one form (the probe reports the others as unmeasured, conformance/probe/measure.py).
# xAI's empty-content forbids an empty system string, the case an assistant's null;
# Moonshot's forbids every empty form, the neighbour's "" as well as the case's null.
OTHER_FORM = {("openai_chat", "empty-content", "xai"), ("openai_chat", "empty-content", "moonshot")}


def profiles_of(protocol: str) -> list[Profile]:
    return [p for p in builtin_profiles() if p.protocol == protocol]


def model_for(case: ProbeCase, protocol: str) -> str:
    return case.model or MODELS[protocol]


def body(case_body: Any, model: str) -> dict[str, Any]:
    return {"model": model, **case_body.thaw()}


def all_cases() -> list[Any]:
    return [pytest.param(p, c, id=f"{p}:{c.rule}") for p in PROTOCOLS for c in probe_set(p).cases]


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_every_rule_of_every_builtin_profile_has_one_probe_case(protocol: str) -> None:
    used = {r.id for p in profiles_of(protocol) for r in p.rules}
    shipped = [c.rule for c in probe_set(protocol).cases]
    assert len(shipped) == len(set(shipped)), "a rule with two probe cases"
    assert set(shipped) >= used


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_control_request_passes_every_builtin_profile(protocol: str) -> None:
    control = probe_set(protocol).control
    for profile in profiles_of(protocol):
        assert check(body(control, MODELS[protocol]), profile) == (), profile.provider


@pytest.mark.parametrize(("protocol", "case"), all_cases())
def test_case_breaks_its_rule_and_its_neighbour_breaks_nothing(protocol: str,
                                                               case: ProbeCase) -> None:
    model = model_for(case, protocol)
    for profile in profiles_of(protocol):
        broken = {v.rule for v in check(body(case.reject, model), profile, model=model)}
        if (protocol, case.rule, profile.provider) in OTHER_FORM:
            continue
        if scoped(profile, model=model).enforces(case.rule) \
                and not _above_ceiling(case, profile, model):  # holds today for that model
            assert case.rule in broken, profile.provider
        assert broken - {case.rule} <= set(case.also), (profile.provider, broken)
        fixed = {v.rule for v in check(body(case.accept, model), profile, model=model)}
        if _stricter_limit(case, profile, model):
            continue  # a neighbour at one vendor's limit exceeds a stricter one's (Azure's 40)
        assert case.rule not in fixed, profile.provider
        # Only a neighbour that a stricter vendor's unrelated rule dislikes may break one.
        assert not fixed or not scoped(profile, model=model).enforces(case.rule), \
            (profile.provider, fixed)


def _limit_of(case: ProbeCase, profile: Profile, model: str) -> Any:
    """This profile's value of the limit the case's search measures (`limit:`), or None."""
    if case.limit is None:
        return None
    return scoped(profile, model=model).param(case.rule, case.limit.param)


def _above_ceiling(case: ProbeCase, profile: Profile, model: str) -> bool:
    """This profile's limit is at or above the search's ceiling: the probe reports such an
    endpoint lenient up to the ceiling, and no body of the search breaks the rule (Azure's
    1,048,576-character tool descriptions against a ceiling of 8,192)."""
    mine = _limit_of(case, profile, model)
    return mine is not None and case.limit is not None and mine >= case.limit.ceiling


def _stricter_limit(case: ProbeCase, profile: Profile, model: str) -> bool:
    """This profile's limit is lower than the neighbour's value (the placeholder's length)."""
    mine = _limit_of(case, profile, model)
    return mine is not None and case.limit is not None and mine < case.limit.size


@pytest.mark.parametrize(("protocol", "case"), all_cases())
def test_case_breaks_its_rule_first_wherever_a_rule_case_exists(protocol: str,
                                                                case: ProbeCase) -> None:
    """For each built-in provider with a rule case for this rule, the probe request fails
    first on the rule, as the rule case does (with only that rule on, when the request
    also breaks another rule of that provider)."""
    model = model_for(case, protocol)
    for profile in profiles_of(protocol):
        if case.rule not in {c["rule"] for c in rule_cases(profile.provider)} \
                or not scoped(profile, model=model).enforces(case.rule) \
                or _above_ceiling(case, profile, model) \
                or (protocol, case.rule, profile.provider) in OTHER_FORM:
            continue
        found = check(body(case.reject, model), only(profile, case.rule), model=model)
        assert found and found[0].rule == case.rule, profile.provider


def rule_cases(provider: str) -> list[dict[str, Any]]:
    path = RULE_CASES / f"{provider}.yaml"
    return yaml_file(path) if path.is_file() else []


@cache
def yaml_file(path: Path) -> list[dict[str, Any]]:
    return safe_load(path.read_text(encoding="utf-8")) or []


def only(profile: Profile, rule_id: str) -> Profile:
    from dataclasses import replace

    rules = tuple(r for r in load_profile(profile.provider).rules if r.id == rule_id)
    assert rules  # every scoped copy: check() keeps the ones that hold
    return replace(profile, rules=rules)


def test_a_limit_whose_placeholder_is_not_in_its_body_is_refused_when_loaded() -> None:
    from conformance.probe.cases import _case  # the loader's one case, without a file

    body = {"messages": [{"role": "user", "content": "Hi"}],
            "tools": [{"type": "function", "function": {"name": "f", "description": "short"}}]}
    raw = {"rule": "tool-description-too-long", "from": "azure_openai", "reject": body,
           "accept": body, "limit": {"param": "max_length", "floor": 1, "ceiling": 8,
                                     "placeholder": "x" * 50, "fill": "x"}}
    with pytest.raises(ValueError) as refused:
        _case(raw)
    assert str(refused.value).startswith(
        "probe case tool-description-too-long (from: azure_openai): limit.placeholder "
        "'" + "x" * 36 + "... (50 characters) is not a value of its "
        "reject body")
    raw["reject"] = {**body, "tools": [{"type": "function", "function": {
        "name": "f", "description": "x" * 50}}]}
    assert _case(raw).limit is not None
