"""The steps that repair a tool's parameters schema: the keywords, forms and names a
vendor's schema validator refuses (the order and the reasons for it are in each Step's
`after`). normalizer/steps.py puts them where they ran among the history's steps: after the
tools are declared and renamed, before the tool list is cut to the vendor's limit."""

from __future__ import annotations

from normalizer.passes.anyof_type import move_type_into_anyof
from normalizer.passes.array_items import add_array_items
from normalizer.passes.enum_type import type_bare_enums
from normalizer.passes.enum_values import drop_empty_enum_values
from normalizer.passes.keyword_values import respell_invalid_keywords
from normalizer.passes.property_keys import rename_property_keys
from normalizer.passes.property_schemas import objectify_property_schemas
from normalizer.passes.ref_siblings import inline_typed_refs
from normalizer.passes.ref_targets import hoist_refs_into_defs
from normalizer.passes.required_names import (
    drop_required_without_properties,
    drop_undeclared_required,
)
from normalizer.passes.root_schema import complete_root_object_schema
from normalizer.passes.root_union import flatten_top_level_union
from normalizer.passes.tuple_items import respell_tuple_items
from normalizer.step import Step

SCHEMA_STEPS: dict[str, Step] = {
    "add_array_items": Step(add_array_items, ("array-schema-missing-items",),
                            ("convert_tool_schemas",)),
    "drop_empty_enum_values": Step(drop_empty_enum_values, ("enum-empty-value",),
                                   ("convert_tool_schemas",)),
    "hoist_refs_into_defs": Step(hoist_refs_into_defs, ("schema-ref-outside-defs",),
                                 ("convert_tool_schemas", "declare_missing_tools")),
    "flatten_top_level_union": Step(flatten_top_level_union,
                                    ("tool-parameters-top-level-union",),
                                    ("convert_tool_schemas", "declare_missing_tools",
                                     "hoist_refs_into_defs")),
    "inline_typed_refs": Step(inline_typed_refs, ("schema-type-beside-ref",),
                              ("convert_tool_schemas", "declare_missing_tools",
                               "hoist_refs_into_defs")),
    "move_type_into_anyof": Step(move_type_into_anyof, ("schema-type-beside-anyof",),
                                 ("convert_tool_schemas", "declare_missing_tools",
                                  "hoist_refs_into_defs", "inline_typed_refs",
                                  "respell_tuple_items")),
    "objectify_property_schemas": Step(objectify_property_schemas,
                                       ("schema-property-not-object",),
                                       ("convert_tool_schemas", "declare_missing_tools",
                                        "hoist_refs_into_defs", "inline_typed_refs",
                                        "respell_tuple_items", "flatten_top_level_union",
                                        "move_type_into_anyof")),
    "respell_tuple_items": Step(respell_tuple_items, ("schema-items-not-object",),
                                ("convert_tool_schemas", "declare_missing_tools",
                                 "hoist_refs_into_defs", "inline_typed_refs")),
    "type_bare_enums": Step(type_bare_enums, ("schema-enum-without-type",),
                            ("convert_tool_schemas", "declare_missing_tools",
                             "hoist_refs_into_defs", "inline_typed_refs",
                             "respell_tuple_items", "flatten_top_level_union",
                             "move_type_into_anyof")),
    "drop_undeclared_required": Step(drop_undeclared_required,
                                     ("schema-required-not-in-properties",),
                                     ("convert_tool_schemas", "declare_missing_tools",
                                      "respell_tuple_items", "flatten_top_level_union",
                                      "move_type_into_anyof")),
    "drop_required_without_properties": Step(drop_required_without_properties,
                                             ("schema-required-without-properties",),
                                             ("convert_tool_schemas", "declare_missing_tools",
                                              "flatten_top_level_union",
                                              "complete_root_object_schema")),
    "complete_root_object_schema": Step(complete_root_object_schema,
                                        ("tool-parameters-not-object",
                                         "object-schema-missing-properties"),
                                        ("convert_tool_schemas", "declare_missing_tools",
                                         "flatten_top_level_union", "move_type_into_anyof")),
    # After the passes that merge or complete a schema: what they carry over is respelled.
    "respell_invalid_keywords": Step(respell_invalid_keywords, ("schema-keyword-invalid",),
                                     ("convert_tool_schemas", "declare_missing_tools",
                                      "flatten_top_level_union",
                                      "complete_root_object_schema")),
    # After the tool names are final: its map is keyed by the name sent.
    "rename_property_keys": Step(rename_property_keys, ("tool-property-key-invalid",),
                                 ("rewrite_tool_names", "convert_tool_schemas",
                                  "declare_missing_tools", "flatten_top_level_union",
                                  "complete_root_object_schema")),
}
