"""Long base64 data written short in YAML: `!base64-of-length {head: "iVBORw0KGgo…",
length: 5327908}` reads as `head` followed by "A"s up to `length` characters.

Some vendor rules are about size alone: Anthropic refuses an image whose base64 data is
longer than 5 MB (10 MB since mid-2026), "messages.0.content.1.image.source.base64: image
exceeds 5 MB maximum: 5327908 bytes > 5242880 bytes" (nraiden/cofounder#53). A rule case
or an observation of such a rule needs a body that long, which no one should write out or
review: the tag keeps the files small and the bodies exact. "A" is base64 for zero bits, so
the data stays valid base64 (a PNG or JPEG header, then zeros) whatever the head is.

Rule cases (conformance/probe/cases/rules/), evidence files and scenarios take the tag;
`dump` writes such a string back as the tag, so a probe's evidence files stay small too.
"""

from __future__ import annotations

from typing import Any, TypeVar

import yaml

TAG = "!base64-of-length"
# A file asking for more is refused: a length is cheap to write and costly to build.
MAX_LENGTH = 64 * 1024 * 1024
# Shorter strings are dumped as they are.
_DUMP_FROM = 64 * 1024
_FILL = "A"

L = TypeVar("L", bound=type)


def filled(head: str, length: int) -> str:
    """`head` followed by "A"s: `length` characters in all."""
    return head + _FILL * (length - len(head))


def _construct(loader: yaml.BaseLoader, node: yaml.Node) -> str:
    if not isinstance(node, yaml.MappingNode):
        raise yaml.constructor.ConstructorError(
            None, None, f"{TAG} takes a mapping {{head: <base64 text>, length: <characters>}}",
            node.start_mark)
    value = loader.construct_mapping(node)  # type: ignore[attr-defined]
    head, length = value.get("head", ""), value.get("length")
    problem = ""
    if set(value) - {"head", "length"}:
        problem = f"{TAG} takes only head and length, not {sorted(set(value) - {'head', 'length'})}"
    elif not isinstance(head, str):
        problem = f"{TAG} head must be a string, got {head!r}"
    elif isinstance(length, bool) or not isinstance(length, int):
        problem = f"{TAG} length must be an integer, got {length!r}"
    elif not len(head) <= length <= MAX_LENGTH:
        problem = (f"{TAG} length must be between the head's length ({len(head)}) and "
                   f"{MAX_LENGTH:,}, got {length:,}")
    if problem:
        raise yaml.constructor.ConstructorError(None, None, problem, node.start_mark)
    return filled(head, length)


def _with_sized_strings(loader: L) -> L:
    """A subclass of the YAML `loader` class that reads the tag."""
    sized = type(f"Sized{loader.__name__}", (loader,), {})
    sized.add_constructor(TAG, _construct)  # type: ignore[attr-defined]
    return sized  # type: ignore[return-value]


# libyaml's safe loader where present (the pure-Python one is ~7× slower), with the tag: the
# one loader of the project's data files.
LOADER: type[yaml.SafeLoader] = _with_sized_strings(getattr(yaml, "CSafeLoader",
                                                             yaml.SafeLoader))


def safe_load(text: str) -> Any:
    """`yaml.safe_load(text)`, reading the tag too (libyaml's loader where present)."""
    return yaml.load(text, Loader=LOADER)  # a safe loader, with one constructor more


class _Dumper(yaml.SafeDumper):
    pass


def _represent(dumper: yaml.SafeDumper, value: str) -> yaml.Node:
    if len(value) >= _DUMP_FROM:
        head = value.rstrip(_FILL)
        if len(value) - len(head) >= len(value) // 2:  # mostly fill: written short
            return dumper.represent_mapping(TAG, {"head": head, "length": len(value)})
    return dumper.represent_str(value)


_Dumper.add_representer(str, _represent)


def dump(data: Any, **options: Any) -> str:
    """`yaml.safe_dump(data, **options)`, with each long string that is mostly trailing "A"s
    written as the tag (read back, it is the same string)."""
    return yaml.dump(data, Dumper=_Dumper, **options)
