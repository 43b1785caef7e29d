"""Reading a Gemini generateContent body once for all its detectors
(normalizer/shared_reading.py): the contents that are objects, with their role and how many
parts, function calls and function responses each holds, as columns.

Field names are read in both spellings the REST API accepts (camelCase as the SDK sends,
snake_case as the proto names them).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from normalizer.shared_reading import shared


@dataclass(frozen=True, slots=True)
class Contents:
    """The contents that are objects: body index, the content, its role ("user" when not a
    string: the API's default), and counts of its object parts, of its functionCall parts
    (model contents only) and of its functionResponse parts (user contents only)."""

    index: tuple[int, ...]
    items: tuple[Mapping[str, Any], ...]
    roles: tuple[str, ...]
    parts: tuple[int, ...]
    calls: tuple[int, ...]
    responses: tuple[int, ...]


def get(obj: Mapping[str, Any], camel: str, snake: str) -> Any:
    """A field in either spelling, camelCase first."""
    return obj.get(camel, obj.get(snake))


def parts(content: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The content's parts that are objects."""
    found = content.get("parts")
    if not isinstance(found, list):
        return []
    return [p for p in found if type(p) is dict or isinstance(p, Mapping)]


def placed_parts(body: Mapping[str, Any]) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """(path, part) of every part that is an object, the path with the body's own indexes
    (`contents[1].parts[0]`), as the vendor prints it."""
    found = contents(body)
    for i, content in zip(found.index, found.items, strict=True):
        raw = content.get("parts")
        for j, part in enumerate(raw if isinstance(raw, list) else ()):
            if type(part) is dict or isinstance(part, Mapping):
                yield f"contents[{i}].parts[{j}]", part


@shared
def inline_parts(body: Mapping[str, Any]) -> tuple[tuple[str, Mapping[str, Any]], ...]:
    """(path, inlineData object) of every part that holds one (`contents[1].parts[0]`), read
    once for the detectors that judge inline data: most parts hold none, and only the few
    that do get a path."""
    found = contents(body)
    out: list[tuple[str, Mapping[str, Any]]] = []
    for i, content in zip(found.index, found.items, strict=True):
        raw = content.get("parts")
        for j, part in enumerate(raw if isinstance(raw, list) else ()):
            if type(part) is not dict and not isinstance(part, Mapping):
                continue
            inline = get(part, "inlineData", "inline_data")
            if isinstance(inline, Mapping):
                out.append((f"contents[{i}].parts[{j}]", inline))
    return tuple(out)


def role(content: Mapping[str, Any]) -> str:
    """The content's role; "user" when it is not a string (the API's default)."""
    found = content.get("role")
    return found if isinstance(found, str) else "user"


def call_parts(content: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The functionCall parts of a model content (none for other roles)."""
    if role(content) != "model":
        return []
    return [p for p in parts(content) if isinstance(get(p, "functionCall", "function_call"),
                                                    Mapping)]


def response_parts(content: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The functionResponse parts of a user content (none for other roles)."""
    if role(content) != "user":
        return []
    return [p for p in parts(content)
            if isinstance(get(p, "functionResponse", "function_response"), Mapping)]


@shared
def contents(body: Mapping[str, Any]) -> Contents:
    """The body's contents (see Contents)."""
    raw = body.get("contents")
    kept = tuple(i for i, c in enumerate(raw if isinstance(raw, list) else ())
                 if type(c) is dict or isinstance(c, Mapping))
    found = tuple(raw[i] for i in kept)
    return Contents(kept, found, tuple(map(role, found)),
                    tuple(len(parts(c)) for c in found), tuple(len(call_parts(c)) for c in found),
                    tuple(len(response_parts(c)) for c in found))
