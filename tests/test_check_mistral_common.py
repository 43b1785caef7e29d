"""check(body, "mistral") against Mistral's own validator (mistral-common), on every mistral
rule case and on the shared valid conversation.

Agreement is asserted case by case; the expected disagreements are listed in EXPECTED with
their reason (also in the mistral profile's notes), so a new disagreement, or an expected
one that disappears (say mistral-common starts rejecting tool -> user), fails the test.
"""

from __future__ import annotations

import builtins
from typing import Any

import fast_yaml
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracles import mistral_common
from oracles.mistral_common import (
    MistralCommonMissingError,
    compare_with_check,
    mistral_common_verdict,
)

from conformance.probe.cases import RULES_DIR

pytest.importorskip("mistral_common")

CASES = RULES_DIR  # the rule cases: conformance/probe/cases/rules (the one copy)
MISTRAL_CASES = fast_yaml.load((CASES / "mistral.yaml").read_text(encoding="utf-8"))

# (rule, reject|accept) -> "verdict" or "message": how check and mistral-common differ.
EXPECTED: dict[tuple[str, str], str] = {
    # from_openai raises KeyError('tool_call_id') before validating; the API answers
    # "Tool call id has to be defined." (spring-projects/spring-ai#1853).
    ("tool-call-id-missing", "reject"): "message",
    # mistral-common 1.13.1 says "(or Assistant with prefix)", the API "(... prefix True)".
    ("last-message-role", "reject"): "message",
    # The API rejects user right after tool (code 3230); mistral-common 1.13.1 allows it, and
    # so did mistral-small-latest on 2026-08-19 (the case uses mistral-large-latest).
    ("role-order", "reject"): "verdict",
    # devstral-latest answered 422 to text beside tool_calls (github/copilot-cli#4884,
    # 2026-09); mistral-common 1.13.1 (V11) accepts it, as mistral-small-latest did.
    ("content-with-tool-calls", "reject"): "verdict",
    # mistral-common 1.13.1 knows neither chunk ("'file' is not a valid ChunkTypes",
    # "'document_url' is not a valid ChunkTypes"); the API answered the nested `file` part 422
    # and the document_url data URL 200 (nextcloud/integration_openai#419, live, 2026-07).
    ("file-part-nested", "reject"): "message",
    ("file-part-nested", "accept"): "verdict",
    # The API's request schema forbids fields a message type lacks (422 extra_forbidden:
    # Gage-Technologies/mistral-go#3, charmbracelet/crush#1590); mistral-common's from_openai
    # reads the fields it knows and leaves the rest, so it accepts.
    ("unknown-message-field", "reject"): "verdict",
    # The API's request schema forbids max_completion_tokens (422 extra_forbidden,
    # editor-code-assistant/eca#231); mistral-common validates the messages, not the
    # request's other fields, so it accepts.
    ("max-completion-tokens-unsupported", "reject"): "verdict",
    # The API refuses levels a reasoning model does not take (400, code 3051,
    # architects-toolkit/SmartHopper#647); mistral-common validates the messages, not the
    # request's reasoning_effort, so it accepts.
    ("reasoning-effort-value-unsupported", "reject"): "verdict",
    # The API refuses prompt_mode "reasoning" for Small 4 and Medium 3.5 (400, code 3051,
    # earendil-works/pi#3096); mistral-common validates the messages only, so it accepts.
    ("prompt-mode-unsupported", "reject"): "verdict",
    # The API's request schema forbids top-level fields it does not know (422
    # extra_forbidden, Gitlawb/openclaude#739); mistral-common validates the messages only.
    ("unknown-request-field", "reject"): "verdict",
    # The API's request schema bounds temperature (422 less_than_equal, vegu-ai/talemate#102;
    # 1.5 since 2025-12, SillyTavern/SillyTavern#4856); mistral-common validates the
    # messages only.
    ("sampling-parameter-out-of-range", "reject"): "verdict",
}


def cases() -> list[Any]:
    return [pytest.param(c, side, id=f"{c['rule']}:{side}")
            for c in MISTRAL_CASES for side in ("reject", "accept")]


@pytest.mark.parametrize(("case", "side"), cases())
def test_check_agrees_with_mistral_common(case: dict[str, Any], side: str) -> None:
    result = compare_with_check(case[side])
    expected = EXPECTED.get((case["rule"], side))
    if expected is None:
        assert result.disagreement is None, result.disagreement
    elif expected == "message":
        assert result.verdicts_agree and not result.messages_agree, result.disagreement
    else:
        assert not result.verdicts_agree, "expected a verdict disagreement"


def test_valid_conversation_accepted_by_both() -> None:
    body = fast_yaml.load((CASES / "valid_openai_chat.yaml").read_text(encoding="utf-8"))
    result = compare_with_check(body)
    assert result.theirs.accepted and result.ours == ()


def test_verdict_carries_vendor_text() -> None:
    case = next(c for c in MISTRAL_CASES if c["rule"] == "tool-call-id-pattern")
    verdict = mistral_common_verdict(case["reject"])
    assert not verdict.accepted
    assert verdict.error == "InvalidFunctionCallException"
    assert verdict.message == ("Tool call id was call_1 but must be a-z, A-Z, 0-9, "
                               "with a length of 9.")


def test_prefix_continuation_is_passed_on() -> None:
    case = next(c for c in MISTRAL_CASES if c["rule"] == "last-message-role")
    assert mistral_common_verdict(case["accept"]).accepted


def test_malformed_body_is_a_rejection_not_a_crash() -> None:
    verdict = mistral_common_verdict({"model": "m", "messages": [{"role": "robot"}]})
    assert not verdict.accepted and verdict.error


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["role", "content", "tool_calls", "tool_call_id", "id", "function",
                         "name", "type", "prefix"]), inner, max_size=4),
    max_leaves=10)
MESSAGE = st.fixed_dictionaries(
    {"role": st.sampled_from(["user", "assistant", "tool", "system"])},
    optional={"content": JSON, "tool_calls": JSON, "tool_call_id": JSON, "prefix": JSON})


@settings(max_examples=40, deadline=None)
@given(body=st.fixed_dictionaries({"messages": st.lists(MESSAGE, max_size=4) | JSON},
                                  optional={"tools": JSON}))
def test_hostile_bodies_give_a_verdict(body: dict[str, Any]) -> None:
    verdict = mistral_common_verdict(body)
    assert verdict.accepted or verdict.error


def test_missing_package_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = builtins.__import__

    def no_mistral(name: str, *args: Any, **kwargs: Any) -> Any:
        if name.startswith("mistral_common"):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_mistral)
    with pytest.raises(MistralCommonMissingError, match="mistral-common"):
        mistral_common._library()
