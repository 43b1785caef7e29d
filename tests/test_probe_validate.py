"""Profiles are validated when loaded (normalizer/profiles/validate.py): a rule with no
detector for the profile's protocol, an unknown key or a bad value is a ProfileError naming
the file and the rule; `conformance check --profile` exits 2 on it, never 1 or a traceback."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from conformance.cli.main import main
from normalizer.errors import ProfileError
from normalizer.profiles import PROVIDERS, load_profile


def rule(**changes: Any) -> dict[str, Any]:
    base = {"id": "orphan-tool-result", "forbids": "a tool result without its call",
            "status": 400, "message": "unknown", "source": "probe of http://127.0.0.1:1/v1",
            "last_verified": "2026-11-23", "confidence": "high"}
    return {k: v for k, v in {**base, **changes}.items() if v is not None}


def write(tmp_path: Path, *rules: dict[str, Any], **top: Any) -> Path:
    path = tmp_path / "acme.yaml"
    data = {"provider": "acme", "protocol": "openai_chat", "rules": list(rules), **top}
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


CASES = [
    ({"id": "call-turn-placement"}, "rules[1] (call-turn-placement): no detector for "
                                    "protocol openai_chat"),
    ({"colour": "red"}, "rules[1] (orphan-tool-result): unknown keys ['colour']"),
    ({"id": "orphan-tool-results"}, "rules[1].id (orphan-tool-results): 'orphan-tool-results' "
                                    "is not a known rule id"),
    ({"status": "400"}, "rules[1].status (orphan-tool-result): expected an HTTP status code"),
    ({"confidence": "medium"}, "rules[1].confidence (orphan-tool-result): 'medium' is not "
                               "one of ('high', 'low')"),
    ({"enforced": "yes"}, "rules[1].enforced (orphan-tool-result): expected true or false"),
    ({"params": [1]}, "rules[1].params (orphan-tool-result): expected a mapping, got list"),
    ({"id": "tool-call-id-too-long", "params": {"max_length": -4}},
     "rules[1].params.max_length (tool-call-id-too-long): expected a positive integer, "
     "got -4"),
    ({"id": "tool-call-id-too-long"},
     "rules[1].params (tool-call-id-too-long): an enforced tool-call-id-too-long needs "
     "max_length"),
    ({"id": "tool-name-invalid", "params": {"pattern": "([a-z"}},
     "rules[1].params.pattern (tool-name-invalid): not a valid regular expression"),
    ({"source": ""}, "rules[1].source (orphan-tool-result): required non-empty string"),
]


@pytest.mark.parametrize(("change", "said"), CASES, ids=[c[1][:40] for c in CASES])
def test_a_bad_rule_is_a_located_profile_error(tmp_path: Path, change: dict[str, Any],
                                               said: str) -> None:
    path = write(tmp_path, rule(id="missing-tool-result"), rule(**change))
    with pytest.raises(ProfileError) as caught:
        load_profile(path)
    assert str(caught.value).startswith(f"{path}: {said}")


def test_bad_top_level_keys_and_protocols_are_located(tmp_path: Path) -> None:
    with pytest.raises(ProfileError, match=r"acme.yaml: top level: unknown keys \['rulez'\]"):
        load_profile(write(tmp_path, rule(), rulez=[]))
    with pytest.raises(ProfileError, match=r"acme\.yaml: protocol: 'openai_chats' is not one"):
        load_profile(write(tmp_path, rule(), protocol="openai_chats"))


def test_a_lenient_limit_rule_may_leave_the_limit_out(tmp_path: Path) -> None:
    loaded = load_profile(write(tmp_path, rule(id="tool-call-id-too-long", enforced=False)))
    assert not loaded.enforces("tool-call-id-too-long")


def test_every_builtin_profile_is_valid() -> None:
    assert [load_profile(name).provider for name in PROVIDERS] == list(PROVIDERS)


def test_check_with_a_bad_profile_exits_2_and_names_file_and_rule(tmp_path: Path,
                                                                  capsys: Any) -> None:
    body = tmp_path / "body.json"
    body.write_text(json.dumps({"model": "m", "messages": [{"role": "user", "content": "Hi"}]}))
    bad = write(tmp_path, rule(), rule(id="call-turn-placement"))
    assert main(["check", str(body), "--profile", str(bad)]) == 2
    err = capsys.readouterr().err
    assert f"{bad}: rules[1] (call-turn-placement): no detector for protocol openai_chat" in err
    assert "Traceback" not in err
    good = write(tmp_path, rule())
    assert main(["check", str(body), "--profile", str(good)]) == 0


def test_a_profile_built_in_code_for_normalize_may_lack_detectors() -> None:
    """Pass tests build profiles with rules only normalize reads; files must be checkable."""
    from normalizer.profiles import profile_from_mapping

    data = {"provider": "acme", "protocol": "openai_chat",
            "rules": [rule(id="reasoning-input-unsupported")]}
    assert profile_from_mapping(data).enforces("reasoning-input-unsupported")
    with pytest.raises(ProfileError, match="no detector for protocol openai_chat"):
        profile_from_mapping(data, source="acme.yaml", check_detectors=True)
