"""Every rule case of every built-in profile, through the official SDK against the emulator:
the `reject` body raises the SDK's exception with exactly the status and text check()
predicts; the `accept` body returns a parsed response, as JSON and as a stream.

Cases come from conformance/probe/cases/rules/<provider>.yaml (a list of {rule, model?,
reject, accept});
valid_<protocol>.yaml hold one valid body each. A provider without a profile or detectors
yet is skipped with the reason the emulator gives.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import anthropic
import fast_yaml
import openai
import pytest
import sdk_calls as calls
from google.genai import errors as genai_errors

import normalizer
from conformance.emulator import Emulator
from conformance.emulator.errors import rule_unknown_text
from conformance.probe.cases import RULES_DIR
from normalizer.scope import scoped

CASES = RULES_DIR  # the rule cases: conformance/probe/cases/rules (the one copy)
GEMINI_MODEL = "gemini-2.5-flash"


def _load(path: Path) -> list[dict[str, Any]]:
    data = fast_yaml.load(path.read_text(encoding="utf-8")) or []
    return data if isinstance(data, list) else [data]


# Cases the SDK cannot send as written: it rewrites the body on the way, so the vendor (and
# the emulator) sees another body than the case. strict: a fix on either side shows up.
SDK_REWRITES = {
    ("gemini", "tool-schema-unsupported"):
        "google-genai 3.4 sends `additionalProperties` as `additional_properties` and "
        "upper-cases `type`, so the error names `additional_properties`, not the case's key",
    ("gemini", "response-schema-unsupported"):
        "google-genai sends a responseSchema through the same Schema type as a tool's "
        "parameters: `additionalProperties` goes as `additional_properties`",
    ("gemini", "tool-arguments-not-object"):
        "google-genai 3.4 refuses a string functionCall.args before sending (pydantic "
        "dict_type): the request never reaches the vendor or the emulator",
    ("gemini", "unknown-message-field"):
        "google-genai refuses a content field it does not know before sending (pydantic "
        "extra_forbidden): only a client of Gemini's REST API can send one",
    ("gemini", "unknown-block-field"):
        "google-genai refuses a part field it does not know before sending (pydantic "
        "extra_forbidden): only a client of Gemini's REST API can send one",
    ("gemini", "conversation-empty"):
        "google-genai refuses empty contents before sending (ValueError: contents are "
        "required.): only a client of Gemini's REST API can send them",
    ("gemini", "image-data-not-base64"):
        "google-genai refuses inline data that is not base64 before sending (its Blob.data "
        "is bytes: bytes_invalid_encoding): only a client of Gemini's REST API can send it",
}


def _params(*, reject: bool = False) -> list[Any]:
    if not CASES.is_dir():
        return [pytest.param(None, None, marks=pytest.mark.skip(reason="no tests/rule_cases"))]
    found = []
    for path in sorted(CASES.glob("*.yaml")):
        if path.stem.startswith("valid_"):
            continue
        for i, case in enumerate(_load(path)):
            why = SDK_REWRITES.get((path.stem, case.get("rule"))) if reject else None
            marks = [pytest.mark.xfail(strict=True, reason=why)] if why else []
            found.append(pytest.param(path.stem, case, marks=marks,
                                      id=f"{path.stem}-{i}-{case.get('rule')}"))
    return found


def _valid_params() -> list[Any]:
    return [pytest.param(path.stem.removeprefix("valid_"), _load(path)[0], id=path.stem)
            for path in sorted(CASES.glob("valid_*.yaml"))] if CASES.is_dir() else []


@cache
def _client(protocol: str, base_url: str) -> Any:
    return calls.client(protocol, base_url)


def _sdk(emu: Emulator, provider: str) -> tuple[str, Any]:
    if provider not in emu:
        pytest.skip(f"{provider} not served: {emu.skipped.get(provider, 'not a provider')}")
    protocol = emu.protocol(provider)
    return protocol, _client(protocol, emu.sdk_base_url(provider))


def expected_class(protocol: str, status: int) -> type[BaseException]:
    if protocol == "gemini":
        return genai_errors.ClientError if status < 500 else genai_errors.ServerError
    module: Any = anthropic if protocol == "anthropic" else openai
    return {400: module.BadRequestError, 404: module.NotFoundError,
            422: module.UnprocessableEntityError}.get(status, module.APIStatusError)


@pytest.mark.parametrize(("provider", "case"), _params(reject=True))
def test_reject_raises_what_check_predicts(emu: Emulator, provider: str,
                                           case: dict[str, Any]) -> None:
    protocol, sdk = _sdk(emu, provider)
    model = case.get("model") or (GEMINI_MODEL if protocol == "gemini" else None)
    predicted = normalizer.check(case["reject"], provider, model=model)
    assert predicted, f"{provider} case {case['rule']}: the reject body passes check()"
    first = predicted[0]
    text = first.message if first.message_known else rule_unknown_text(first.rule)
    with pytest.raises(expected_class(protocol, first.status)) as info:
        calls.send(protocol, sdk, case["reject"], model=model)
    assert calls.sdk_error(info.value) == calls.SdkError(first.status, text)


@pytest.mark.parametrize("stream", [False, True], ids=["json", "sse"])
@pytest.mark.parametrize(("provider", "case"), _params())
def test_accept_returns_a_parsed_reply(emu: Emulator, provider: str, case: dict[str, Any],
                                       stream: bool) -> None:
    protocol, sdk = _sdk(emu, provider)
    model = case.get("model") or (GEMINI_MODEL if protocol == "gemini" else None)
    assert normalizer.check(case["accept"], provider, model=model) == ()
    reply = calls.send(protocol, sdk, case["accept"], model=model, stream=stream)
    assert calls.text_of(protocol, reply) == "ok"


@pytest.mark.parametrize(("protocol", "body"), _valid_params())
def test_valid_body_of_each_protocol(emu: Emulator, protocol: str, body: dict[str, Any]) -> None:
    served = [p for p in emu if emu.protocol(p) == protocol]
    if not served:
        pytest.skip(f"no served provider speaks {protocol}")
    for provider in served:
        sdk = _client(protocol, emu.sdk_base_url(provider))
        for stream in (False, True):
            reply = calls.send(protocol, sdk, body, model=GEMINI_MODEL, stream=stream)
            assert calls.text_of(protocol, reply) == "ok", (provider, stream)


def test_every_enforced_rule_has_a_case(emu: Emulator) -> None:
    """So the tests above cover every rule of every served built-in profile."""
    missing = []
    for provider in emu:
        path = CASES / f"{provider}.yaml"
        have = {case.get("rule") for case in _load(path)} if path.is_file() else set()
        profile = scoped(normalizer.load_profile(provider))  # what check() serves today
        missing += [f"{provider}:{r.id}" for r in profile.rules if r.enforced and r.id not in have]
    assert missing == []
