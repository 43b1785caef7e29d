"""The evidence file format (one observation per file, evidence/README.md) as pydantic models.
Validation errors are mapped back to YAML lines by `conformance.evidence.load`."""

from __future__ import annotations

import datetime as dt
import difflib
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

from normalizer.rules import RULE_IDS
from normalizer.wire import PROTOCOLS

# Rule families the evidence names but no profile models (issue 15, item 5): planned ones, and
# behaviour a vendor has dropped, kept as history. A family moves to normalizer/rules.py when
# a detector is written for it; until then an observation that bears on one is a declared
# gap ("rule family not modelled yet: <id>").
PLANNED_RULES: dict[str, str] = {
    "tool-choice-contradicts-history": "a tool_choice the history cannot satisfy",
    "object-schema-empty-properties": "an object schema with empty properties in a Gemini "
                                      "function declaration (refused until about April 2025, "
                                      "taken since: history, not a plan)",
    "tool-choice-value-unsupported": "a tool_choice value the vendor does not take (Cerebras' "
                                     "gpt-oss-120b in 2025-08: only auto or none)",
    "thinking-block-modified": "a thinking block of Anthropic's latest assistant message that "
                               "is not as the response signed it (decided against the "
                               "signature: not from the body alone)",
}
Confidence = Literal["recorded", "pasted", "documented", "reported"]
CONFIDENCES: tuple[str, ...] = ("recorded", "pasted", "documented", "reported")


def known_rule(rule_id: str) -> str:
    """Validate a rule id named in an evidence file: a modelled or a planned rule; raises
    ValueError otherwise, naming the closest known id if there is one."""
    if rule_id in RULE_IDS or rule_id in PLANNED_RULES:
        return rule_id
    close = difflib.get_close_matches(rule_id, [*RULE_IDS, *PLANNED_RULES], n=1, cutoff=0.6)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    raise ValueError(f"unknown rule id {rule_id!r}{hint} (normalizer/rules.py lists them; "
                     "planned families are in conformance/evidence/format.py)")


RuleId = Annotated[str, AfterValidator(known_rule)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class SourceIn(_Strict):
    """Where an observation was found: a URL, and for a file in a repository its repo, path and
    commit."""

    url: str = Field(pattern=r"^https?://\S+$")
    repo: str | None = Field(default=None, pattern=r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")
    path: str | None = None
    commit: str | None = Field(default=None, pattern=r"^[0-9a-f]{40}$")

    @model_validator(mode="after")
    def _repo_needs_path(self) -> SourceIn:
        if self.repo and not (self.path and self.commit):
            raise ValueError("a source with `repo` also needs `path` and the 40-hex `commit`")
        return self


class ObservationIn(_Strict):
    """One evidence file: the vendor's answer (status, verbatim error) to one request body, with
    where it was found, the rules it bears on and any declared gap."""

    vendor: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    protocol: Literal[PROTOCOLS]  # type: ignore[valid-type]
    endpoint: str = Field(min_length=1, pattern=r"^(?:<[^<>]+>|[^?\s<>])+$",
                          description="host and path as called, no query string; "
                                      "<placeholders> where the source hid the host")
    model: str = Field(min_length=1)
    date: dt.date
    status: int = Field(ge=100, le=599)
    error: str | None
    error_type: str | None = None
    request: dict[str, Any]
    reconstructed: list[str]
    confidence: Confidence
    source: SourceIn
    rules: list[RuleId]
    notes: str = Field(min_length=1)
    gap: str | None = Field(
        default=None, min_length=1,
        description="why check() is allowed to disagree with this observation (a declared gap)")
