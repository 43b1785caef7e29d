"""Detectors for a function's parameters schema on the OpenAI wires. At the top: no type or
another type, an object without properties, a union beside the object; Chat Completions
and the Responses API answer these with the same words (one validator), and only where the
schema sits differs: `tools[k].function.parameters` and `tools[k].parameters`. At any
depth, on Chat Completions: the forms Moonshot's validator refuses (a type beside anyOf or
$ref, undeclared required names, a $ref outside $defs, an enum without type, a property
or items that is not one schema), each named by its path as Moonshot spells it; where a
rule's params.response_format says so, in a json_schema response format's schema too."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from normalizer.anyof_type import type_beside_anyof
from normalizer.check import Detector, Finding
from normalizer.checks.openai_chat_walk import declared_tools
from normalizer.enum_type import enums_without_type
from normalizer.jsonschema_words import meta_schema_words
from normalizer.meta_schema import invalid_keywords
from normalizer.output_format import schema_fields
from normalizer.profiles import Rule
from normalizer.property_schemas import non_object_properties
from normalizer.ref_siblings import type_beside_ref
from normalizer.ref_targets import refs_outside_defs
from normalizer.required_names import required_without_properties, undeclared_required
from normalizer.root_union import top_level
from normalizer.schema_walk import Path, dotted, names_type, node_at
from normalizer.tuple_items import items_not_object

Body = Mapping[str, Any]
# (index in tools, function name, parameters, where the vendor says the parameters are)
Declared = tuple[int, Any, Mapping[str, Any], str]


def chat_parameters(body: Body) -> Iterator[Declared]:
    """Every declared Chat function that sends a parameters object."""
    for k, decl in declared_tools(body):
        function = decl.get("function")
        if isinstance(function, Mapping) and isinstance(function.get("parameters"), Mapping):
            yield k, function.get("name"), function["parameters"], \
                f"tools[{k}].function.parameters"


def responses_parameters(body: Body) -> Iterator[Declared]:
    """Every declared Responses function tool that sends a parameters object."""
    for k, decl in declared_tools(body):
        if decl.get("type", "function") == "function" and \
                isinstance(decl.get("parameters"), Mapping):
            yield k, decl.get("name"), decl["parameters"], f"tools[{k}].parameters"


def chat_response_schema(body: Body) -> Iterator[Declared]:
    """A Chat json_schema response format's schema, as one more declared schema: Moonshot
    checks it with the validator it checks tool parameters with (index 0; its name)."""
    found = schema_fields(body, "openai_chat") if isinstance(body, Mapping) else None
    if found is not None and isinstance(found[1].get("schema"), Mapping):
        yield 0, found[1].get("name"), found[1]["schema"], "response_format.json_schema.schema"


def schema_at(where: str) -> str:
    """The schema's place as Moonshot's texts name it: "tools.function.parameters" for any
    tool's, "response_format.json_schema" for the response format's (recorded)."""
    return "response_format.json_schema" if where.startswith("response_format") \
        else "tools.function.parameters"


def not_object(declared: Iterator[Declared]) -> Iterator[Finding]:
    """A parameters schema with no `type`, or a single type other than "object", at its
    root: `type` as OpenAI writes it ("None" when there is none), `type_json` as DeepSeek
    does (null, or the type quoted). Omitted parameters are an empty parameter list
    (documented); a type list is not flagged (how the vendor words it was not seen), nor
    Gemini's upper-case OBJECT (whether the vendor takes it was not seen)."""
    for k, name, schema, where in declared:
        kind = schema.get("type", "None")
        if isinstance(kind, str) and not names_type(kind, "object"):
            shown = "null" if "type" not in schema else f'"{kind}"'
            yield Finding(location=where, fields={"index": k, "name": name, "type": kind,
                                                  "type_json": shown, "param": where})


def missing_properties(declared: Iterator[Declared]) -> Iterator[Finding]:
    """A parameters schema that is an object without `properties` at its root (context=();
    nested objects are not flagged: not observed)."""
    for k, name, schema, where in declared:
        if names_type(schema.get("type"), "object") and "properties" not in schema:
            yield Finding(location=where, fields={"index": k, "name": name, "context": "()",
                                                  "param": where})


def required_beside_no_properties(declared: Iterator[Declared]) -> Iterator[Finding]:
    """A parameters schema with `required` and no properties at its root
    (normalizer.required_names). Only the root: the refusals seen name it."""
    for k, name, schema, where in declared:
        if required_without_properties(schema):
            yield Finding(location=where, fields={"index": k, "name": name, "param": where})


def top_level_union(declared: Iterator[Declared], rule: Rule) -> Iterator[Finding]:
    """A parameters schema typed object with one of params.keywords at its root; with
    params.untyped, one without type too (OpenAI refuses a root without type for that
    first, seen in that order in chatanywhere/GPT_API_free#403; xAI names the union)."""
    keywords = [str(k) for k in rule.params.get("keywords", ())]
    untyped = bool(rule.params.get("untyped"))
    for k, name, schema, where in declared:
        found = top_level(schema, keywords)
        kind = schema.get("type")
        if found and (names_type(kind, "object") or (untyped and kind is None)):
            yield Finding(location=where, fields={"index": k, "name": name, "param": where,
                                                  "keywords": ", ".join(found)})


def type_beside_anyof_anywhere(declared: Iterator[Declared]) -> Iterator[Finding]:
    """Every subschema of a parameters schema with `type` beside `anyOf`, the root
    included, with its path as the vendor spells it (`properties.x.items`, `root`)."""
    return _at_paths(declared, type_beside_anyof)


