"""A tool's parameters schema with a union (or another whole-object constraint) at its top
level, made one object schema.

OpenAI refuses "'oneOf'/'anyOf'/'allOf'/'enum'/'const'/'not' at the top level" of a function's
parameters even with `type: object` beside them, Anthropic "oneOf, allOf, or anyOf"; MCP
servers write exactly such schemas (zod's discriminatedUnion, an "at least one of these
fields" `anyOf` of `required` lists, voluptuous' `Any`). The projects that hit it merged the
branches into one object (goruck/home-generative-agent#545, lvndry/jazz#510); so does
`flattened`, saying what it gave up.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from normalizer.schema_walk import local_ref, names_type

# The keys of a branch that `flattened` carries into the merged object; any other key of a
# branch (if/then, not, minProperties, ...) constrains the whole object and is given up.
_MERGED_KEYS = frozenset(("type", "properties", "required", "title", "description",
                          "additionalProperties"))
_UNIONS = ("anyOf", "oneOf")  # any one branch holds: a property is required where all agree


@dataclass(slots=True)
class Flattening:
    """What `flattened` did to one schema, for its report."""

    keywords: list[str] = field(default_factory=list)  # those found at the top level
    merged: list[str] = field(default_factory=list)  # "anyOf (3 branches)"
    dropped: list[str] = field(default_factory=list)  # what no longer constrains the object
    not_required: list[str] = field(default_factory=list)  # required in some branches only

    def said(self, tool: str, why: str) -> str:
        """The change's text for `tool`: `why` it was flattened, then what was merged and
        what was given up."""
        parts = [f"tool {tool!r}: {why}"]
        if self.merged:
            parts.append(f"merged {' and '.join(self.merged)} into one object schema")
        if self.not_required:
            names = ", ".join(repr(n) for n in self.not_required)
            parts.append(f"no longer required (some branches only): {names}")
        if self.dropped:
            parts.append(f"given up: {'; '.join(self.dropped)}")
        return "; ".join(parts)


def top_level(schema: Any, keywords: Sequence[str]) -> list[str]:
    """Those of `keywords` that `schema`'s top level has."""
    return [k for k in keywords if isinstance(schema, Mapping) and k in schema]


def flattened(schema: Mapping[str, Any], keywords: Sequence[str]
              ) -> tuple[dict[str, Any], Flattening] | None:
    """`schema` without the `keywords` at its top level, as one object schema: the
    properties of every anyOf/oneOf/allOf branch merged into its own (a property several
    branches declare differently becomes the `anyOf` of its forms, their `allOf` where
    only allOf branches gave them, or one `enum` where each form is a `const`), required
    where the root or every union branch (any allOf branch) requires it, `type: object`.
    A branch that admits no object is left out: a tool's arguments are an object, so it
    admitted none of them. None when a branch cannot
    be read (a `$ref` outside the schema's own `$defs`, a union that is not a list of
    schemas): the schema is then left for the check to name."""
    present = top_level(schema, keywords)
    if not present:
        return None
    out = {k: v for k, v in schema.items() if k not in present}
    forms: dict[str, list[Any]] = {n: [s] for n, s in _properties(out).items()}
    from_union: set[str] = set()  # properties an anyOf/oneOf branch gave a form
    required = dict.fromkeys(_required(out))
    report = Flattening(keywords=present)
    for key in present:
        if key not in (*_UNIONS, "allOf"):  # enum, const, not: a whole-object constraint
            report.dropped.append(f"top-level {key}")
            continue
        branches = _branches(schema[key], schema)
        if branches is None:
            return None
        _merge(key, branches, forms, from_union, required, report)
    out["type"] = "object"
    out["properties"] = {name: _merged(subs, "anyOf" if name in from_union else "allOf")
                         for name, subs in forms.items()}
    if required:
        out["required"] = [n for n in required if n in out["properties"]]
    else:
        out.pop("required", None)
    return out, report


def _merge(key: str, branches: list[Mapping[str, Any]], forms: dict[str, list[Any]],
           from_union: set[str], required: dict[str, None], report: Flattening) -> None:
    """Add the properties and required names of the `key` branches that admit an object."""
    kept = [b for b in branches if _admits_objects(b)]
    if len(kept) < len(branches):
        report.dropped.append(f"{len(branches) - len(kept)} {key} branch(es) admitting "
                              "no object")
    report.merged.append(f"{key} ({len(branches)} branches)")
    for branch in kept:
        for name, sub in _properties(branch).items():
            forms.setdefault(name, []).append(sub)
            if key in _UNIONS:
                from_union.add(name)
        extra = sorted(set(branch) - _MERGED_KEYS)
        if extra:
            report.dropped.append(f"{key} branch keys {', '.join(extra)}")
    _require(key, kept, required, report)


def _branches(value: Any, root: Mapping[str, Any]) -> list[Mapping[str, Any]] | None:
    if not isinstance(value, list):
        return None
    branches = [_resolved(b, root) for b in value]
    return None if any(b is None for b in branches) else branches  # type: ignore[return-value]


def _resolved(branch: Any, root: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """`branch`, or the schema its local `$ref` names (`#/$defs/X`, `#/definitions/X`)."""
    if not isinstance(branch, Mapping):
        return None
    if "$ref" not in branch:
        return branch
    found = local_ref(root, branch["$ref"])
    return None if found is None else \
        {**{k: v for k, v in branch.items() if k != "$ref"}, **found}


def _admits_objects(branch: Mapping[str, Any]) -> bool:
    kind = branch.get("type")
    if kind is None:
        return True
    kinds = kind if isinstance(kind, list) else [kind]
    return any(names_type(k, "object") for k in kinds)


def _require(key: str, branches: list[Mapping[str, Any]], required: dict[str, None],
             report: Flattening) -> None:
    """Add to `required` what the branches of `key` make required: every branch's for
    allOf, the ones all branches share for a union (the others are named in `report`)."""
    lists = [_required(b) for b in branches]
    if key == "allOf":
        for names in lists:
            required.update(dict.fromkeys(names))
        return
    if not lists:
        return
    shared = set(lists[0]).intersection(*lists[1:])
    for names in lists:
        for name in names:
            if name in shared:
                required.setdefault(name)
            elif name not in required and name not in report.not_required:
                report.not_required.append(name)


def _merged(forms: list[Any], key_of: str) -> Any:
    """One schema for a property from its forms: the form if they are all the same, one
    `enum` of the values if each is a `const` (a discriminator: zod's discriminatedUnion),
    else `key_of` (anyOf where a union branch gave a form, allOf where only allOf branches
    did) of the distinct forms."""
    distinct: list[Any] = []
    for form in forms:
        if form not in distinct:
            distinct.append(form)
    if len(distinct) == 1:
        return distinct[0]
    if all(isinstance(f, Mapping) and "const" in f for f in distinct):
        rest = [{k: v for k, v in f.items() if k not in ("const", "description")}
                for f in distinct]
        if all(r == rest[0] for r in rest):
            values = list(dict.fromkeys(_hashable(f["const"]) for f in distinct))
            if len(values) == len(distinct):
                return {**rest[0], "enum": [f["const"] for f in distinct]}
    return {key_of: distinct}


def _hashable(value: Any) -> Any:
    return repr(value) if isinstance(value, dict | list) else value


def _properties(schema: Mapping[str, Any]) -> Mapping[str, Any]:
    found = schema.get("properties")
    return found if isinstance(found, Mapping) else {}


def _required(schema: Mapping[str, Any]) -> list[str]:
    found = schema.get("required")
    return [n for n in found if isinstance(n, str)] if isinstance(found, list) else []
