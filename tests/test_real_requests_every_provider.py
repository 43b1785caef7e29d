"""Every real request body for every built-in provider (issue 17): `normalize_request` of a
body from tests/data/real_requests, for each provider in PROVIDERS, yields a body `check`
accepts for that provider. A pair that cannot get there is listed in GAPS with its reason
(none today); a listed pair that starts passing fails the test, so the list stays true."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from normalizer import PROVIDERS, check, normalize_request

ROOT = Path(__file__).resolve().parent / "data" / "real_requests"
REQUESTS = sorted(ROOT.rglob("*.yaml"))
# (protocol/stem, provider): reason. Empty: every real body reaches every provider.
GAPS: dict[tuple[str, str], str] = {}


@pytest.mark.parametrize("path", REQUESTS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_real_request_normalizes_for_every_provider(path: Path) -> None:
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    failures: dict[str, str] = {}
    for provider in sorted(PROVIDERS):
        out = normalize_request(doc["request"], doc["protocol"], provider)
        found = check(out.body, provider)
        if found:
            failures[provider] = "; ".join(f"{v.rule} at {v.location}" for v in found)
    key = f"{path.parent.name}/{path.stem}"
    expected = {provider for (body, provider) in GAPS if body == key}
    assert set(failures) == expected, failures


def test_the_sweep_covers_every_built_in_provider() -> None:
    assert len(REQUESTS) >= 68 and len(PROVIDERS) >= 17
