"""Every real request body for every built-in provider (issue 17): `normalize_request` of a
body from tests/data/real_requests, for each provider in PROVIDERS, yields a body `check`
accepts for that provider, and every user text and tool-result text of the body is in it
or named (by its call id) in a lossy change. A pair that cannot get there is listed in GAPS
with its reason (none today); a listed pair that starts passing fails the test, so the list
stays true."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import fast_yaml
import pytest

from normalizer import (
    PROVIDERS,
    NormalizedRequest,
    Text,
    ToolResult,
    check,
    load_profile,
    normalize_request,
    parse,
)

ROOT = Path(__file__).resolve().parent / "data" / "real_requests"
REQUESTS = sorted(ROOT.rglob("*.yaml"))
# (protocol/stem, provider): reason. Empty: every real body reaches every provider.
GAPS: dict[tuple[str, str], str] = {}


@pytest.mark.parametrize("path", REQUESTS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_real_request_normalizes_for_every_provider(path: Path) -> None:
    doc = fast_yaml.load(path.read_text(encoding="utf-8"))
    failures: dict[str, str] = {}
    texts = _texts(doc["request"], doc["protocol"])
    for provider in sorted(PROVIDERS):
        profile = load_profile(provider)
        # Gemini names the model in the URL, not the body: the caller always knows it, so
        # both sides are asked for the profile's model (unknown, check() would keep the
        # rules of every model, those of the models that do not think too).
        model = profile.default_model if profile.protocol == "gemini" else None
        out = normalize_request(doc["request"], doc["protocol"], provider, model=model)
        found = check(out.body, provider, model=model)
        if found:
            failures[provider] = "; ".join(f"{v.rule} at {v.location}" for v in found)
        missing = _missing(texts, out)
        assert not missing, (provider, missing)
    key = f"{path.parent.name}/{path.stem}"
    expected = {provider for (body, provider) in GAPS if body == key}
    assert set(failures) == expected, failures


def _texts(body: dict[str, Any], protocol: str) -> list[tuple[str, str | None]]:
    """Each user text and each text of a tool result, with the result's call id."""
    found: list[tuple[str, str | None]] = []
    for message in parse(body, protocol):
        for part in message.parts:
            if message.role == "user" and isinstance(part, Text):
                found.append((part.text, None))
            elif isinstance(part, ToolResult):
                content = part.content
                found.extend((t, part.call_id) for t in ([content] if isinstance(content, str)
                             else [p.text for p in content if isinstance(p, Text)]))
    return [(text, call_id) for text, call_id in found if text.strip()]


def _missing(texts: list[tuple[str, str | None]], out: NormalizedRequest) -> list[str]:
    sent = json.dumps(out.body, ensure_ascii=False)
    lossy = " ".join(c.what for c in out.changes if not c.lossless)
    return [text[:60] for text, call_id in texts
            if json.dumps(text, ensure_ascii=False)[1:-1] not in sent
            and not (call_id and call_id in lossy)]


def test_the_sweep_covers_every_built_in_provider() -> None:
    assert len(REQUESTS) >= 68 and len(PROVIDERS) >= 17
