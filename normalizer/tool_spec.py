"""A tool definition, whatever the protocol (re-exported by `normalizer.model`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from normalizer.json_values import JsonMap

NO_ARGUMENTS: dict[str, Any] = {"type": "object", "properties": {}}


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """A tool definition in MCP's shape: name, description, inputSchema (JSON Schema), and
    the strict flag as the request declared it (None: not stated), so a repair that
    drops or changes strictness is a reported change rather than a silent loss."""

    name: str
    description: str = ""
    # The form every vendor takes for a tool without arguments: OpenAI refuses an object
    # schema without properties (Azure/azure-mcp#197), DeepSeek one without a type.
    input_schema: JsonMap = field(default_factory=lambda: JsonMap(NO_ARGUMENTS))
    strict: bool | None = None

    def __post_init__(self) -> None:
        schema = self.input_schema
        object.__setattr__(self, "input_schema",
                           schema if isinstance(schema, JsonMap) else JsonMap(schema))

    @classmethod
    def from_mcp(cls, tool: Mapping[str, Any]) -> ToolSpec:
        """A ToolSpec from an MCP tool definition (name, description, inputSchema)."""
        schema = tool.get("inputSchema", tool.get("input_schema", NO_ARGUMENTS))
        return cls(name=str(tool["name"]), description=str(tool.get("description", "")),
                   input_schema=schema)
