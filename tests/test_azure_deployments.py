"""Azure OpenAI's body names the deployment, not the model: the rules of OpenAI's reasoning
models apply where the deployment is named after its model, or where check or normalize is
given the model; a deployment named otherwise is not checked (no false refusal). Sent
through the official SDK to the Azure emulator, which reads the model off the body as the
profile does."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import sdk_calls as calls

from conformance.cli.main import main
from normalizer import check, normalize, normalize_request, parse

PROVIDER = "azure_openai"
OPTIONS = {"max_tokens": 256, "temperature": 0.2}
BOTH = {"max-tokens-field-unsupported", "sampling-parameter-fixed"}


def _body(model: str) -> dict[str, Any]:
    return {"model": model, **OPTIONS,
            "messages": [{"role": "user", "content": "Name a colour."}]}


def test_a_deployment_named_after_its_model_is_checked() -> None:
    assert {v.rule for v in check(_body("gpt-5-mini"), PROVIDER)} == BOTH


def test_a_deployment_named_otherwise_is_checked_only_with_the_model_given() -> None:
    assert check(_body("prod-chat"), PROVIDER) == ()
    assert {v.rule for v in check(_body("prod-chat"), PROVIDER, model="gpt-5-mini")} == BOTH


def test_normalize_for_the_model_and_render_for_the_deployment(emu: Any) -> None:
    fixed = normalize(parse(_body("prod-chat"), "openai_chat"), PROVIDER, model="gpt-5-mini",
                      options=OPTIONS)
    assert {c.code for c in fixed.changes} == {"move-max-tokens", "drop-unfixed-sampling"}
    out = fixed.render(model="prod-chat")
    assert out["model"] == "prod-chat" and out["max_completion_tokens"] == 256
    assert "max_tokens" not in out and "temperature" not in out
    assert check(out, PROVIDER, model="gpt-5-mini") == ()
    sdk = calls.client("openai_chat", emu.sdk_base_url(PROVIDER))
    assert calls.send("openai_chat", sdk, out).choices
    assert calls.send("openai_chat", sdk, {**out, "model": "gpt-5-mini"}).choices
    # The unrepaired body, for a deployment named after its model: refused in OpenAI's words.
    (first,) = check(_body("gpt-5-mini"), PROVIDER)[:1]
    assert calls.refused("openai_chat", sdk, _body("gpt-5-mini")) == \
        calls.SdkError(400, first.message)


def test_normalize_request_keeps_the_deployment_and_repairs_for_the_model(emu: Any) -> None:
    fixed = normalize_request(_body("prod-chat"), "openai_chat", PROVIDER, model="gpt-5-mini",
                              deployment="prod-chat")
    assert fixed.body["model"] == "prod-chat"
    assert {c.code for c in fixed.changes} == {"move-max-tokens", "drop-unfixed-sampling"}
    assert check(fixed.body, PROVIDER, model="gpt-5-mini") == ()
    sdk = calls.client("openai_chat", emu.sdk_base_url(PROVIDER))
    assert calls.send("openai_chat", sdk, {**fixed.body, "model": "gpt-5-mini"}).choices
    # model= alone names the model in the body: the deployment's name is lost.
    assert normalize_request(_body("prod-chat"), "openai_chat", PROVIDER,
                             model="gpt-5-mini").body["model"] == "gpt-5-mini"


def test_a_body_from_another_vendor_names_the_deployment_without_a_change() -> None:
    body = {"model": "claude-sonnet-4-5", "max_tokens": 256, "temperature": 0.2,
            "messages": [{"role": "user", "content": "Name a colour."}]}
    fixed = normalize_request(body, "anthropic", PROVIDER, model="gpt-5-mini",
                              deployment="prod-chat")
    assert fixed.body["model"] == "prod-chat"
    assert {c.code for c in fixed.changes} == {"move-max-tokens", "drop-unfixed-sampling"}
    # Without a deployment the target's default model is named, and said.
    plain = normalize_request(body, "anthropic", PROVIDER)
    assert plain.body["model"] == "gpt-4o-mini"
    assert "replace-model" in {c.code for c in plain.changes}


def test_without_model_the_rules_are_read_off_the_deployment_name() -> None:
    named = normalize_request(_body("gpt-4o"), "openai_chat", PROVIDER, deployment="gpt-5-mini")
    assert named.body["model"] == "gpt-5-mini" and "max_tokens" not in named.body
    other = normalize_request(_body("gpt-5-mini"), "openai_chat", PROVIDER,
                              deployment="prod-chat")
    assert other.body == {**_body("prod-chat")} and other.changes == ()


def test_a_deployment_for_gemini_is_refused() -> None:
    with pytest.raises(ValueError, match="Gemini request names its model in the URL"):
        normalize_request(_body("gpt-4o"), "openai_chat", "gemini", deployment="prod")


def test_the_command_line_keeps_the_deployment(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "body.json"
    path.write_text(json.dumps(_body("prod-chat")), encoding="utf-8")
    argv = ["normalize", str(path), "--from", "openai_chat", "--to"]
    assert main([*argv, PROVIDER, "--model", "gpt-5-mini", "--deployment", "prod-chat"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["body"]["model"] == "prod-chat" and report["unrepaired"] == []
    assert {c["code"] for c in report["changes"]} == {"move-max-tokens",
                                                      "drop-unfixed-sampling"}
    assert main([*argv, "gemini", "--deployment", "prod"]) == 2
    assert "names its model in the URL" in capsys.readouterr().err
