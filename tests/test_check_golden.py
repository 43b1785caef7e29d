"""check() speed work must not change verdicts: every violation (all its fields, as JSON)
that `check` finds in the raw bodies of fixed-seed damaged 3,000-message histories, and in
300 small messy bodies per protocol (tests/messy_bodies.py: colliding, missing and bad ids,
odd roles, off-skeleton entries), for every built-in provider, hashed and compared with
digests computed by main's code before the check speed work (184f760; recomputed with main at
12b8f3c when merging its new rules: only messy/openai moved, tool-choice-without-tools;
messy/openai_responses for call-item-id-invalid, its other findings byte-identical; the
three anthropic digests again for system-message-placement's newer words, counts unchanged;
messy/openai_responses for reasoning-item-orphan, which no longer flags an id-less item;
the three groq digests for Groq's tool-call-id-missing and messy/xai for xAI's empty-content,
the other rules' counts unchanged; messy/groq again when Groq's assistant-content-not-string
ended on 2025-07-11, its 108 findings gone and the other counts unchanged; messy/deepseek for
deepseek-reasoner's role-alternation, 122 findings added and the other counts unchanged; both
openai_responses digests for reasoning-input-unsupported, the raw bodies naming gpt-4.1-mini,
231 and 212 findings added and the other counts unchanged; messy/anthropic for
prefill-trailing-whitespace, 16 findings added and the other counts unchanged; the
xai_responses, deepseek_responses and azure_openai_responses digests added with their
profiles, the others unchanged; azure_openai_responses's again when its own pasted copies
of three rules came in: the two seeded digests with their counts unchanged, messy/ with 439
call-item-id-invalid and 269 reasoning-item-orphan findings added, the rest unchanged; the
four Responses providers' messy/ digests when the skeleton's problems named the place inside
a OneOf (2026-11-29): the same 11 bodies unreadable, "input[12]: expected an object, got an
integer" for "input: expected a string or an array of items, got an array", counts
unchanged; messy/dashscope for DashScope's user-message-missing, 46 findings added, and
again for its tool-name-too-long, 41 added, the other counts unchanged; messy/cerebras for
Cerebras' tool-choice-without-tools, 15 added, the other counts unchanged; the three moonshot
digests for Moonshot's empty-content, 12, 6 and 314 findings added, the other counts
unchanged; 7/mistral and messy/mistral when Mistral's last-message-role took its error type,
invalid_request_message_order, counts unchanged; messy/deepseek when DeepSeek V4's words for
reasoning-content-required came in, since 2026-04-24, counts unchanged; messy/anthropic when
tool-name-invalid's copy since 2026-09-22 came to flag the characters only (its words
unchanged; a name over 128 characters is tool-name-too-long's now), counts unchanged;
messy/xai for xAI's tool-choice-without-tools, 15 added, the other counts unchanged).
The counts per rule are pinned beside each digest so a failure says which rule moved."""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from normalizer import check, render
from normalizer.check import Violation
from normalizer.errors import WireFormatError
from normalizer.model import thaw
from normalizer.profiles import PROVIDERS, load_profile

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import histories
import messy_bodies

SIZE = 3000
SEEDS = (histories.SEED, 7)
ON = "2026-11-23"  # scoped rules are selected by date: pin it so the digests do not age


@cache
def _body(seed: int, protocol: str) -> dict[str, Any]:
    return render(histories.history(SIZE, seed), protocol, tools=histories.TOOLS)


def as_json(violations: tuple[Violation, ...]) -> str:
    """The violations, every field, as canonical JSON."""
    rows = [[v.rule, v.location, v.status, v.message, thaw(v.error), v.confidence, v.source]
            for v in violations]
    return json.dumps(rows, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def outcome(seed: int, provider: str) -> dict[str, Any]:
    """The digest of `check` on the raw body, and how many violations of each rule."""
    found = check(_body(seed, load_profile(provider).protocol), provider, on=ON)
    return {"sha256": hashlib.sha256(as_json(found).encode()).hexdigest(),
            "rules": dict(sorted(Counter(v.rule for v in found).items()))}


MESSY = 300


@cache
def _messy(protocol: str) -> tuple[dict[str, Any], ...]:
    rng = random.Random(f"messy/{protocol}")
    return tuple(messy_bodies.body(protocol, rng) for _ in range(MESSY))


def messy_outcome(provider: str) -> dict[str, Any]:
    """The digest of `check` on each messy body (or of the WireFormatError it raises)."""
    rows, rules = [], Counter()
    for body in _messy(load_profile(provider).protocol):
        try:
            found = check(body, provider, on=ON)
        except WireFormatError as exc:
            rows.append(f"unreadable: {exc}")
            continue
        rows.append(as_json(found))
        rules.update(v.rule for v in found)
    return {"sha256": hashlib.sha256("\n".join(rows).encode()).hexdigest(),
            "rules": dict(sorted(rules.items()))}


GOLDEN: dict[str, dict[str, Any]] = json.loads(
    (Path(__file__).parent / "data" / "check_golden.json").read_text())


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("provider", PROVIDERS)
def test_check_violations_are_unchanged_by_the_speed_work(seed: int, provider: str) -> None:
    assert outcome(seed, provider) == GOLDEN[f"{seed}/{provider}"]


@pytest.mark.parametrize("provider", PROVIDERS)
def test_check_on_messy_bodies_is_unchanged_by_the_speed_work(provider: str) -> None:
    assert messy_outcome(provider) == GOLDEN[f"messy/{provider}"]


def write_golden() -> None:  # run once, on main's code: python tests/test_check_golden.py
    table = {f"{s}/{p}": outcome(s, p) for s in SEEDS for p in PROVIDERS}
    table.update({f"messy/{p}": messy_outcome(p) for p in PROVIDERS})
    path = Path(__file__).parent / "data" / "check_golden.json"
    path.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    write_golden()
