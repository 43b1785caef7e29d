"""Every cassette recorded against the emulators holds the answer the emulator would give
today: a rule added, changed or rescoped since a recording makes its cassettes stale (the
matrix would keep publishing the old verdict), so they must be recorded again in the same
change. Each recorded request goes through the emulator's own decision (no HTTP)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from conformance.cassettes import read_cassette
from conformance.emulator.decide import Endpoint, Request, decide
from normalizer.check import check
from normalizer.profiles import load_profile

ROOT = Path(__file__).resolve().parents[1] / "cassettes"


def _recorded() -> Iterator[tuple[Path, str, dict[str, Any]]]:
    """(cassette, provider, interaction) of every cassette recorded against an emulator."""
    for path in sorted(ROOT.glob("*/*/*.yaml")):
        data = read_cassette(path)
        if data.get("metadata", {}).get("provenance", {}).get("backend") != "emulator":
            continue
        for interaction in data["interactions"]:
            yield path, path.parts[-3], interaction


def _answer(endpoint: Endpoint, provider: str, request: dict[str, Any]) -> tuple[int, str]:
    parts = urlsplit(request["uri"])
    body = request["body"]
    headers = {k.lower(): v[0] if isinstance(v, list) else v
               for k, v in (request.get("headers") or {}).items()}
    reply = decide(endpoint, Request(request["method"], parts.path.removeprefix(f"/{provider}"),
                                     dict(parse_qsl(parts.query)), headers,
                                     body.encode() if isinstance(body, str) else body or b""),
                   "req_test", check)
    return reply.status, reply.rule


def test_emulator_cassettes_hold_todays_answers() -> None:
    endpoints: dict[str, Endpoint] = {}
    stale, seen = [], 0
    for path, provider, interaction in _recorded():
        endpoint = endpoints.get(provider) or endpoints.setdefault(
            provider, Endpoint.of(load_profile(provider)))
        status, rule = _answer(endpoint, provider, interaction["request"])
        recorded = interaction["response"]["status"]["code"]
        seen += 1
        if status != recorded:
            stale.append(f"{path.relative_to(ROOT.parent)}: recorded {recorded}, today "
                         f"{status} ({rule or 'accepted'})")
    assert seen > 4000  # the suite's cassettes, not an empty glob
    assert stale == [], ("re-record with `conformance record --provider P --backend emulator "
                         "--yes -k NAME`:\n" + "\n".join(stale[:40]))


def _unsent() -> Iterator[tuple[Path, str, str, str]]:
    """(cassette, provider, scenario file, mode) of every emulator cassette that holds no
    interaction: the item's SDK refused to send its request when it was recorded."""
    for path in sorted(ROOT.glob("*/*/*.yaml")):
        data = read_cassette(path)
        if data.get("metadata", {}).get("provenance", {}).get("backend") != "emulator" \
                or data["interactions"]:
            continue
        name, mode = path.name.removesuffix(".yaml").rsplit(".", 1)
        yield path, path.parts[-3], f"scenarios/{path.parts[-2]}/{name}.yaml", mode


def test_empty_cassettes_are_still_refused_by_the_sdk() -> None:
    """A cassette recorded empty because the SDK refused the request goes stale when a rule
    or repair changes the request so that the SDK would now send it (the item then reads as
    a cassette mismatch, not the vendor's verdict). Each such request is handed to the SDK
    with a base URL on which nothing listens: a refusal fails before any connection."""
    from conformance.bodies import build
    from conformance.clients import send
    from conformance.providers import select
    from conformance.scenarios.load import load_scenario
    from conformance.scenarios.replay import resolve

    sendable, seen = [], 0
    for path, provider, scenario, mode in _unsent():
        (target,) = select([provider])
        request = build(resolve(load_scenario(ROOT.parent / scenario)), target, mode)
        outcome = send(target.protocol, base_url="http://127.0.0.1:9", api_key="test-key",
                       model=request.model, body=request.body)
        seen += 1
        if outcome.failure != "sdk":
            sendable.append(f"{path.relative_to(ROOT.parent)}: the SDK sends it now "
                            f"({outcome.failure or outcome.status})")
    assert seen > 5  # the SDK refusals the matrix documents, not an empty glob
    assert sendable == [], ("re-record with `conformance record --provider P --backend "
                            "emulator --yes -k NAME`:\n" + "\n".join(sendable))
