"""Scenario YAML read in two steps: first the parser's event stream is walked (no node is
built, no alias is expanded), then, only if that walk found nothing refused, the document
is composed and constructed.

Why the walk comes first: composing and validating a file whose aliases nest (a
"billion laughs" file of a few hundred bytes) costs time and memory exponential in its
depth, and unknown tags, complex keys or very deep nesting make PyYAML's constructor or
composer raise something other than a located error. Every refusal here carries its
line and column.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml

from conformance.errors import Problem
from conformance.sized_yaml import LOADER, TAG

# Scenario files nest a handful of levels (wire bodies a few more); 100 is far beyond any
# real one and far below Python's recursion limit, which PyYAML's composer recurses into.
MAX_DEPTH = 100
# A file with thousands of anchors needs no more than this many lines to be understood.
MAX_PROBLEMS = 50
# LOADER: libyaml's safe loader where present (the pure-Python one took seconds for
# evidence/), reading one tag, long base64 data written short (conformance/sized_yaml.py).


@dataclass(slots=True)
class _Level:
    mapping: bool
    want_key: bool = True
    keys: dict[str, int] = field(default_factory=dict)  # scalar key -> line first seen


def read_yaml(text: str) -> tuple[yaml.Node | None, Any, list[Problem]]:
    """(node, data, problems): node and data are None when the file is refused."""
    try:
        problems = scan(text)
        if problems:
            return None, None, problems
        loader = LOADER(text)
        try:
            node = loader.get_single_node()
            data = loader.construct_document(node) if node is not None else None
        finally:
            loader.dispose()
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        problem = getattr(exc, "problem", None) or str(exc)
        if "maximum nesting depth" in problem:
            # Newer libyaml (PyYAML 6.0.4's wheels) stops at 1,000 levels in its scanner,
            # which in flow context reads ahead of the events scan() walks; say it as
            # scan() would, whichever library version the user has.
            return None, None, [Problem(line, col, "", f"nested deeper than {MAX_DEPTH} levels")]
        return None, None, [Problem(line, col, "", f"not valid YAML: {problem}")]
    return node, data, []


def scan(text: str) -> list[Problem]:
    """Everything refused in the event stream: anchors, aliases, explicit tags (but the one
    for long base64 data), non-scalar keys, duplicate keys, nesting deeper than MAX_DEPTH.
    Stops at MAX_PROBLEMS."""
    problems: list[Problem] = []
    stack: list[_Level] = []
    for event in yaml.parse(text, Loader=LOADER):
        problems += _refused(event)
        if isinstance(event, yaml.NodeEvent):
            problems += _placed(event, stack)
        if isinstance(event, yaml.CollectionStartEvent):
            stack.append(_Level(mapping=isinstance(event, yaml.MappingStartEvent)))
            if len(stack) > MAX_DEPTH:
                return [*problems, Problem(*_at(event), "",
                                           f"nested deeper than {MAX_DEPTH} levels")]
        elif isinstance(event, yaml.CollectionEndEvent):
            stack.pop()
        if len(problems) >= MAX_PROBLEMS:
            return [*problems, Problem(*_at(event), "", "too many problems; stopped here")]
    return problems


def _placed(event: yaml.NodeEvent, stack: list[_Level]) -> list[Problem]:
    """Key-position checks: a key must be a scalar, and appear once in its mapping."""
    if not stack or not stack[-1].mapping:
        return []
    level = stack[-1]
    level.want_key = not level.want_key
    if level.want_key:  # it was a value
        return []
    if not isinstance(event, yaml.ScalarEvent):
        return [Problem(*_at(event), "", "a key must be a plain scalar, not a "
                        f"{'mapping' if isinstance(event, yaml.MappingStartEvent) else 'list'}")]
    line = event.start_mark.line + 1
    if event.value in level.keys:
        return [Problem(*_at(event), event.value, f"duplicate key {event.value!r} "
                        f"(first on line {level.keys[event.value]})")]
    level.keys[event.value] = line
    return []


def _at(event: yaml.Event) -> tuple[int, int]:
    return event.start_mark.line + 1, event.start_mark.column + 1


def _refused(event: yaml.Event) -> list[Problem]:
    at = _at(event)
    if isinstance(event, yaml.AliasEvent):
        return [Problem(*at, "", f"alias *{event.anchor} refused: write the value out")]
    found = []
    if getattr(event, "anchor", None):
        found.append(Problem(*at, "", f"anchor &{event.anchor} refused: scenarios use no anchors"))
    tag = getattr(event, "tag", None)
    implicit = getattr(event, "implicit", True)
    explicit = tag is not None and (implicit is False or implicit == (False, False))
    if explicit and tag != TAG:  # its constructor says what is wrong with its value
        found.append(Problem(*at, "", f"tag {tag} refused: scenarios use plain YAML values "
                                        f"(and {TAG} for long base64 data)"))
    return found
