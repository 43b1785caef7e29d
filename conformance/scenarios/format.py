"""The scenario YAML format as pydantic models: the schema is generated from these
(`conformance/scenarios/scenario.schema.json`, checked fresh by a test), and validation errors are
mapped back to YAML lines by `conformance.scenarios.load`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, model_validator

from normalizer.wire import PROTOCOLS

Verdict = Literal["accept", "reject"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ToolIn(_Strict):
    """A tool the scenario declares, as an MCP tool definition (`inputSchema` is accepted too)."""

    name: str = Field(min_length=1)
    description: str = ""
    input_schema: dict[str, Any] = Field(
        default_factory=lambda: {"type": "object"},
        validation_alias=AliasChoices("input_schema", "inputSchema"),
        description="JSON Schema of the arguments (MCP's inputSchema)")


class CallIn(_Strict):
    """One tool call of an assistant message; `arguments` may be an object or its raw JSON text."""

    id: str | None = None
    name: str
    arguments: dict[str, Any] | str = Field(default_factory=dict)
    thought_signature: str | None = Field(
        default=None, description="Gemini thoughtSignature carried on this functionCall part")


class ThinkingIn(_Strict):
    """One thinking part of an assistant message, with its signature and the provider that wrote
    it."""

    text: str = ""
    signature: str | None = None
    vendor: str | None = Field(default=None, description="the provider that produced it")
    redacted: bool = False


class ResultIn(_Strict):
    """One tool result of a tool message's `results` turn (`call_id` null for a result without
    one)."""

    call_id: str | None
    content: str = ""
    is_error: bool = False
    name: str | None = None


class TextPartIn(_Strict):
    """One text part of a message whose `content` is a list."""

    type: Literal["text"] = "text"
    text: str


class MessageIn(_Strict):
    """One message. `tool` messages hold one result (call_id, content) or a turn of them
    (`results`); consecutive tool messages stay separate turns, as written."""

    role: Literal["system", "user", "assistant", "tool"]
    content: str | list[TextPartIn] | None = None
    origin: str | None = None
    thinking: list[ThinkingIn] = Field(default_factory=list)
    tool_calls: list[CallIn] = Field(default_factory=list)
    call_id: str | None = None
    is_error: bool = False
    name: str | None = None
    results: list[ResultIn] = Field(default_factory=list)

    @model_validator(mode="after")
    def _fields_fit_role(self) -> MessageIn:
        if self.role != "assistant" and (self.tool_calls or self.thinking or self.origin):
            raise ValueError("only assistant messages have tool_calls, thinking or origin")
        if self.role != "tool" and (self.call_id or self.results or self.is_error or self.name):
            raise ValueError("only tool messages have call_id, results, is_error or name")
        if self.role == "tool" and self.results and self.call_id:
            raise ValueError("a tool message has either call_id/content or results, not both")
        if self.role == "tool" and not self.results and "call_id" not in self.model_fields_set:
            raise ValueError("a tool message needs call_id (null for none) or results")
        return self


class WireIn(_Strict):
    """A history given as a real request body of a protocol, parsed by its wire module."""

    protocol: Literal[PROTOCOLS]  # type: ignore[valid-type]
    body: dict[str, Any]


class StreamIn(_Strict):
    """A streamed assistant turn after `history`: the recorded events are replayed through
    the protocol's official SDK streaming iterator and assembled (docs/streaming-scenarios.md);
    `then` follows the assembled turn."""

    protocol: Literal[PROTOCOLS]  # type: ignore[valid-type]
    events: list[dict[str, Any]] = Field(
        min_length=1, description="the parsed JSON of each SSE event, as the vendor sent them")
    then: list[MessageIn] = Field(default_factory=list,
                                  description="messages after the streamed turn")
    origin: str | None = Field(
        default=None, description="provider that streamed the turn (default: the protocol's)")


class ExpectIn(_Strict):
    """What the scenario expects: each provider's verdict on the raw request, the fix codes each
    normalization report must hold, and whether normalizing must change nothing."""

    raw: dict[str, Verdict] = Field(default_factory=dict,
                                    description="provider -> verdict of the raw request")
    changes: dict[str, list[str]] = Field(default_factory=dict,
                                          description="provider -> fix codes the report holds")
    untouched: bool = Field(default=False,
                            description="normalize must change nothing, for every provider "
                                        "that takes the history raw")


class ScenarioIn(_Strict):
    """One scenario file: a title, its refs, tools, exactly one of `history` and `wire` (a
    `stream` may follow a history), request options, model overrides, expectations and known
    gaps."""

    title: str = Field(min_length=1, max_length=70)
    about: str = ""
    tags: list[str] = Field(default_factory=list)
    refs: list[str] = Field(min_length=1)
    tools: list[ToolIn] = Field(default_factory=list)
    history: list[MessageIn] | None = None
    wire: WireIn | None = None
    stream: StreamIn | None = None
    options: dict[str, dict[str, Any]] = Field(
        default_factory=dict, description="protocol -> extra request fields (e.g. thinking)")
    models: dict[str, str] = Field(default_factory=dict,
                                   description="provider -> model to use instead of its default")
    expect: ExpectIn = Field(default_factory=ExpectIn)
    known_gaps: list[str] = Field(default_factory=list)
    draft: bool = False

    @model_validator(mode="after")
    def _one_history(self) -> ScenarioIn:
        if (self.history is None) == (self.wire is None):
            raise ValueError("give exactly one of history or wire")
        if self.stream is not None and self.wire is not None:
            raise ValueError("a stream follows a history: give history, not wire, with stream")
        return self


SCHEMA_PATH = Path(__file__).with_name("scenario.schema.json")


def schema_text() -> str:
    """The JSON Schema of a scenario file, as committed in SCHEMA_PATH."""
    schema = ScenarioIn.model_json_schema(by_alias=True)
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "provider-conformance scenario"
    return json.dumps(schema, indent=2, sort_keys=True) + "\n"


if __name__ == "__main__":  # regenerate: python -m conformance.scenarios.format
    SCHEMA_PATH.write_text(schema_text(), encoding="utf-8")
    print(f"wrote {SCHEMA_PATH.name}")
