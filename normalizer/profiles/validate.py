"""Profiles are checked when they are loaded, so a bad one fails there, located, and never
later as a LookupError or a traceback inside check(), the emulator or a run.

`validate(data, source)` takes the mapping read from a profile file and raises a
`ProfileError` naming the file, the rule (its index in the file and its id) and the
problem::

    acme.yaml: rules[3] (system-message-placement): no detector for protocol openai_chat

It checks: known keys, value types, the rule id, a detector for the rule in the profile's
protocol (normalizer/checks/<protocol>.py), statuses, confidences, and the parameters the
detectors read (positive integer lengths, patterns that compile, lists where lists go).
It only reads `data`; the loader builds the Profile afterwards.
"""

from __future__ import annotations

import datetime as dt
import importlib
import re
from collections.abc import Callable, Mapping
from typing import Any

from normalizer.errors import ProfileError
from normalizer.protocols import PROTOCOLS
from normalizer.rules import RULE_IDS
from normalizer.scope import SCOPE_KEYS, parse_scope

PROFILE_KEYS = frozenset({"provider", "protocol", "error_format", "inherits", "disable",
                          "first", "rules", "notes", "extends_rules_from", "probed", "model"})
RULE_KEYS = frozenset({"id", "forbids", "status", "error", "message", "source",
                       "last_verified", "confidence", "params", "enforced", "observed",
                       "inherited", "notes", *SCOPE_KEYS})
CONFIDENCES = ("high", "low")
# positive integers where present
_LENGTHS = ("max_length", "min_messages", "max_items", "minimum", "maximum", "max_pixels",
            "max_bytes")
# regular expressions where present
_PATTERNS = ("pattern", "default_on_model", "thinking_off_models")
_LISTS = ("check", "roles", "empty", "allowed_after", "forbidden", "unsupported",
          "model_prefixes", "placeholders", "exempt", "modes", "first_bytes", "forces", "on",
          "off", "images", "documents", "expected", "allowed_in_results",
          "expected_in_results", "keywords", "fields", "levels")
# Parameters a detector cannot run without (it reads them unguarded).
_REQUIRED = {"tool-call-id-too-long": ("max_length",), "tool-name-too-long": ("max_length",),
             "tool-description-too-long": ("max_length",), "too-many-tool-calls": ("max_items",),
             "too-many-tools": ("max_items",),
             "tool-parameters-top-level-union": ("keywords",),
             "thinking-budget-out-of-range": ("maximum",),
             "sampling-parameter-unsupported": ("fields",),
             "request-parameter-unsupported": ("fields",),
             "max-tokens-field-unsupported": ("field", "use"),
             "max-completion-tokens-unsupported": ("field", "use"),
             "max-tokens-too-large": ("maximum",), "max-tokens-too-small": ("minimum",),
             "image-dimensions-too-large": ("max_pixels",), "image-too-large": ("max_bytes",),
             "too-many-media": ("max_items",), "request-too-large": ("max_bytes",),
             "many-image-dimensions-too-large": ("max_items", "max_pixels")}
_REQUIRED_BY_PROTOCOL = {("openai_chat", "tool-call-id-pattern"): ("pattern",),
                         ("openai_chat", "tool-name-invalid"): ("pattern",),
                         ("anthropic", "thinking-off-unsupported"): ("levels",)}


def validate(data: Any, source: str, *, detectors: bool = True) -> None:
    """Raise a located ProfileError for the first problem in the profile mapping `data`.
    `detectors`: also require a detector for every rule (profile files must have one, or
    check() could not apply the rule; a profile built in code only for normalize may not)."""
    if not isinstance(data, Mapping):
        raise ProfileError(source, "top level", "expected a mapping")
    unknown = sorted(set(data) - PROFILE_KEYS)
    if unknown:
        raise ProfileError(source, "top level", f"unknown keys {unknown}; expected some of "
                           f"{sorted(PROFILE_KEYS)}")
    for key in ("provider", "protocol"):
        if not isinstance(data.get(key), str) or not data[key]:
            raise ProfileError(source, key, "required string missing")
    protocol = data["protocol"]
    if protocol not in PROTOCOLS:
        raise ProfileError(source, "protocol", f"{protocol!r} is not one of {PROTOCOLS}")
    _rule_lists(data, source)
    rules = data.get("rules") or []
    if not isinstance(rules, list):
        raise ProfileError(source, "rules", "expected a list of rules")
    table = _detectors(protocol) if detectors else None
    for i, raw in enumerate(rules):
        _rule(raw, protocol, table, _locator(source, i, raw))


def _rule_lists(data: Mapping[str, Any], source: str) -> None:
    """`disable` and `first` are lists of rule ids; `first` names own rules only (an
    inherited rule keeps the base's place)."""
    for key in ("disable", "first"):
        if data.get(key) is not None and not _strings(data[key]):
            raise ProfileError(source, key, "expected a list of rule ids")
    listed = {r.get("id") for r in data.get("rules") or () if isinstance(r, Mapping)}
    for rule_id in data.get("first") or ():
        if rule_id not in listed:
            raise ProfileError(source, "first", f"{rule_id!r} is not among the profile's "
                               "own rules")


Fail = Callable[..., ProfileError]  # (problem, field="") -> the located error


def _locator(source: str, index: int, raw: Any) -> Fail:
    """`acme.yaml: rules[3].status (orphan-tool-result): problem`."""
    def fail(problem: str, field: str = "") -> ProfileError:
        where = f"rules[{index}]" + (f".{field}" if field else "") + _named(raw)
        return ProfileError(source, where, problem)
    return fail


