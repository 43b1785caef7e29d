"""The probe measures, it does not confirm: one loopback emulator serves generated profiles
(random id and name limits, random subsets of rules, all four protocols; fixed seed) and
every probe yields exactly the served profile; a probe of each built-in provider's emulator
reproduces the shipped profile (empty diff), and an edited one shows in the diff.

Probes run in-process through the library call `measure` (the CLI adds printing only),
several at once, against one emulator, to keep the wall time low on two cores."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from conformance.cli.main import main
from conformance.clients import send
from conformance.emulator import Emulator, serve
from conformance.probe.cases import probe_set
from conformance.probe.measure import measure, profile_diff
from conformance.probe.observe import Observation, check_control
from conformance.probe.profile import Probed
from conformance.providers import BUILTIN_PROVIDERS
from normalizer import normalize, parse, render
from normalizer.check import check
from normalizer.profiles import PROVIDERS, Profile, Rule, load_profile, profile_from_mapping
from normalizer.scope import scoped

SEED = 20261123
# Bases whose rules do not overlap the id and name limits (Mistral's 9-character id pattern
# rejects every other id length, so its limit could not be told apart; test_probe_emulator
# covers Mistral).
BASES = {"openai_chat": ("openai", "groq", "deepseek", "xai", "cerebras", "fireworks",
                         "together", "openrouter", "vllm"),
         "openai_responses": ("openai_responses",), "anthropic": ("anthropic",),
         "gemini": ("gemini",)}
MODELS = {"openai_chat": "gpt-4.1-mini", "openai_responses": "gpt-4.1-mini",
          "anthropic": "claude-haiku-4-5", "gemini": "gemini-3-pro-preview"}
PER_PROTOCOL = 3  # 12 generated profiles in all
# The control request's ids have 9 characters and its tool name 11, so limits start there
# (a lower limit rejects the control request itself: test_probe_emulator shows that exit).
ID_LIMITS, NAME_LIMITS = (9, 128), (11, 128)


def _limit_rule(rule_id: str, value: int) -> Rule:
    rule = scoped(load_profile("openai")).rule(rule_id)  # the copy that holds today
    assert rule is not None
    return replace(rule, params=rule.params.merged(max_length=value), inherited=False,
                   since="", until="")


def generated(rng: random.Random, protocol: str, n: int) -> Profile:
    """A profile none of the built-ins is: a random subset of a base's probe-able rules,
    some switched off, and (openai_chat) random id and name limits."""
    base = scoped(load_profile(rng.choice(BASES[protocol])), model=MODELS[protocol])
    cases = {c.rule: c for c in probe_set(protocol).sendable}
    # Rules for other models than the one probed (Gemini 2.5's JSON type with tools,
    # devstral's content beside tool_calls) cannot be measured with it; nor error fields
    # the profile leaves unknown (the emulator answers them in its own words).
    rules = [r for r in base.rules if r.id in cases and r.enforced
             and r.applies_to(MODELS[protocol], when_unknown=True)
             and "unknown" not in r.error.thaw().values()]
    kept = rng.sample(rules, k=rng.randint(1, len(rules)))
    rules = [replace(r, enforced=rng.random() > 0.2) for r in rules if r in kept]
    # A rule whose both bodies break another enforced one is moot there: not measured.
    on = {r.id for r in rules if r.enforced}
    rules = [r for r in rules if not on & set(cases[r.id].moot_if)]
    if protocol == "openai_chat":
        rules = [r for r in rules if r.id not in ("tool-call-id-too-long", "tool-name-too-long")]
        rules = [_limit_rule("tool-call-id-too-long", rng.randint(*ID_LIMITS)),
                 _limit_rule("tool-name-too-long", rng.randint(*NAME_LIMITS)), *rules]
    return replace(base, provider=f"gen-{protocol.replace('_', '-')}-{n}", rules=tuple(rules),
                   source_path=f"<generated {n}>")


def generated_profiles() -> list[Profile]:
    """PER_PROTOCOL profiles per protocol, no two with the same enforced rules."""
    rng = random.Random(SEED)
    made: list[Profile] = []
    for protocol in BASES:
        for n in range(PER_PROTOCOL):
            profile = generated(rng, protocol, n)
            while any(enforced(profile) == enforced(p) for p in made):
                profile = generated(rng, protocol, n)
            made.append(profile)
    return made


def enforced(profile: Profile) -> dict[str, tuple[str, Any, Any]]:
    return {r.id: (r.message, r.error.thaw(), r.params.thaw()) for r in profile.rules
            if r.enforced}


GENERATED = generated_profiles()
EDITED = "openai-edited"


def edited_openai() -> Profile:
    """The shipped openai profile with a shorter id limit, one rule off and one text new."""
    base = load_profile("openai")
    rules = []
    for rule in base.rules:
        if rule.id == "tool-call-id-too-long":
            rule = replace(rule, params=rule.params.merged(max_length=16))
        elif rule.id == "empty-content":
            rule = replace(rule, enforced=False)
        elif rule.id == "tool-result-id-mismatch":
            rule = replace(rule, message="No tool call with id '{id}' before this result.")
        rules.append(rule)
    return replace(base, provider=EDITED, rules=tuple(rules), source_path="<edited>")


@pytest.fixture(scope="module")
def emu() -> Iterator[Emulator]:
    with serve([*GENERATED, *PROVIDERS, edited_openai()]) as running:
        yield running


Measured = tuple[tuple[Observation, ...], Profile]


def probe(emu: Emulator, name: str, model: str) -> Measured:
    protocol, url = emu.protocol(name), emu.sdk_base_url(name)

    def sender(body: Any) -> Any:
        return send(protocol, base_url=url, api_key="k", model=model, body=body)

    probes = probe_set(protocol)
    assert check_control(sender, probes) is None, name
    found, data = measure(sender, probes, Probed(name, url, model, "2026-11-23"),
                          concurrency=4)
    return found, profile_from_mapping(data, source=f"<probe of {name}>")


def probe_many(emu: Emulator, targets: list[tuple[str, str]]) -> dict[str, Measured]:
    with ThreadPoolExecutor(max_workers=4) as pool:
        done = pool.map(lambda t: probe(emu, *t), targets)
        return dict(zip([name for name, _ in targets], done, strict=True))


@pytest.fixture(scope="module")
def measured(emu: Emulator) -> dict[str, Measured]:
    targets = [(p.provider, MODELS[p.protocol]) for p in GENERATED]
    targets += [(name, BUILTIN_PROVIDERS[name].model) for name in PROVIDERS]
    return probe_many(emu, [*targets, (EDITED, "gpt-4.1-mini")])


def test_the_generated_profiles_cover_every_protocol_and_differ() -> None:
    assert len(GENERATED) >= 8
    assert {p.protocol for p in GENERATED} == set(BASES)
    limits = {(p.param("tool-call-id-too-long", "max_length"),
               p.param("tool-name-too-long", "max_length"))
              for p in GENERATED if p.protocol == "openai_chat"}
    assert len(limits) == PER_PROTOCOL


@pytest.mark.parametrize("served", GENERATED, ids=lambda p: p.provider)
def test_probe_yields_exactly_the_generated_profile(served: Profile,
                                                    measured: dict[str, Measured]) -> None:
    found, profile = measured[served.provider]
    assert not [(o.rule, o.reason) for o in found if o.finding == "inconclusive"]
    assert enforced(profile) == enforced(served)
    cases = {c.rule: c for c in probe_set(served.protocol).sendable}
    for rule_id in ("tool-call-id-too-long", "tool-name-too-long"):
        rule = profile.rule(rule_id)
        if rule is not None and rule.enforced:  # the search found it, and the text agrees
            limit = cases[rule_id].limit  # the search's range is the protocol's case's
            assert limit is not None
            assert f"search between {limit.floor} and {limit.ceiling}: " \
                f"{rule.params['max_length']} accepted" in rule.notes
            assert "The error text names the same limit" in rule.notes


@pytest.mark.parametrize("name", PROVIDERS)
def test_probe_of_a_builtin_emulator_reproduces_the_shipped_profile(
        name: str, measured: dict[str, Measured]) -> None:
    found, profile = measured[name]
    diff = profile_diff(load_profile(name), profile, found, BUILTIN_PROVIDERS[name].model)
    assert diff.empty, diff.lines(name)
    if name == "xai":  # the probe's requests do not break xAI's empty-system copy (its
        # sampling copy for grok-3-mini refuses stop, which the probe's request sends)
        assert diff.unmeasured == (
            "empty-content: the probe's request does not break the shipped rule's copy for "
            "grok-3-mini",)


def test_a_reasoning_model_is_measured_in_the_words_the_rule_has_for_it(emu: Emulator) -> None:
    # OpenAI's rule unknown-request-field has other words for its reasoning models
    # (normalizer/scope.py, wordings): a probe of gpt-5-mini reads them as the same rule.
    found, profile = probe(emu, "openai", "gpt-5-mini")
    assert profile_diff(load_profile("openai"), profile, found, "gpt-5-mini").empty
    rule = profile.rule("unknown-request-field")
    assert rule is not None and rule.message == "Unknown parameter: '{field}'."


def test_an_edited_emulator_profile_shows_in_the_diff(measured: dict[str, Measured]) -> None:
    found, profile = measured[EDITED]
    diff = profile_diff(load_profile("openai"), profile, found, "gpt-4.1-mini")
    assert (diff.gained, diff.lost, diff.limits, diff.unmeasured) == (
        (), ("empty-content",), ("tool-call-id-too-long: max_length 64 -> 16",), ())
    # The new text is not a built-in template, so it is written as answered (its id filled).
    (text,) = diff.texts
    assert text.startswith(f"tool-result-id-mismatch: {_message('openai')!r} -> ")
    assert "No tool call with id 'call" in text and not diff.empty
    assert "  changed limits: tool-call-id-too-long: max_length 64 -> 16" in diff.lines("x")


def _message(which: str) -> str:
    rule = load_profile(which).rule("tool-result-id-mismatch")
    assert rule is not None
    return rule.message


def issue_server() -> Profile:
    """The issue's server: ids over 16 characters rejected, a system message anywhere but
    first rejected (no vendor text known: the emulator says so), orphans accepted."""
    base = load_profile("openai")
    late_system = Rule(id="system-message-placement", forbids="a late system message",
                       status=400, message="unknown", source="test", last_verified="2026-11-23",
                       confidence="low")
    rules = [replace(r, params=r.params.merged(max_length=16))
             if r.id == "tool-call-id-too-long" else r
             for r in base.rules if r.id != "orphan-tool-result"]
    return replace(base, provider="issue-server", rules=(late_system, *rules))


def test_the_issue_server_is_measured_and_its_profile_works(tmp_path: Path,
                                                            capsys: Any) -> None:
    with serve([issue_server()]) as emu:
        assert main(["probe", "--protocol", "openai_chat", "--base-url",
                     emu.sdk_base_url("issue-server"), "--model", "m", "--out",
                     str(tmp_path / "acme.yaml")]) == 0
    profile = load_profile(tmp_path / "acme.yaml")
    assert profile.param("tool-call-id-too-long", "max_length") == 16
    assert profile.enforces("system-message-placement")
    assert not profile.enforces("orphan-tool-result")
    body = {"model": "m", "messages": [{"role": "user", "content": "Hi"},
                                       {"role": "system", "content": "Be brief."}]}
    (tmp_path / "late.json").write_text(json.dumps(body))
    capsys.readouterr()
    assert main(["check", str(tmp_path / "late.json"), "--profile",
                 str(tmp_path / "acme.yaml")]) == 1
    assert "[system-message-placement]" in capsys.readouterr().out
    fixed = normalize(parse(body, "openai_chat"), profile)
    assert check(render(fixed.history, "openai_chat", model="m"), profile) == ()


def test_the_adjacency_of_deepseeks_responses_endpoint_is_measured(
        measured: dict[str, Measured]) -> None:
    # missing-tool-result's variant (a call answered after a message item) is sent once the
    # rule is found enforced: DeepSeek's endpoint refuses it, so the written rule has the
    # parameter; OpenAI's takes it, so its rule has none.
    for name, adjacent in (("deepseek_responses", True), ("openai_responses", None),
                           ("xai_responses", None), ("azure_openai_responses", None)):
        found, profile = measured[name]
        rule = profile.rule("missing-tool-result")
        assert rule is not None and rule.enforced, name
        assert rule.params.get("adjacent") == adjacent, name
        assert rule.params.get("adjacent") == load_profile(name).param(
            "missing-tool-result", "adjacent"), name
        (seen,) = [o for o in found if o.rule == "missing-tool-result"]
        sent = 4 if adjacent else 3  # the variant's neighbour only after its refusal
        assert len(seen.exchanges) == sent and seen.attempts == sent, name
        assert ("refused" if adjacent else "was accepted: not set") in rule.notes, name
