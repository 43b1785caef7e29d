"""Mistral's own request validator (the `mistral-common` package) as a second opinion on
the `mistral` profile.

`mistral_common_verdict(body)` runs an OpenAI-style request body through
`ChatCompletionRequest.from_openai` and `MistralRequestValidatorV11(mode=serving)` (the
strictest validator, and the one whose texts Mistral's API returns) and gives its verdict
and message. `compare_with_check(body)` sets it beside `check(body, "mistral")` and says
where the two disagree. Expected disagreements are listed in the mistral profile's notes.

mistral-common is an optional dependency (the `test` extra): it is imported on first use,
and a missing install raises MistralCommonMissingError naming the package.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from normalizer.check import Violation, check
from normalizer.errors import NormalizerError
from normalizer.profiles import Profile

PACKAGE = "mistral-common"


class MistralCommonMissingError(NormalizerError, ImportError):
    def __init__(self) -> None:
        super().__init__(f"the {PACKAGE!r} package is needed to run Mistral's own validator; "
                         f"install it with `pip install {PACKAGE}` (or the `test` extra: "
                         "pip install -e '.[test]')")


@dataclass(frozen=True, slots=True)
class MistralVerdict:
    """What mistral-common says about a body: accepted, or the exception it raised."""

    accepted: bool
    message: str = ""  # the exception text; "" when accepted
    error: str = ""  # the exception class name; "" when accepted


@dataclass(frozen=True, slots=True)
class Comparison:
    """check(body, provider) beside mistral-common's verdict on the same body."""

    ours: tuple[Violation, ...]
    theirs: MistralVerdict

    @property
    def verdicts_agree(self) -> bool:
        return (not self.ours) == self.theirs.accepted

    @property
    def messages_agree(self) -> bool:
        return self.verdicts_agree and (self.theirs.accepted
                                        or self.ours[0].message == self.theirs.message)

    @property
    def disagreement(self) -> str | None:
        """None when both accept, or both reject with the same text; else what differs."""
        if self.messages_agree:
            return None
        if not self.verdicts_agree:
            ours = f"reject ({self.ours[0].rule}: {self.ours[0].message})" if self.ours \
                else "accept"
            theirs = "accept" if self.theirs.accepted \
                else f"reject ({self.theirs.error}: {self.theirs.message})"
            return f"verdict: check says {ours}; mistral-common says {theirs}"
        return (f"message: check ({self.ours[0].rule}) says {self.ours[0].message!r}; "
                f"mistral-common ({self.theirs.error}) says {self.theirs.message!r}")


def _library() -> SimpleNamespace:
    try:
        from mistral_common.exceptions import MistralCommonException
        from mistral_common.protocol.instruct.request import ChatCompletionRequest
        from mistral_common.protocol.instruct.validator import (
            MistralRequestValidatorV11,
            ValidationMode,
        )
    except ImportError as exc:
        raise MistralCommonMissingError() from exc
    return SimpleNamespace(request=ChatCompletionRequest, validator=MistralRequestValidatorV11,
                           mode=ValidationMode, error=MistralCommonException)


def _continues_final(messages: Sequence[Any]) -> bool:
    """Mistral's API marks a continued final assistant message with `prefix: true`;
    from_openai takes that as `continue_final_message`."""
    last = messages[-1] if messages else None
    return isinstance(last, Mapping) and last.get("role") == "assistant" \
        and last.get("prefix") is True


def mistral_common_verdict(body: Mapping[str, Any]) -> MistralVerdict:
    """Run `body` (an OpenAI-style chat request) through mistral-common's serving-mode V11
    validator. Conversion failures (from_openai raising KeyError, TypeError, ValueError or
    AttributeError on a malformed body) count as a rejection, with the exception's text."""
    lib = _library()
    messages = body.get("messages")
    messages = list(messages) if isinstance(messages, Sequence) else []
    tools = body.get("tools") or None
    model = body.get("model") if isinstance(body.get("model"), str) else "model"
    try:
        request = lib.request.from_openai(
            [dict(m) if isinstance(m, Mapping) else m for m in messages], tools=tools,
            continue_final_message=_continues_final(messages), model=model)
        lib.validator(mode=lib.mode.serving).validate_request(request)
    except (lib.error, AttributeError, KeyError, TypeError, ValueError) as exc:
        text = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
        return MistralVerdict(accepted=False, message=str(text), error=type(exc).__name__)
    return MistralVerdict(accepted=True)


def compare_with_check(
    body: Mapping[str, Any], provider: str | Path | Profile = "mistral"
) -> Comparison:
    """`check(body, provider)` and mistral-common's verdict on the same body."""
    return Comparison(ours=check(body, provider), theirs=mistral_common_verdict(body))
