"""New providers are first-class in runs: a providers-file entry named like a built-in merges
over it; a provider the scenarios do not name is judged by its profile's prediction."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from conformance.classify import Verdict
from conformance.expectations import BASIS, compared_with_prediction, prediction_summary
from conformance.providers import BUILTIN_PROVIDERS, Provider, load_providers_file, select
from normalizer.check import Violation


def providers_file(tmp_path: Path, *entries: dict[str, str]) -> Path:
    path = tmp_path / "providers.yaml"
    path.write_text(yaml.safe_dump({"providers": list(entries)}))
    return path


def test_an_entry_named_like_a_builtin_overrides_its_model_and_base_url(tmp_path: Path) -> None:
    found = load_providers_file(providers_file(
        tmp_path, {"name": "anthropic", "model": "claude-sonnet-4-5",
                   "base_url": "http://127.0.0.1:8700/anthropic"}))
    merged = found["anthropic"]
    builtin = BUILTIN_PROVIDERS["anthropic"]
    assert (merged.model, merged.base_url) == ("claude-sonnet-4-5",
                                               "http://127.0.0.1:8700/anthropic")
    assert (merged.protocol, merged.api_key_env, merged.profile, merged.builtin) == (
        builtin.protocol, builtin.api_key_env, "anthropic", True)
    assert select(["anthropic"], found) == [merged]


def test_a_new_provider_still_needs_its_fields(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"providers\[0\]\.protocol: required string"):
        load_providers_file(providers_file(tmp_path, {"name": "acme", "model": "m"}))


NEW = Provider("acme", "openai_chat", "http://127.0.0.1:1/v1", "", "m", "openai",
               builtin=False)
BUILTIN = BUILTIN_PROVIDERS["openai"]
ORPHAN = Violation("orphan-tool-result", "messages[1]", 400, "orphan")
ACCEPT, REJECT = Verdict("accept", 200), Verdict("reject", 400, message="bad")


def test_without_expectation_a_new_provider_is_judged_by_its_prediction() -> None:
    assert compared_with_prediction(NEW, None, "raw", REJECT, (ORPHAN,)) == ""
    assert compared_with_prediction(NEW, None, "raw", ACCEPT, ()) == ""
    said = compared_with_prediction(NEW, None, "raw", ACCEPT, (ORPHAN,))
    assert said == f"{BASIS}: the profile predicts reject (orphan-tool-result), got accept"


def test_the_usual_judgement_applies_otherwise() -> None:
    assert compared_with_prediction(NEW, "accept", "raw", REJECT, ()) is None
    assert compared_with_prediction(NEW, None, "normalized", REJECT, ()) is None
    assert compared_with_prediction(BUILTIN, None, "raw", REJECT, ()) is None
    inconclusive = Verdict("inconclusive", 500, reason="HTTP 500")
    assert compared_with_prediction(NEW, None, "raw", inconclusive, ()) is None


def test_the_summary_says_what_it_compared_with() -> None:
    rows = [{"mode": "raw", "expected": None, "verdict": "reject", "problem": "",
             "provider": "acme"},
            {"mode": "raw", "expected": None, "verdict": "accept", "problem": f"{BASIS}: x",
             "provider": "acme"},
            {"mode": "normalized", "expected": "accept", "verdict": "accept", "problem": "",
             "provider": "acme"}]
    assert prediction_summary(rows) == [f"2 raw items of acme {BASIS}; 1 differ from it"]
    assert prediction_summary(rows[2:]) == []
