"""Every rule a built-in profile enforces is fixed by a scheduled pass, or is listed here with
why nothing can fix it; and each rule case's breaking body (conformance/probe/cases/rules),
normalized for its provider, passes check. Two rules had a detector and no pass
(reasoning-item-orphan, assistant-content-type), and OpenAI Responses' duplicate item ids
had a pass that fixes call ids only: normalize left those bodies as the vendor refuses
them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import fast_yaml
import pytest

from normalizer import check, normalize_request
from normalizer.normalize import STEPS
from normalizer.profiles import PROVIDERS, load_profile

CASES = Path(__file__).resolve().parent.parent / "conformance" / "probe" / "cases" / "rules"

# (rule id, provider): why no pass repairs it there (docs/profiles.md says the same).
NO_REPAIR: dict[tuple[str, str], str] = {}


# rule id: where normalize_request repairs it instead of a pass (the request's own fields,
# which it writes itself; the rule cases below show the repair).
BY_REQUEST = {
    "empty-tools": "normalizer/request.py leaves an empty `tools` list out for a target "
                   "that enforces the rule (normalize renders no empty list itself)",
    "hosted-tool-with-functions": "normalizer/request.py (passes/tool_combination.py): the "
                                  "built-in tools are kept as they came, outside the "
                                  "history; it sets the flag Gemini 3 asks for, or leaves "
                                  "them out for Gemini 2",
}


def test_every_enforced_rule_has_a_repair_or_a_reason() -> None:
    fixed = {rule for step in STEPS.values() for rule in step.fixes}
    unfixed = {(rule.id, provider) for provider in PROVIDERS
               for rule in load_profile(provider).rules
               if rule.enforced and rule.id not in fixed | set(BY_REQUEST)}
    assert unfixed == set()
    assert not fixed & set(BY_REQUEST)


def test_a_rule_without_a_repair_has_none_where_it_is_listed() -> None:
    """The pairs NO_REPAIR lists are left as the vendor refuses them (the rule case below
    shows it), and nowhere else: a profile that gets the parameters the repair needs is
    taken off the list."""
    for rule_id, provider in NO_REPAIR:
        case = next(c for c in fast_yaml.load((CASES / f"{provider}.yaml").read_text(
            encoding="utf-8")) if c["rule"] == rule_id)
        body = case["reject"]
        model = body.get("model")
        out = normalize_request(body, load_profile(provider).protocol, provider, model=model)
        assert [v.rule for v in check(out.body, provider, model=model)] == [rule_id]


def _cases() -> list[Any]:
    found = []
    for provider in sorted(PROVIDERS):
        path = CASES / f"{provider}.yaml"
        cases = fast_yaml.load(path.read_text(encoding="utf-8")) if path.exists() else None
        found += [pytest.param(provider, case, id=f"{provider}:{case['rule']}")
                  for case in cases or [] if (case["rule"], provider) not in NO_REPAIR]
    return found


@pytest.mark.parametrize(("provider", "case"), _cases())
def test_a_rule_case_normalized_passes_check(provider: str, case: dict[str, Any]) -> None:
    body, protocol = case["reject"], load_profile(provider).protocol
    model = case.get("model") or body.get("model")  # Gemini: the model is the case's (URL)
    out = normalize_request(body, protocol, provider, model=model)
    assert check(out.body, provider, model=model) == ()
