"""The probe's requests, shipped as package data: one YAML file per protocol.

Each file holds a valid `control` body and, per rule id that a built-in profile of the
protocol uses, a minimal `reject` body that breaks the rule and its nearest valid
neighbour `accept`. They are derived from tests/rule_cases (the probe never reads tests/ at
run time); tests/test_probe_cases.py keeps the two in step.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import yaml

from normalizer.model import JsonMap
from normalizer.wire import PROTOCOLS


@dataclass(frozen=True, slots=True)
class Limit:
    """A numeric rule parameter the probe measures by search: every string equal to
    `placeholder` in the reject body becomes a value of length n (built from `fill`), and
    the largest accepted n between `floor` and `ceiling` is the limit."""

    param: str
    floor: int
    ceiling: int
    placeholder: str
    fill: str

    def value(self, n: int) -> str:
        return (self.fill + "x" * n)[:n]

    def body(self, reject: JsonMap, n: int) -> dict[str, Any]:
        """The reject body with the placeholder at length n (ids in calls and results
        stay equal, so only the length changes)."""
        return _swap(reject.thaw(), self.placeholder, self.value(n))


def _swap(value: Any, old: str, new: str) -> Any:
    if isinstance(value, dict):
        return {k: _swap(v, old, new) for k, v in value.items()}
    if isinstance(value, list):
        return [_swap(v, old, new) for v in value]
    return new if value == old else value


@dataclass(frozen=True, slots=True)
class ProbeCase:
    rule: str
    reject: JsonMap
    accept: JsonMap
    params: JsonMap
    origin: str  # the rule-case file it was copied from, or "derived"
    model: str | None = None  # the model the case was written for (some rules are per model)
    also: tuple[str, ...] = ()  # other rules the reject body breaks for some built-in profile
    note: str = ""
    unsendable: str = ""  # why the official SDK cannot send the reject body: not probed
    limit: Limit | None = None  # a numeric parameter measured by search


@dataclass(frozen=True, slots=True)
class ProbeSet:
    protocol: str
    control: JsonMap
    cases: tuple[ProbeCase, ...]

    def case(self, rule: str) -> ProbeCase | None:
        return next((c for c in self.cases if c.rule == rule), None)

    @property
    def sendable(self) -> tuple[ProbeCase, ...]:
        """The cases a probe sends: those the protocol's official SDK can send at all."""
        return tuple(c for c in self.cases if not c.unsendable)


@cache
def probe_set(protocol: str) -> ProbeSet:
    """The control request and rule cases of `protocol`."""
    if protocol not in PROTOCOLS:
        raise ValueError(f"{protocol!r} is not one of {', '.join(PROTOCOLS)}")
    text = resources.files(__package__).joinpath(f"{protocol}.yaml").read_text(encoding="utf-8")
    data = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    return ProbeSet(protocol=protocol, control=JsonMap(data["control"]),
                    cases=tuple(_case(raw) for raw in data["cases"]))


def _case(raw: dict[str, Any]) -> ProbeCase:
    return ProbeCase(rule=raw["rule"], reject=JsonMap(raw["reject"]),
                     accept=JsonMap(raw["accept"]), params=JsonMap(raw.get("params") or {}),
                     origin=str(raw["from"]), model=raw.get("model"),
                     also=tuple(raw.get("also") or ()), note=str(raw.get("note") or ""),
                     unsendable=str(raw.get("unsendable") or ""),
                     limit=Limit(**raw["limit"]) if raw.get("limit") else None)
