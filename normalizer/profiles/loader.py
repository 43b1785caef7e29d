"""The profile loader: `Rule`, `Profile`, and reading them from YAML (built-in files, a path,
or a mapping), with base files merged in. The file format is drawn in `normalizer.profiles`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any, Literal

import yaml

from normalizer.errors import ProfileError, UnknownProviderError
from normalizer.model import EMPTY, JsonMap
from normalizer.profiles.validate import PROFILE_KEYS, RULE_KEYS, validate
from normalizer.protocols import DEFAULT_MODEL, PROTOCOLS
from normalizer.rules import RULE_IDS
from normalizer.scope import Wording, is_scoped, model_in, parse_scope

HERE = Path(__file__).parent  # the built-in YAML files sit beside this module
PROVIDERS: tuple[str, ...] = (
    "openai", "openai_responses", "anthropic", "gemini", "mistral", "groq", "deepseek", "xai",
    "cerebras", "fireworks", "together", "openrouter", "ollama", "vllm", "azure_openai",
    "moonshot", "dashscope", "xai_responses", "deepseek_responses", "azure_openai_responses",
)
UNKNOWN = "unknown"


@dataclass(frozen=True, slots=True)
class Rule:
    """One strictness rule of a vendor, with its verbatim message template and source."""

    id: str
    forbids: str
    status: int
    message: str
    source: str
    last_verified: str
    confidence: Literal["high", "low"]
    error: JsonMap = EMPTY  # type / code / param (param may be a template)
    params: JsonMap = EMPTY
    enforced: bool = True
    inherited: bool = False
    observed: JsonMap = EMPTY  # what a probe saw: verdict, status, text, date
    notes: str = ""
    # Where and when the rule holds (normalizer/scope.py): model globs, [since, until), hosts.
    models: tuple[str, ...] = ()
    since: str = ""
    until: str = ""
    endpoints: tuple[str, ...] = ()
    # Other words for some models (normalizer/scope.py; `scoped` puts them in place).
    wordings: tuple[Wording, ...] = ()

    @property
    def message_known(self) -> bool:
        """Whether the vendor's verbatim message is known (not `unknown`)."""
        return self.message != UNKNOWN

    def applies_to(self, model: str | None, *, when_unknown: bool) -> bool:
        """Whether the rule holds for `model`: rules with `models` globs hold only for a
        matching model; rules with `params.model_prefixes` only for models starting with one
        of them (`models/` prefix ignored)."""
        if not model_in(self.models, model, when_unknown=when_unknown):
            return False
        prefixes = self.params.get("model_prefixes")
        if not prefixes:
            return True
        if not model:
            return when_unknown
        name = model.removeprefix("models/")
        return any(name.startswith(str(p)) for p in prefixes)


@dataclass(frozen=True, slots=True)
class Profile:
    """A provider's rules in the order the vendor evaluates them, and its protocol."""

    provider: str
    protocol: str
    error_format: str
    rules: tuple[Rule, ...]
    inherits: str | None = None
    notes: str = ""
    source_path: str = ""
    # The vendor's model for a body that crosses to it with no model of its own; not
    # inherited (a compatible vendor serves its own models).
    model: str = ""

    @property
    def default_model(self) -> str:
        """The profile's own model, or its protocol's reference model when it names none."""
        return self.model or DEFAULT_MODEL[self.protocol]

    def rule(self, rule_id: str) -> Rule | None:
        """The rule with this id, or None when the profile has none."""
        return next((r for r in self.rules if r.id == rule_id), None)

    def copy_for(self, rule_id: str, model: str | None) -> Rule | None:
        """The first enforced copy of `rule_id` that holds for `model`: what a repair pass
        for some models acts on (their copies are scoped apart by model, so one holds). A
        copy that names models never holds for an unknown model: nothing is repaired on a
        guess."""
        return next((r for r in self.rules if r.id == rule_id and r.enforced
                     and r.applies_to(model, when_unknown=False)), None)

    def enforces(self, rule_id: str) -> bool:
        """Whether the profile has this rule and the vendor enforces it."""
        found = self.rule(rule_id)
        return found is not None and found.enforced

    def param(self, rule_id: str, name: str, default: Any = None) -> Any:
        """A parameter of an enforced rule, or `default` when the rule is off or absent: from
        the first enforced copy of the id that sets it. Copies scoped apart hold one at a
        time; two that hold together each say their own part (OpenAI refuses audio parts for
        some models and some image types for all: one copy each)."""
        for rule in self.rules:
            if rule.id == rule_id and rule.enforced and name in rule.params:
                return rule.params[name]
        return default