def type_beside_ref_anywhere(declared: Iterator[Declared]) -> Iterator[Finding]:
    """Every subschema of a parameters schema with `type` beside `$ref`, with its path as
    the vendor spells it (`$defs.__schema20`)."""
    return _at_paths(declared, type_beside_ref)


def ref_outside_defs_anywhere(declared: Iterator[Declared]) -> Iterator[Finding]:
    """Every `$ref` of a parameters schema that does not point into its root `$defs`, with
    its path as the vendor spells it (`properties.external.$ref`)."""
    return _at_paths(declared, lambda schema: ((*path, "$ref")
                                               for path in refs_outside_defs(schema)))


def enum_without_type_anywhere(declared: Iterator[Declared]) -> Iterator[Finding]:
    """Every subschema below the root of a parameters schema with `enum` and no `type`,
    with its path as the vendor spells it (`properties.view`)."""
    return _at_paths(declared, enums_without_type)


def items_not_object_anywhere(declared: Iterator[Declared]) -> Iterator[Finding]:
    """Every `items` of a parameters schema that is not one schema, with its path as the
    vendor spells it (`properties.pair.items`)."""
    return _at_paths(declared, lambda schema: ((*path, "items")
                                               for path in items_not_object(schema)))


def property_not_object(declared: Iterator[Declared]) -> Iterator[Finding]:
    """Every property of a subschema whose own schema is not an object, with the path of
    its `properties` as the vendor spells it (`properties.tasks.items.properties`)."""
    for k, name, schema, where in declared:
        for path, prop in non_object_properties(schema):
            yield Finding(location=where, fields={
                "index": k, "name": name, "param": where, "property": prop,
                "path": dotted((*path, "properties")), "schema_at": schema_at(where)})


def _at_paths(declared: Iterator[Declared],
              paths_of: Callable[[Any], Iterator[Path]]) -> Iterator[Finding]:
    for k, name, schema, where in declared:
        for path in paths_of(schema):
            yield Finding(location=where, fields={"index": k, "name": name, "param": where,
                                                  "path": dotted(path),
                                                  "schema_at": schema_at(where)})


def keyword_value_invalid(declared: Iterator[Declared]) -> Iterator[Finding]:
    """Every keyword of a parameters schema whose value the meta-schema OpenAI checks with
    refuses (draft 7's: a tuple's `items` list is taken; normalizer.meta_schema), with
    python-jsonschema's sentence for it as `detail` (normalizer/jsonschema_words.py)."""
    for k, name, schema, where in declared:
        for place in invalid_keywords(schema, dialect="draft-7"):
            key = str(place[-1])
            yield Finding(location=where, fields={
                "index": k, "name": name, "param": where,
                "detail": meta_schema_words(key, node_at(schema, place[:-1])[key])})


def required_not_in_properties(declared: Iterator[Declared]) -> Iterator[Finding]:
    """Every name in a subschema's `required` that its `properties` do not declare, with
    the path of that `required` as the vendor spells it (`properties.x.items.required`)."""
    for k, name, schema, where in declared:
        for path, missing in undeclared_required(schema):
            yield Finding(location=where, fields={
                "index": k, "name": name, "param": where, "property": missing,
                "path": dotted((*path, "required")), "schema_at": schema_at(where)})


# What each rule finds among a wire's declared parameters schemas (the rule for its params).
Find = Callable[[Iterator[Declared], Rule], Iterator[Finding]]


def _ruleless(find: Callable[[Iterator[Declared]], Iterator[Finding]]) -> Find:
    return lambda declared, rule: find(declared)


FINDS: dict[str, Find] = {
    "tool-parameters-not-object": _ruleless(not_object),
    "object-schema-missing-properties": _ruleless(missing_properties),
    "schema-required-without-properties": _ruleless(required_beside_no_properties),
    "tool-parameters-top-level-union": top_level_union,
    "schema-type-beside-anyof": _ruleless(type_beside_anyof_anywhere),
    "schema-required-not-in-properties": _ruleless(required_not_in_properties),
    "schema-type-beside-ref": _ruleless(type_beside_ref_anywhere),
    "schema-ref-outside-defs": _ruleless(ref_outside_defs_anywhere),
    "schema-enum-without-type": _ruleless(enum_without_type_anywhere),
    "schema-property-not-object": _ruleless(property_not_object),
    "schema-items-not-object": _ruleless(items_not_object_anywhere),
    "schema-keyword-invalid": _ruleless(keyword_value_invalid),
}


def _on(parameters: Callable[[Body], Iterator[Declared]], find: Find,
        response: Callable[[Body], Iterator[Declared]] | None = None) -> Detector:
    """The detector of `find` on a wire's declared schemas; where the rule's
    params.response_format says the vendor checks it too, on the response schema after."""
    def detect(body: Body, rule: Rule, model: str | None) -> Iterator[Finding]:
        yield from find(parameters(body), rule)
        if response is not None and rule.params.get("response_format"):
            yield from find(response(body), rule)
    return detect


# Chat Completions: every rule; the Responses API: the top of the schema only (no vendor of
# that wire is known to refuse the deeper forms).
CHAT_DETECTORS: dict[str, Detector] = {rule: _on(chat_parameters, find, chat_response_schema)
                                       for rule, find in FINDS.items()}
RESPONSES_DETECTORS: dict[str, Detector] = {
    rule: _on(responses_parameters, FINDS[rule]) for rule in (
        "tool-parameters-not-object", "object-schema-missing-properties",
        "tool-parameters-top-level-union", "schema-keyword-invalid")}
