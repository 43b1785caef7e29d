"""`$ref`s that point anywhere but the schema's root `$defs`, and the same schema with every
such target moved there.

zod-to-json-schema's default strategy writes a schema used twice as a pointer to its first
place (`"$ref": "#/properties/auto_merge"`, `"#/properties/body/properties/childFolders"`
for a recursive Microsoft Graph type), and draft-07 generators keep their shared schemas in
`definitions`. Both are valid JSON Schema; Moonshot's validator refuses the whole request
for one ("references must start with #/$defs/", Softeria/ms-365-mcp-server#458). Copying
each target into the root `$defs` and pointing the reference there keeps the meaning: a
pointer is read from the root, so the references inside a copy still name what they did.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any
from urllib.parse import unquote

from normalizer.schema_walk import Path, replaced, schema_nodes

DEFS = "#/$defs/"
_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")


def outside_defs(ref: Any) -> bool:
    """Whether `ref` is a reference that does not point into the root `$defs` (`#`, the
    whole document, is one the validator's documentation allows)."""
    return isinstance(ref, str) and ref != "#" and not ref.startswith(DEFS)


def refs_outside_defs(schema: Any) -> Iterator[Path]:
    """The path of every subschema of `schema` (plain JSON) whose `$ref` does not point into
    the root `$defs`, in document order."""
    for node, path in schema_nodes(schema):
        if outside_defs(node.get("$ref")):
            yield path


def pointed(schema: Any, ref: str) -> Any:
    """The schema a local JSON pointer (`#/properties/a`, `#/definitions/A`) names in
    `schema`, or None: another document, the root itself, or nothing there."""
    if not ref.startswith("#/"):
        return None
    node = schema
    for raw in ref[2:].split("/"):
        step = unquote(raw).replace("~1", "/").replace("~0", "~")
        if isinstance(node, Mapping) and step in node:
            node = node[step]
        elif isinstance(node, list) and step.isdigit() and int(step) < len(node):
            node = node[int(step)]
        else:
            return None
    return node if isinstance(node, Mapping | bool) else None


def names_one_def(ref: Any) -> bool:
    """Whether `ref` names one entry of the root `$defs` (`#/$defs/Slot`, not a place
    inside one): what a reader that looks definitions up by name can follow."""
    return isinstance(ref, str) and _ONE_DEF.fullmatch(ref) is not None


_ONE_DEF = re.compile(r"#/\$defs/[^/]+")


def hoisted(schema: Any, outside: Callable[[Any], bool] = outside_defs
            ) -> tuple[Any, dict[str, str]]:
    """A copy of `schema` with the target of every local reference that `outside` picks
    (by default: every one outside the root `$defs`) copied into the root `$defs` (once per
    reference text, under the pointer's last name, made unique) and the references pointed
    there; `definitions` is dropped once nothing points into it. Also returns what was
    moved: reference -> its name in `$defs`. A reference that cannot be read (another
    document, nothing at the pointer) is left as it is."""
    if not isinstance(schema, Mapping):
        return schema, {}
    table = schema.get("$defs")
    defs: dict[str, Any] = dict(table) if isinstance(table, Mapping) else {}
    moved: dict[str, str] = {}
    old_defs = schema.get("definitions")
    name_for = _namer(schema, defs, moved,
                      set(old_defs) if isinstance(old_defs, Mapping) else set())
    body = _rewritten({k: v for k, v in schema.items() if k != "$defs"}, name_for, outside)
    done: set[str] = set()
    while len(done) < len(defs):  # a def rewritten may name new ones: until none is new
        for name in [n for n in defs if n not in done]:
            done.add(name)
            defs[name] = _rewritten(defs[name], name_for, outside)
    if not moved:
        return schema, {}
    return {**_unused_definitions_dropped(body, defs), "$defs": defs}, moved


def _namer(schema: Mapping[str, Any], defs: dict[str, Any], moved: dict[str, str],
           reserved: set[str]) -> Callable[[str], str | None]:
    """The `$defs` name for a reference outside it, its target added to `defs` the first
    time (read in `schema` as given), or None where the reference cannot be read. A name
    in `definitions` is not taken either: a reader may look both tables up by name."""
    def name_for(ref: str) -> str | None:
        if ref not in moved:
            target = pointed(schema, ref)
            if target is None:
                return None
            stem = _UNSAFE.sub("_", unquote(ref.rsplit("/", 1)[-1])) or "def"
            name, n = stem, 2
            same = ref == f"#/definitions/{stem}"  # the same schema under the same name
            while name in defs or (name in reserved and not same):
                name, n = f"{stem}_{n}", n + 1
            moved[ref], defs[name] = name, target
        return moved[ref]
    return name_for


def _rewritten(node: Any, name_for: Callable[[str], str | None],
               outside: Callable[[Any], bool]) -> Any:
    """`node` with every reference `outside` picks that `name_for` names pointed there."""
    for sub, path in list(schema_nodes(node)):
        ref = sub.get("$ref")
        name = name_for(ref) if outside(ref) else None
        if name is not None:
            node = replaced(node, path, {**sub, "$ref": DEFS + name})
    return node


def _unused_definitions_dropped(body: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    if "definitions" in body and not any(
            isinstance(ref := node.get("$ref"), str) and ref.startswith("#/definitions/")
            for node, _ in schema_nodes({**body, "$defs": defs})):
        return {k: v for k, v in body.items() if k != "definitions"}
    return body