def _rule(raw: Any, protocol: str, table: Mapping[str, Any] | None, fail: Fail) -> None:
    rule_id = _rule_id(raw, protocol, table, fail)
    _rule_fields(raw, fail)
    _params(raw.get("params") or {}, protocol, rule_id, bool(raw.get("enforced", True)), fail)


def _rule_id(raw: Any, protocol: str, table: Mapping[str, Any] | None, fail: Fail) -> str:
    """The rule's id, once its keys, its id and (for file profiles) its detector hold."""
    if not isinstance(raw, Mapping):
        raise fail("expected a mapping")
    unknown = sorted(set(raw) - RULE_KEYS)
    if unknown:
        raise fail(f"unknown keys {unknown}; expected some of {sorted(RULE_KEYS)}")
    rule_id = raw.get("id")
    if rule_id not in RULE_IDS:
        raise fail(f"{rule_id!r} is not a known rule id (normalizer/rules.py lists them)",
                   "id")
    if table is not None and rule_id not in table:
        raise fail(f"no detector for protocol {protocol} (normalizer/checks/{protocol}.py "
                   "has none for this rule, so check() could not apply it)")
    return str(rule_id)


def _rule_fields(raw: Mapping[str, Any], fail: Fail) -> None:
    for key in ("forbids", "message", "source"):
        if not isinstance(raw.get(key), str) or not raw[key].strip():
            raise fail("required non-empty string", key)
    status = raw.get("status")
    if isinstance(status, bool) or not isinstance(status, int) or not 100 <= status <= 599:
        raise fail(f"expected an HTTP status code (100-599), got {status!r}", "status")
    if raw.get("confidence") not in CONFIDENCES:
        raise fail(f"{raw.get('confidence')!r} is not one of {CONFIDENCES}", "confidence")
    if not isinstance(raw.get("last_verified"), (str, dt.date)):
        raise fail("expected a date YYYY-MM-DD", "last_verified")
    _rule_extras(raw, fail)


def _rule_extras(raw: Mapping[str, Any], fail: Fail) -> None:
    """The optional fields: flags, the mappings and the notes."""
    for key in ("enforced", "inherited"):
        if key in raw and not isinstance(raw[key], bool):
            raise fail(f"expected true or false, got {raw[key]!r}", key)
    for key in ("error", "params", "observed"):
        if raw.get(key) is not None and not isinstance(raw[key], Mapping):
            raise fail(f"expected a mapping, got {type(raw[key]).__name__}", key)
    if raw.get("notes") is not None and not isinstance(raw["notes"], str):
        raise fail("expected a string", "notes")
    wrong = parse_scope(raw)[1]  # models / since / until / endpoints (normalizer/scope.py)
    if wrong:
        raise fail(wrong[0][1], wrong[0][0])


def _params(params: Mapping[str, Any], protocol: str, rule_id: str, enforced: bool,
            fail: Fail) -> None:
    where = _not_string_key(params, "params")
    if where is not None:
        # YAML 1.1 reads a bare on, off, yes or no as a boolean: `on: [enabled]` would be
        # the key True, and the rule would silently read its default instead.
        raise fail(f"a key that is not a string ({where[1]!r}): quote it (YAML reads "
                   "on, off, yes and no as booleans)", where[0])
    for key in _LENGTHS:
        value = params.get(key)
        if key in params and (isinstance(value, bool) or not isinstance(value, int)
                              or value < 1):
            raise fail(f"expected a positive integer, got {value!r}", f"params.{key}")
    for key in _PATTERNS:
        if key in params:
            try:
                re.compile(str(params[key]))
            except re.error as exc:
                raise fail(f"not a valid regular expression ({exc})", f"params.{key}") from exc
    _param_lists(params, fail)
    needed = _REQUIRED.get(rule_id, ()) + _REQUIRED_BY_PROTOCOL.get((protocol, rule_id), ())
    missing = [k for k in needed if k not in params]
    if enforced and missing:
        raise fail(f"an enforced {rule_id} needs {', '.join(missing)}", "params")


def _param_lists(params: Mapping[str, Any], fail: Fail) -> None:
    for key in _LISTS:
        if key in params and not isinstance(params[key], (list, tuple, Mapping)):
            raise fail(f"expected a list, got {params[key]!r}", f"params.{key}")
        if isinstance(params.get(key), (list, tuple)) and None in params[key]:
            # YAML reads a bare null as None: `empty: [null]` would match every message.
            raise fail('a null in the list: write "null" in quotes for the word',
                       f"params.{key}")


def _not_string_key(value: Any, path: str) -> tuple[str, Any] | None:
    """(where, key) of the first mapping key anywhere in `value` that is not a string."""
    if isinstance(value, Mapping):
        for key, inner in value.items():
            if not isinstance(key, str):
                return path, key
            found = _not_string_key(inner, f"{path}.{key}")
            if found is not None:
                return found
    elif isinstance(value, list | tuple):
        for item in value:
            found = _not_string_key(item, path)
            if found is not None:
                return found
    return None


def _named(raw: Any) -> str:
    rule_id = raw.get("id") if isinstance(raw, Mapping) else None
    return f" ({rule_id})" if isinstance(rule_id, str) else ""


def _strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _detectors(protocol: str) -> Mapping[str, Any]:
    # Imported when used: normalizer.checks imports the profiles package.
    return importlib.import_module(f"normalizer.checks.{protocol}").DETECTORS
