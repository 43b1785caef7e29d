"""The emulator answers each observed request (evidence/) with the observed status and the
vendor's verbatim text, straight through decide() (no server per observation)."""

from __future__ import annotations

import json

import pytest

import normalizer
from conformance.classify import error_fields
from conformance.emulator.decide import Endpoint, Request, decide
from conformance.evidence.agree import profile_for
from conformance.evidence.load import EVIDENCE_DIR, load_evidence

ROUTES = {"openai_chat": "/v1/chat/completions", "openai_responses": "/v1/responses",
          "anthropic": "/v1/messages"}
SERVED = [o for o in load_evidence(EVIDENCE_DIR).observations if profile_for(o)[0] is not None]


def ask(obs, body: dict) -> tuple[int, dict]:  # type: ignore[no-untyped-def]
    profile, _ = profile_for(obs)
    assert profile is not None
    path = ROUTES.get(obs.protocol) or f"/v1beta/models/{obs.model}:generateContent"
    request = Request("POST", path, {}, {"content-type": "application/json",
                                         "anthropic-version": "2023-06-01"},
                      json.dumps(body).encode())
    reply = decide(Endpoint.of(profile), request, "req_x", normalizer.check)
    return reply.status, json.loads(reply.body) if reply.body.startswith(b"{") else {}


def message(answer: dict) -> str:
    return error_fields(answer)[2]  # as a run reads it, whatever the vendor's shape


@pytest.mark.parametrize("obs", [o for o in SERVED if not o.accepted], ids=lambda o: o.path)
def test_an_observed_rejection_is_answered_verbatim(obs) -> None:  # type: ignore[no-untyped-def]
    status, answer = ask(obs, dict(obs.request))
    assert (status, message(answer)) == (obs.status, obs.error)


def test_an_observed_accept_is_answered_200_even_where_check_disagrees() -> None:
    gaps = [o for o in SERVED if o.accepted and o.gap]
    exact = [o for o in SERVED if o.accepted and not o.gap]
    for obs in gaps[:3] + exact[:3]:
        assert ask(obs, dict(obs.request))[0] == 200, obs.path


def test_a_body_not_observed_is_decided_by_check() -> None:
    obs = next(o for o in SERVED if o.gap and not o.accepted and o.vendor == "xai")
    changed = {**obs.request, "temperature": 0.5}
    status, answer = ask(obs, changed)
    assert status == 200 and "choices" in answer  # check() does not model this rejection


def test_concurrent_first_requests_read_the_evidence_once(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # A fresh server's first requests come together, one thread each: each used to read the
    # whole evidence folder (32 clients at once took 43 s).
    import shutil
    import threading

    from conformance.emulator import observed

    source = EVIDENCE_DIR / "anthropic" / "too-many-media-rejected-claude-code-2026-02.yaml"
    (tmp_path / "anthropic").mkdir()
    shutil.copy(source, tmp_path / "anthropic" / source.name)
    reads: list[object] = []

    def counted(root):  # type: ignore[no-untyped-def]
        reads.append(root)
        return load_evidence(root)

    monkeypatch.setattr(observed, "load_evidence", counted)
    (obs,) = load_evidence(tmp_path).observations
    found: list[object] = []
    threads = [threading.Thread(target=lambda: found.append(
        observed.lookup("anthropic", obs.request, root=tmp_path))) for _ in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(reads) == 1
    assert found == [obs] * 16
