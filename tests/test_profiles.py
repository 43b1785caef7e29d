"""The profile loader: format checks, inheritance from a protocol's base rules."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from normalizer.errors import ProfileError, UnknownProviderError
from normalizer.profiles import PROVIDERS, load_profile, profile_from_mapping


def rule(rule_id: str, **extra: object) -> dict[str, object]:
    return {"id": rule_id, "forbids": "x", "status": 400, "message": "unknown",
            "source": "https://example.invalid/doc", "last_verified": "2026-11-22",
            "confidence": "low", **extra}


def write(tmp: Path, name: str, data: dict[str, object]) -> Path:
    path = tmp / name
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


def test_inherits_base_rules_marked_and_in_base_order(tmp_path: Path) -> None:
    base_dir = tmp_path / "base"
    base_dir.mkdir()
    write(base_dir, "openai_chat.yaml", {"provider": "base", "protocol": "openai_chat", "rules": [
        rule("orphan-tool-result"), rule("missing-tool-result"), rule("duplicate-tool-call-id")]})
    data = {"provider": "acme", "protocol": "openai_chat", "inherits": "openai_chat",
            "disable": ["duplicate-tool-call-id"],
            "rules": [rule("missing-tool-result", confidence="high"), rule("empty-content")]}
    profile = profile_from_mapping(data, base_dir=base_dir)
    assert [r.id for r in profile.rules] == ["orphan-tool-result", "missing-tool-result",
                                             "empty-content"]
    assert [r.inherited for r in profile.rules] == [True, False, False]
    assert profile.rule("missing-tool-result").confidence == "high"
    assert profile.enforces("orphan-tool-result") and not profile.enforces("duplicate-tool-call-id")


def test_first_puts_own_rules_before_the_inherited(tmp_path: Path) -> None:
    base_dir = tmp_path / "base"
    base_dir.mkdir()
    write(base_dir, "openai_chat.yaml", {"provider": "base", "protocol": "openai_chat", "rules": [
        rule("orphan-tool-result"), rule("missing-tool-result")]})
    data = {"provider": "acme", "protocol": "openai_chat", "inherits": "openai_chat",
            "first": ["tool-call-id-missing"],
            "rules": [rule("empty-content"), rule("tool-call-id-missing")]}
    profile = profile_from_mapping(data, base_dir=base_dir)
    assert [r.id for r in profile.rules] == ["tool-call-id-missing", "orphan-tool-result",
                                             "missing-tool-result", "empty-content"]


def test_dates_from_yaml_become_iso_strings(tmp_path: Path) -> None:
    path = tmp_path / "p.yaml"
    path.write_text("provider: p\nprotocol: anthropic\nrules:\n"
                    "  - {id: empty-content, forbids: x, status: 400, message: unknown,\n"
                    "     source: s, last_verified: 2026-11-22, confidence: low}\n")
    assert load_profile(path).rules[0].last_verified == "2026-11-22"


def test_param_only_for_enforced_rules() -> None:
    profile = profile_from_mapping({"provider": "p", "protocol": "openai_chat", "rules": [
        rule("tool-call-id-too-long", params={"max_length": 40}),
        rule("tool-call-id-pattern", params={"pattern": "x"}, enforced=False)]})
    assert profile.param("tool-call-id-too-long", "max_length") == 40
    assert profile.param("tool-call-id-pattern", "pattern", "none") == "none"


@pytest.mark.parametrize(("data", "where"), [
    ({"provider": "p", "protocol": "cohere"}, "protocol"),
    ({"provider": "p", "protocol": "anthropic", "colour": 1}, "unknown keys"),
    ({"provider": "p", "protocol": "anthropic", "rules": [rule("made-up-rule")]}, "rules[0].id"),
    ({"provider": "p", "protocol": "anthropic",
      "rules": [rule("empty-content", confidence="medium")]}, "rules[0].confidence"),
    ({"provider": "p", "protocol": "anthropic",
      "rules": [rule("empty-content", status="400")]}, "rules[0].status"),
    ({"provider": "p", "protocol": "anthropic",
      "rules": [rule("empty-content"), rule("empty-content")]}, "listed twice"),
    ({"provider": "p", "protocol": "anthropic", "rules": [rule("empty-content", message="")]},
     "rules[0].message"),
    ({"provider": "p", "protocol": "anthropic", "first": "empty-content",
      "rules": [rule("empty-content")]}, "first: expected a list of rule ids"),
    ({"provider": "p", "protocol": "anthropic", "first": ["tools-not-declared"],
      "rules": [rule("empty-content")]}, "'tools-not-declared' is not among the profile's own"),
    # A bare `null` in YAML is None, which would make empty-content match every message.
    ({"provider": "p", "protocol": "openai_chat",
      "rules": [rule("empty-content", params={"empty": [None, "missing"]})]},
     'rules[0].params.empty (empty-content): a null in the list: write "null" in quotes'),
    # A bare `on:` key in YAML is True: the rule would read its default "on" values.
    ({"provider": "p", "protocol": "openai_chat",
      "rules": [rule("tool-choice-with-thinking", params={True: ["enabled"]})]},
     "rules[0].params (tool-choice-with-thinking): a key that is not a string (True)"),
])
def test_bad_profiles_say_where(data: dict[str, object], where: str) -> None:
    with pytest.raises(ProfileError, match=__import__("re").escape(where)):
        profile_from_mapping(data, source="t.yaml")


def test_unknown_provider_lists_builtins() -> None:
    with pytest.raises(UnknownProviderError) as info:
        load_profile("openaii")
    assert all(name in str(info.value) for name in PROVIDERS)


def test_missing_profile_file() -> None:
    with pytest.raises(ProfileError, match="no such profile file"):
        load_profile("nowhere/acme.yaml")


def test_a_body_crossing_to_a_compatible_vendor_names_that_vendors_model() -> None:
    # A crossing body has no model for the target; the OpenAI reference model is no answer
    # for Mistral or DeepSeek (their API does not serve it), so the profile names its own.
    from conformance.providers import BUILTIN_PROVIDERS
    from normalizer import normalize_request

    body = {"model": "claude-haiku-4-5", "max_tokens": 10,
            "messages": [{"role": "user", "content": "hi"}]}
    for name, provider in BUILTIN_PROVIDERS.items():
        assert load_profile(name).default_model == provider.model
        if provider.protocol == "anthropic":
            continue  # the body's own model stays
        out = normalize_request(body, "anthropic", name)
        if provider.protocol != "gemini":
            assert out.body["model"] == provider.model, name
        # OpenAI's Responses API takes no limit below 16 (max-tokens-too-small).
        raised = ["raise-max-tokens"] if load_profile(name).enforces("max-tokens-too-small") \
            else []
        assert [c.code for c in out.changes] == ["replace-model", *raised], name
        assert repr(provider.model) in out.changes[0].what
    assert load_profile("mistral").default_model == "mistral-small-latest"

