"""Every rule id × protocol is measured by a probe case, or documented: not applicable (with
the reason), or a gap (no detector yet). A rule with a detector always has a probe case, and
a not-applicable pair has no detector (nothing to probe)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conformance.probe.cases import probe_set
from conformance.probe.coverage import NOT_APPLICABLE, pairs, status
from conformance.probe.observe import max_requests
from normalizer.check import detectors
from normalizer.profiles import builtin_profiles
from normalizer.rules import RULE_IDS
from normalizer.wire import PROTOCOLS


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_every_rule_with_a_detector_has_a_probe_case(protocol: str) -> None:
    cases = {c.rule for c in probe_set(protocol).cases}
    assert set(detectors(protocol)) - cases == set()
    assert cases <= set(detectors(protocol)), "a probe case for a rule nothing can detect"


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_every_rule_is_a_case_or_documented(protocol: str) -> None:
    cases = {c.rule for c in probe_set(protocol).cases}
    for rule in RULE_IDS:
        said = status(rule, protocol, rule in cases)
        assert said == "case" or said.startswith(("n/a: ", "gap: ")), (rule, said)
        if (rule, protocol) in NOT_APPLICABLE:
            assert rule not in cases and rule not in detectors(protocol), (rule, protocol)


def test_the_table_names_only_known_rules_and_protocols() -> None:
    assert {r for r, _ in NOT_APPLICABLE} <= set(RULE_IDS)
    assert {p for _, p in NOT_APPLICABLE} <= set(PROTOCOLS)
    assert all(reason.strip() for reason in NOT_APPLICABLE.values())


def test_call_turn_placement_applies_to_gemini_only() -> None:
    assert status("call-turn-placement", "gemini", True) == "case"
    for protocol in ("openai_chat", "openai_responses", "anthropic"):
        assert status("call-turn-placement", protocol, False).startswith("n/a: Gemini turn")


def test_system_message_placement_is_probed_on_openai_chat() -> None:
    case = probe_set("openai_chat").case("system-message-placement")
    assert case is not None
    roles = [m["role"] for m in case.reject.thaw()["messages"]]
    assert roles.index("system") > 0


def test_every_rule_a_builtin_profile_uses_is_probed() -> None:
    for profile in builtin_profiles():
        cases = {c.rule for c in probe_set(profile.protocol).cases}
        assert {r.id for r in profile.rules} <= cases, profile.provider


def test_the_counts_are_what_the_docs_say() -> None:
    counts = {kind: sum(1 for rule, protocol in pairs()
                        if status(rule, protocol, probe_set(protocol).case(rule) is not None)
                        .startswith(kind)) for kind in ("case", "n/a", "gap")}
    assert sum(counts.values()) == len(RULE_IDS) * len(PROTOCOLS)
    assert counts == {"case": 216, "n/a": 147, "gap": 209}


ROOT = Path(__file__).resolve().parent.parent


def test_the_docs_transcripts_and_request_counts_match_the_probe_sets() -> None:
    # The transcripts are real runs; they had drifted by 35 rules unnoticed.
    text = (ROOT / "docs" / "probe.md").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    sendable = {p: len(probe_set(p).sendable) for p in PROTOCOLS}
    at_most = {p: max_requests(probe_set(p)) for p in PROTOCOLS}
    runs = re.findall(r"^probing \S+ \((\w+), model [^)]*\): control request\n"
                      r"control accepted; probing (\d+) rules", text + readme,
                      flags=re.MULTILINE)
    assert len(runs) >= 3 and all(int(n) == sendable[p] for p, n in runs), runs
    dry = re.findall(r"^dry run: (\d+) requests at most to \S+ \((\w+),", text, re.MULTILINE)
    assert dry and all(int(n) == at_most[p] for n, p in dry), dry
    said = {p: int(n) for n, p in re.findall(r"(\d+) for\s+`(\w+)`", text)}
    assert said == at_most
