"""inline_typed_refs (rule schema-type-beside-ref): Moonshot refuses a `type` beside a
`$ref` ("when using $ref, type should be defined in the referenced schema instead of the
parent schema", farion1231/cc-switch#6614), which zod 4 writes for a schema used twice;
the referenced schema is copied in place of the `$ref`."""

from __future__ import annotations

from typing import Any

from normalizer import check, normalize, render
from normalizer.model import History, Message, Text, ToolSpec, thaw
from normalizer.ref_siblings import inlined, type_beside_ref

HISTORY = History((Message("user", (Text("Open the ticket for user 7."),)),))
# zod 4's output, as lidge-jun/opencodex#2677 quotes its __schema20
ZOD: dict[str, Any] = {
    "type": "object",
    "$defs": {"__schema2": {"type": "string", "minLength": 1},
              "__schema20": {"type": "string", "format": "uuid", "description": "The id.",
                             "$ref": "#/$defs/__schema2"}},
    "properties": {"id": {"$ref": "#/$defs/__schema20"}}}


def test_a_typed_ref_is_replaced_by_its_target_with_the_nodes_keywords_beside_it() -> None:
    paths = list(type_beside_ref(ZOD))
    assert paths == [("$defs", "__schema20")]
    fixed, exact = inlined(ZOD, paths)
    assert fixed["$defs"]["__schema20"] == {"type": "string", "minLength": 1,
                                            "format": "uuid", "description": "The id."}
    assert exact == [True]
    assert "$ref" in ZOD["$defs"]["__schema20"]  # the input is left as it was


def test_a_keyword_both_give_differently_keeps_the_nodes_and_an_unreadable_ref_stays() -> None:
    schema = {"$defs": {"S": {"type": "string", "maxLength": 3}},
              "properties": {"a": {"type": "integer", "$ref": "#/$defs/S"},
                             "b": {"type": "string", "$ref": "https://example.com/s.json"}}}
    fixed, exact = inlined(schema, list(type_beside_ref(schema)))
    assert fixed["properties"]["a"] == {"type": "integer", "maxLength": 3}
    assert fixed["properties"]["b"] == schema["properties"]["b"]
    assert exact == [False, None]


def test_moonshot_names_the_path_and_normalize_inlines_the_ref() -> None:
    tools = [ToolSpec("open_ticket", "", ZOD)]
    (found,) = check(render(HISTORY, "openai_chat", tools=tools), "moonshot")
    assert found.message == (
        "Invalid request: tools.function.parameters is not a valid moonshot flavored json "
        "schema, details: <At path '$defs.__schema20': when using $ref, type should be "
        "defined in the referenced schema instead of the parent schema>")
    out = normalize(HISTORY, "moonshot", tools=tools)
    assert [(c.code, c.lossless) for c in out.changes] == [("inline-typed-ref", True)]
    assert "$ref" not in thaw(out.tools[0].input_schema)["$defs"]["__schema20"]
    assert check(out.render(), "moonshot") == ()


def test_vendors_without_the_rule_keep_the_ref() -> None:
    tools = [ToolSpec("open_ticket", "", ZOD)]
    for provider in ("openai", "anthropic", "mistral"):
        out = normalize(HISTORY, provider, tools=tools)
        assert "inline-typed-ref" not in {c.code for c in out.changes}, provider
