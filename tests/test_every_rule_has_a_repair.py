"""Every rule a built-in profile enforces is fixed by a scheduled pass, or is listed here with
why nothing can fix it. Two rules had a detector and no pass (reasoning-item-orphan,
assistant-content-type): normalize left those bodies as they were, and the vendor refused
them."""

from __future__ import annotations

from normalizer.normalize import STEPS
from normalizer.profiles import PROVIDERS, load_profile

# rule id: why no pass repairs it (docs/profiles.md says the same).
NO_REPAIR = {
    "reasoning-content-required": "thinking mode wants the turn's reasoning back, and "
                                  "reasoning cannot be invented",
}


def test_every_enforced_rule_has_a_repair_or_a_reason() -> None:
    fixed = {rule for step in STEPS.values() for rule in step.fixes}
    unfixed = {(rule.id, provider) for provider in PROVIDERS
               for rule in load_profile(provider).rules
               if rule.enforced and rule.id not in fixed and rule.id not in NO_REPAIR}
    assert unfixed == set()
    assert not fixed & set(NO_REPAIR)