# A vendor's profile for a second protocol it serves is named with this suffix
# (xai_responses beside xai).
_PROTOCOL_SUFFIX = {"openai_responses": "_responses"}


def provider_for(vendor: str, protocol: str) -> str | None:
    """The built-in provider that serves `vendor`'s `protocol`: the vendor's own, or the one
    for a second protocol it serves (xai_responses beside xai); None where there is none."""
    if vendor not in PROVIDERS:
        return None
    if load_profile(vendor).protocol == protocol:
        return vendor
    other = vendor + _PROTOCOL_SUFFIX.get(protocol, "")
    return other if other != vendor and other in PROVIDERS else None


def load_profile(spec: str | Path | Profile) -> Profile:
    """A built-in provider name, a path to a profile YAML file, or a Profile (returned as is)."""
    if isinstance(spec, Profile):
        return spec
    text = str(spec)
    if text in PROVIDERS:
        return _load_builtin(text)
    path = Path(text)
    if path.suffix in {".yaml", ".yml"} or path.exists():
        if not path.is_file():
            raise ProfileError(text, "file", "no such profile file")
        return _load_file(path, base_dir=HERE / "base")
    raise UnknownProviderError(text, PROVIDERS)


# libyaml's safe loader where present (same data, ~9x faster than the pure-Python one, which
# every process paid for 17 built-in profiles and every probed profile).
_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@cache
def _load_builtin(name: str) -> Profile:
    return _load_file(HERE / f"{name}.yaml", base_dir=HERE / "base")


def _load_file(path: Path, base_dir: Path) -> Profile:
    try:
        data = _safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise ProfileError(str(path), "yaml", str(exc)) from exc
    return profile_from_mapping(data, source=str(path), base_dir=base_dir, check_detectors=True)


def _safe_load(text: str) -> Any:
    loader = _LOADER(text)
    try:
        return loader.get_single_data()
    finally:
        loader.dispose()


def profile_from_mapping(data: Any, *, source: str = "<profile>", base_dir: Path = HERE / "base",
                         check_detectors: bool = False) -> Profile:
    """A Profile from parsed YAML; errors name `source` and the field."""
    validate(data, source, detectors=check_detectors)  # located ProfileError, never later
    if not isinstance(data, Mapping):
        raise ProfileError(source, "top level", "expected a mapping")
    unknown = set(data) - PROFILE_KEYS
    if unknown:
        raise ProfileError(source, "top level", f"unknown keys {sorted(unknown)}; "
                           f"expected some of {sorted(PROFILE_KEYS)}")
    for key in ("provider", "protocol"):
        if not isinstance(data.get(key), str):
            raise ProfileError(source, key, "required string missing")
    if data["protocol"] not in PROTOCOLS:
        raise ProfileError(source, "protocol", f"{data['protocol']!r} is not one of {PROTOCOLS}")
    rules = [_rule(r, source, f"rules[{i}]") for i, r in enumerate(data.get("rules") or ())]
    inherits = data.get("inherits")
    if inherits:
        base = _load_file(base_dir / f"{inherits}.yaml", base_dir)
        own = {r.id for r in rules}
        disabled = set(data.get("disable") or ())
        inherited = [replace(r, inherited=True) for r in base.rules
                     if r.id not in own and r.id not in disabled]
        rules = _merge_in_base_order(base.rules, inherited, rules)
    rules = _evaluated_first(rules, data.get("first") or ())
    # The same id twice is allowed only when every copy is scoped (normalizer/scope.py).
    ids = [r.id for r in rules if not is_scoped(r)]
    scoped_ids = {r.id for r in rules if is_scoped(r)}
    dupes = sorted({i for i in ids if ids.count(i) > 1 or i in scoped_ids})
    if dupes:
        raise ProfileError(source, "rules", f"rule ids listed twice: {dupes}")
    return Profile(provider=data["provider"], protocol=data["protocol"],
                   error_format=str(data.get("error_format") or data["protocol"]),
                   rules=tuple(rules), inherits=inherits, notes=str(data.get("notes") or ""),
                   source_path=source, model=str(data.get("model") or ""))


