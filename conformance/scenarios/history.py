"""Helpers of the scenario loader: YAML positions for a key path, the keys a part of the
format allows, and the conversion of validated YAML messages to the neutral History."""

from __future__ import annotations

import types
import typing
from collections.abc import Sequence
from typing import Any

import yaml
from pydantic import BaseModel

from conformance.scenarios.format import MessageIn, ScenarioIn
from normalizer.model import History, Message, Part, Text, Thinking, ToolCall, ToolResult


class Located:
    """Line and column (1-based) of any key path in a composed YAML document."""

    def __init__(self, root: yaml.Node) -> None:
        self.root = root

    def mark(self, loc: Sequence[Any], key: bool = False) -> tuple[int, int]:
        """Where `loc` is; the deepest existing ancestor when part of it is missing (pydantic
        adds type names to union paths). With key=True, the position of the key itself."""
        node: yaml.Node = self.root
        key_node: yaml.Node | None = None
        for part in loc:
            child = _child(node, part)
            if child is None:
                continue
            key_node, node = child
        target = key_node if key and key_node is not None else node
        return target.start_mark.line + 1, target.start_mark.column + 1


def _child(node: yaml.Node, part: Any) -> tuple[yaml.Node, yaml.Node] | None:
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            if isinstance(k, yaml.ScalarNode) and k.value == str(part):
                return k, v
    if isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(node.value):
        item = node.value[part]
        return item, item
    return None


def model_at(model: type[BaseModel], loc: Sequence[Any]) -> list[str]:
    """The keys allowed at `loc` in the format (for 'did you mean' hints)."""
    current: type[BaseModel] | None = model
    for part in loc:
        if current is None:
            return []
        if isinstance(part, int) or part not in current.model_fields:
            continue
        current = _inner_model(current.model_fields[part].annotation)
    return list(current.model_fields) if current else []


def _inner_model(annotation: Any) -> type[BaseModel] | None:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) is not None:
        for arg in typing.get_args(annotation):
            found = _inner_model(arg)
            if found is not None:
                return found
    return None


def build_history(messages: Sequence[MessageIn]) -> History:
    """The neutral History of a scenario's `history` messages, as written (no repair)."""
    return History(tuple(_message(m) for m in messages))


def _text_parts(content: Any) -> tuple[Text, ...]:
    if content is None:
        return ()
    if isinstance(content, str):
        return (Text(content),)
    return tuple(Text(p.text) for p in content)


def _message(m: MessageIn) -> Message:
    if m.role == "assistant":
        parts: list[Part] = [Thinking(t.text, t.signature, t.vendor, t.redacted)
                             for t in m.thinking]
        parts += _text_parts(m.content)
        parts += [ToolCall(c.name, c.arguments, c.id,
                           {"thought_signature": c.thought_signature} if c.thought_signature
                           else {})
                  for c in m.tool_calls]
        return Message("assistant", tuple(parts), origin=m.origin)
    if m.role == "tool":
        results = m.results or []
        if results:
            found: tuple[Part, ...] = tuple(ToolResult(r.call_id, r.content, r.is_error, r.name)
                                            for r in results)
        else:
            text = m.content if isinstance(m.content, str) else "".join(
                p.text for p in m.content or [])
            found = (ToolResult(m.call_id, text, m.is_error, m.name),)
        return Message("tool", found)
    return Message(m.role, _text_parts(m.content))


__all__ = ["Located", "ScenarioIn", "build_history", "model_at"]
