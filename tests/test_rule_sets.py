"""A user's profile, or one the probe writes, holds any set of the rules the built-in
profiles know for its protocol. Normalizing for such a set: the body passes check for the
same profile, and a second normalize changes nothing (repairs that undo each other went on
round after round). Sets are drawn at random from the built-in profiles' enforced rules
(their own params; rules scoped by model, date or host left out), under either policy
for orphans and unanswered calls. One pair of rules cannot
both hold: a final assistant message allowed as a prefix while the `prefix` field is
refused; normalize leaves that message as is (passes/conversation_ends.py), so that
violation alone is let through here."""

from __future__ import annotations

import copy
import random
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml
from glued import glued
from sizing import examples

import normalizer
from normalizer import check, normalize
from normalizer.check import detectors
from normalizer.passes import Policy
from normalizer.passes.conversation_ends import _prefix_field_taken
from normalizer.profiles import Profile, profile_from_mapping

PROFILES = Path(normalizer.__file__).parent / "profiles"
_SCOPED = ("models", "since", "until", "hosts")


@cache
def _rules() -> dict[str, dict[str, dict[str, Any]]]:
    """Per protocol, the first enforced copy of each rule id the built-in profiles hold."""
    found: dict[str, dict[str, dict[str, Any]]] = {}
    for path in sorted(PROFILES.glob("*.yaml")) + sorted((PROFILES / "base").glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        protocol = data.get("protocol") or path.stem
        known = detectors(protocol)
        rules = found.setdefault(protocol, {})
        for rule in data.get("rules") or ():
            if (rule["id"] in known and rule.get("status") != "informational"
                    and not any(key in rule for key in _SCOPED)):
                rules.setdefault(rule["id"], rule)
    return found


def _drawn(rng: random.Random) -> Profile:
    protocol = rng.choice(sorted(_rules()))
    ids = sorted(_rules()[protocol])
    chosen = rng.sample(ids, rng.randint(1, len(ids)))
    return profile_from_mapping({"provider": "drawn", "protocol": protocol, "rules": [
        copy.deepcopy(_rules()[protocol][rule]) for rule in chosen]}, source="drawn.yaml")


@pytest.mark.parametrize("seed", range(examples(12, 400)))
def test_a_drawn_rule_set_is_met_and_normalize_settles(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(3):
        profile = _drawn(rng)
        history, tools, _, _ = glued(rng.randrange(10**6), rng.randint(2, 12))
        policy = Policy(orphan_results=rng.choice(["keep-as-text", "drop"]),
                        unanswered_calls=rng.choice(["synthesize", "drop"]))
        done = normalize(history, profile, tools=tools, policy=policy)
        left = {v.rule for v in check(done.render(), profile)}
        if not _prefix_field_taken(profile):  # the pair that cannot both hold
            left.discard("last-message-role")
        assert left == set(), (seed, profile.protocol, [r.id for r in profile.rules])
        again = normalize(done.history, profile, tools=done.tools, policy=policy)
        assert again.changes == (), (seed, [r.id for r in profile.rules])