def _merge_in_base_order(
    base: tuple[Rule, ...], inherited: list[Rule], own: list[Rule]
) -> list[Rule]:
    """Own rules replace the base rule of the same id in place (all scoped copies of it);
    new own rules go after."""
    own_by_id: dict[str, list[Rule]] = {}
    for r in own:
        own_by_id.setdefault(r.id, []).append(r)
    by_id = {r.id: [r] for r in inherited} | own_by_id
    base_ids = dict.fromkeys(r.id for r in base)
    merged = [rule for rid in base_ids if rid in by_id for rule in by_id[rid]]
    placed = {r.id for r in merged}
    return merged + [r for r in own if r.id not in placed]


def _evaluated_first(rules: list[Rule], first: Sequence[str]) -> list[Rule]:
    """The rules `first` names (own rules the vendor is seen to evaluate before those it
    inherits), in that order, then the others in their order."""
    if not first:
        return rules
    ahead = [r for rule_id in first for r in rules if r.id == rule_id]
    return ahead + [r for r in rules if r.id not in first]


def _rule(raw: Any, source: str, where: str) -> Rule:
    if not isinstance(raw, Mapping):
        raise ProfileError(source, where, "expected a mapping")
    unknown = set(raw) - RULE_KEYS
    if unknown:
        raise ProfileError(source, where, f"unknown keys {sorted(unknown)}")
    rule_id = raw.get("id")
    if rule_id not in RULE_IDS:
        raise ProfileError(source, f"{where}.id", f"{rule_id!r} is not a known rule id "
                           "(normalizer/rules.py lists them)")
    for key in ("forbids", "message", "source"):
        if not isinstance(raw.get(key), str) or not raw[key].strip():
            raise ProfileError(source, f"{where}.{key}", "required non-empty string")
    if not isinstance(raw.get("status"), int):
        raise ProfileError(source, f"{where}.status", "expected an HTTP status code (integer)")
    confidence = raw.get("confidence")
    if confidence not in ("high", "low"):
        raise ProfileError(source, f"{where}.confidence", "expected 'high' or 'low'")
    verified = raw.get("last_verified")
    if isinstance(verified, dt.date):
        verified = verified.isoformat()
    if not isinstance(verified, str):
        raise ProfileError(source, f"{where}.last_verified", "expected a date YYYY-MM-DD")
    return Rule(id=rule_id, forbids=raw["forbids"], status=raw["status"], message=raw["message"],
                source=raw["source"], last_verified=verified, confidence=confidence,
                error=JsonMap(raw.get("error") or {}), params=JsonMap(raw.get("params") or {}),
                enforced=bool(raw.get("enforced", True)), inherited=bool(raw.get("inherited")),
                observed=JsonMap(raw.get("observed") or {}), notes=str(raw.get("notes") or ""),
                **_scope(raw, source, where))


def _scope(raw: Mapping[str, Any], source: str, where: str) -> dict[str, Any]:
    """The rule's models / since / until / endpoints (normalizer/scope.py)."""
    scope, wrong = parse_scope(raw)
    if wrong:
        key, problem = wrong[0]
        raise ProfileError(source, f"{where}.{key}", problem)
    return scope


def builtin_profiles() -> tuple[Profile, ...]:
    """Every built-in profile, in PROVIDERS order."""
    return tuple(load_profile(name) for name in PROVIDERS)
