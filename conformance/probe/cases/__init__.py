"""The probe's requests and the rule cases, shipped as package data: the one copy.

`rules/<provider>.yaml` holds, per enforced rule of a built-in provider, a `reject` body
that fails first on that rule and its `accept` neighbour (the check() and emulator tests
read them from RULES_DIR), and `rules/valid_<protocol>.yaml` one valid multi-tool body.
`<protocol>.yaml` holds the probe's valid `control` body and one case per rule the protocol
can enforce: either `from: <provider>` alone (the bodies are that provider's rule case) or
its own `reject`/`accept` bodies (derived, with a note saying how they differ).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from conformance.sized_yaml import safe_load
from normalizer.model import JsonMap
from normalizer.wire import PROTOCOLS


@dataclass(frozen=True, slots=True)
class Limit:
    """A numeric rule parameter the probe measures by search: every value equal to
    `placeholder` in the reject body becomes a string of length n (built from `fill`), or
    the number n itself where `number` is set (an output limit), and the largest accepted n
    between `floor` and `ceiling` is the limit."""

    param: str
    floor: int
    ceiling: int
    placeholder: str | int
    fill: str = ""
    number: bool = False

    def value(self, n: int) -> str | int:
        """The number `n`, or a string of exactly `n` characters: `fill`, then `x`s (cut to
        `n` when `fill` is longer)."""
        return n if self.number else (self.fill + "x" * n)[:n]

    @property
    def size(self) -> int:
        """The n the placeholder stands for (its value, or its length)."""
        return self.placeholder if isinstance(self.placeholder, int) \
            else len(self.placeholder)

    def body(self, reject: JsonMap, n: int) -> dict[str, Any]:
        """The reject body with the placeholder at length n (ids in calls and results
        stay equal, so only the length changes)."""
        return _swap(reject.thaw(), self.placeholder, self.value(n))


def _swap(value: Any, old: str | int, new: str | int) -> Any:
    if isinstance(value, dict):
        return {k: _swap(v, old, new) for k, v in value.items()}
    if isinstance(value, list):
        return [_swap(v, old, new) for v in value]
    return new if value == old and type(value) is type(old) else value


@dataclass(frozen=True, slots=True)
class Variant:
    """A rule parameter that is a yes or no, measured once the rule is found enforced: a
    `reject` body that breaks the rule only where `params` hold (a call answered, but with a
    message item between it and its output: DeepSeek's adjacency) and its `accept`
    neighbour. Both answered as such, `params` are written; the first accepted, they are
    not."""

    params: JsonMap
    reject: JsonMap
    accept: JsonMap
    origin: str


@dataclass(frozen=True, slots=True)
class ProbeCase:
    """One rule the probe measures: a `reject` body that breaks it first and its `accept`
    neighbour, where the bodies came from, and why the SDK cannot send them, if it cannot."""

    rule: str
    reject: JsonMap
    accept: JsonMap
    params: JsonMap
    origin: str  # the rule-case file it was copied from, or "derived"
    model: str | None = None  # the model the case was written for (some rules are per model)
    also: tuple[str, ...] = ()  # other rules the reject body breaks for some built-in profile
    # Rules both bodies break for some models: where the endpoint enforces one of them, no
    # request can break this rule alone, so it cannot be measured with that model.
    moot_if: tuple[str, ...] = ()
    note: str = ""
    unsendable: str = ""  # why the official SDK cannot send the reject body: not probed
    limit: Limit | None = None  # a numeric parameter measured by search
    variant: Variant | None = None  # a yes-or-no parameter measured once enforced


@dataclass(frozen=True, slots=True)
class ProbeSet:
    """Everything a probe of one protocol sends: the valid control body and one case per rule."""

    protocol: str
    control: JsonMap
    cases: tuple[ProbeCase, ...]

    def case(self, rule: str) -> ProbeCase | None:
        """The case of `rule`, or None when the protocol has none."""
        return next((c for c in self.cases if c.rule == rule), None)

    @property
    def sendable(self) -> tuple[ProbeCase, ...]:
        """The cases a probe sends: those the protocol's official SDK can send at all."""
        return tuple(c for c in self.cases if not c.unsendable)


RULES_DIR = Path(__file__).parent / "rules"


def _read(name: str) -> Any:
    text = resources.files(__package__).joinpath(name).read_text(encoding="utf-8")
    return safe_load(text)


@cache
def _rule_cases(provider: str) -> tuple[dict[str, Any], ...]:
    if not (RULES_DIR / f"{provider}.yaml").is_file():
        return ()
    return tuple(_read(f"rules/{provider}.yaml") or ())


def rule_cases(provider: str) -> list[dict[str, Any]]:
    """The rule cases of a built-in provider: {rule, model?, reject, accept} (fresh copies)."""
    return copy.deepcopy(list(_rule_cases(provider)))


def valid_body(protocol: str) -> dict[str, Any]:
    """The valid multi-tool request body of `protocol` (every built-in profile accepts it)."""
    return dict(_read(f"rules/valid_{protocol}.yaml"))


@cache
def probe_set(protocol: str) -> ProbeSet:
    """The control request and rule cases of `protocol`."""
    if protocol not in PROTOCOLS:
        raise ValueError(f"{protocol!r} is not one of {', '.join(PROTOCOLS)}")
    data = _read(f"{protocol}.yaml")
    return ProbeSet(protocol=protocol, control=JsonMap(data["control"]),
                    cases=tuple(_case(_bodies(raw)) for raw in data["cases"]))


def _bodies(raw: dict[str, Any]) -> dict[str, Any]:
    """A case with `from: <provider>` and no bodies takes that provider's rule case (its
    model goes to the case, out of the bodies: the probe sends its own)."""
    if "reject" in raw:
        return raw
    found = [c for c in _rule_cases(str(raw["from"])) if c["rule"] == raw["rule"]]
    if len(found) != 1:
        raise LookupError(f"probe case {raw['rule']}: no single rule case for it in "
                          f"rules/{raw['from']}.yaml")
    source = found[0]
    model = source.get("model") or source["reject"].get("model")
    bare = {side: {k: v for k, v in source[side].items() if k != "model"}
            for side in ("reject", "accept")}
    return {"model": model, **raw, **bare}


def _case(raw: dict[str, Any]) -> ProbeCase:
    return ProbeCase(rule=raw["rule"], reject=JsonMap(raw["reject"]),
                     accept=JsonMap(raw["accept"]), params=JsonMap(raw.get("params") or {}),
                     origin=str(raw["from"]), model=raw.get("model"),
                     also=tuple(raw.get("also") or ()),
                     moot_if=tuple(raw.get("moot_if") or ()), note=str(raw.get("note") or ""),
                     unsendable=str(raw.get("unsendable") or ""),
                     limit=_limit(raw) if raw.get("limit") else None,
                     variant=_variant(raw["rule"], raw.get("variant")))


def _limit(raw: dict[str, Any]) -> Limit:
    """The case's `limit`, whose placeholder must stand somewhere in the reject body: else
    every body of the search would be the same one, and the probe would measure nothing
    (a rule case rewritten under a `from:` case once left it so, silently)."""
    limit = Limit(**raw["limit"])
    if not _holds(raw["reject"], limit.placeholder):
        shown = repr(limit.placeholder)
        shown = shown if len(shown) <= 40 else f"{shown[:37]}... ({limit.size} characters)"
        raise ValueError(f"probe case {raw['rule']} (from: {raw['from']}): limit.placeholder "
                         f"{shown} is not a value of its reject body; expected the value the "
                         "search resizes (write the bodies in the case if the rule case "
                         "changed)")
    return limit


def _holds(value: Any, wanted: str | int) -> bool:
    """Whether `wanted` is `value` or one of its values, at any depth (as `_swap` finds it)."""
    if isinstance(value, dict):
        return any(_holds(v, wanted) for v in value.values())
    if isinstance(value, list):
        return any(_holds(v, wanted) for v in value)
    return value == wanted and type(value) is type(wanted)


def _variant(rule: str, raw: dict[str, Any] | None) -> Variant | None:
    """The case's `variant: {params, from: <provider>}`: that provider's rule case of the
    same rule supplies both bodies, as a case's `from:` does."""
    if not raw:
        return None
    bodies = _bodies({"rule": rule, "from": raw["from"]})
    return Variant(params=JsonMap(raw["params"]), reject=JsonMap(bodies["reject"]),
                   accept=JsonMap(bodies["accept"]), origin=str(raw["from"]))
