"""Providers: a protocol + a strictness profile + base URL + API-key variable + model.

The built-ins are listed here; users add more in a YAML file (`--providers-file`)::

    providers:
      - name: acme
        protocol: openai_chat
        base_url: https://llm.acme.example/v1
        api_key_env: ACME_API_KEY
        model: acme-large
        profile: openai            # a built-in provider's profile, or a profile YAML path
      - name: anthropic            # a built-in's name: these keys override its own
        model: claude-sonnet-4-5

`base_url` is what the protocol's official SDK takes as its base URL.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from conformance.errors import ProvidersFileError
from normalizer.errors import ProfileError, UnknownProviderError
from normalizer.profiles import PROVIDERS, Profile, load_profile
from normalizer.protocols import PROTOCOLS, REFERENCE_PROVIDER


@dataclass(frozen=True, slots=True)
class Provider:
    """A provider the suite can send to: its protocol, base URL, key variable, default model and
    the profile its requests are checked with."""

    name: str
    protocol: str
    base_url: str
    api_key_env: str
    model: str
    profile: str  # a built-in provider name or a profile file path
    builtin: bool = True
    keyless: bool = False  # a local server (ollama, vllm) or a user entry without a key variable

    def load_profile(self) -> Profile:
        """The provider's profile (built-in by name, or from its file); raises what load_profile
        raises."""
        return load_profile(self.profile)

    def api_key(self, environ: Mapping[str, str] = os.environ) -> str | None:
        """The key to send live: its variable's value; KEYLESS_KEY for a keyless provider
        whose variable is unset; None when a key is needed and missing."""
        return key_from(self.api_key_env, keyless=self.keyless, environ=environ)

    def has_own_key(self, environ: Mapping[str, str] = os.environ) -> bool:
        """Whether its key variable holds a key (what `--backend auto` takes as "go live")."""
        return self.api_key(environ) not in (None, KEYLESS_KEY)


# The SDKs refuse to build a client without some key string; a keyless server ignores it.
# Not a secret: a fixed, public placeholder.
KEYLESS_KEY = "conformance-keyless"


def key_from(variable: str, *, keyless: bool,
             environ: Mapping[str, str] = os.environ) -> str | None:
    """The one "is the key set?" rule: the variable's value if set and non-empty, else
    KEYLESS_KEY for a keyless endpoint, else None."""
    value = environ.get(variable) if variable else None
    if value:
        return value
    return KEYLESS_KEY if keyless or not variable else None


# name: (protocol, base_url, api-key variable); the default model is the profile's.
_BUILTIN: dict[str, tuple[str, str, str]] = {
    "openai": ("openai_chat", "https://api.openai.com/v1", "OPENAI_API_KEY"),
    "openai_responses": ("openai_responses", "https://api.openai.com/v1", "OPENAI_API_KEY"),
    "anthropic": ("anthropic", "https://api.anthropic.com", "ANTHROPIC_API_KEY"),
    "gemini": ("gemini", "https://generativelanguage.googleapis.com", "GEMINI_API_KEY"),
    "mistral": ("openai_chat", "https://api.mistral.ai/v1", "MISTRAL_API_KEY"),
    "groq": ("openai_chat", "https://api.groq.com/openai/v1", "GROQ_API_KEY"),
    "deepseek": ("openai_chat", "https://api.deepseek.com/v1", "DEEPSEEK_API_KEY"),
    "xai": ("openai_chat", "https://api.x.ai/v1", "XAI_API_KEY"),
    "cerebras": ("openai_chat", "https://api.cerebras.ai/v1", "CEREBRAS_API_KEY"),
    "fireworks": ("openai_chat", "https://api.fireworks.ai/inference/v1", "FIREWORKS_API_KEY"),
    "together": ("openai_chat", "https://api.together.xyz/v1", "TOGETHER_API_KEY"),
    "openrouter": ("openai_chat", "https://openrouter.ai/api/v1", "OPENROUTER_API_KEY"),
    "ollama": ("openai_chat", "http://localhost:11434/v1", "OLLAMA_API_KEY"),
    "vllm": ("openai_chat", "http://localhost:8000/v1", "VLLM_API_KEY"),
    # Azure's base URL is per resource (and the model is the deployment name): a placeholder.
    "azure_openai": ("openai_chat", "https://YOUR-RESOURCE.openai.azure.com/openai/v1",
                     "AZURE_OPENAI_API_KEY"),
    "moonshot": ("openai_chat", "https://api.moonshot.ai/v1", "MOONSHOT_API_KEY"),
    "dashscope": ("openai_chat", "https://dashscope-intl.aliyuncs.com/compatible-mode/v1",
                  "DASHSCOPE_API_KEY"),
    # The same vendors' Responses endpoints (POST {base_url}/responses): one key each.
    "xai_responses": ("openai_responses", "https://api.x.ai/v1", "XAI_API_KEY"),
    "deepseek_responses": ("openai_responses", "https://api.deepseek.com", "DEEPSEEK_API_KEY"),
    "azure_openai_responses": ("openai_responses",
                               "https://YOUR-RESOURCE.openai.azure.com/openai/v1",
                               "AZURE_OPENAI_API_KEY"),
}
assert tuple(_BUILTIN) == PROVIDERS, "providers.py and normalizer.profiles.PROVIDERS differ"

_KEYLESS = frozenset({"ollama", "vllm"})  # local servers: a key is optional
BUILTIN_PROVIDERS: dict[str, Provider] = {
    name: Provider(name, *spec, load_profile(name).default_model, profile=name,
                   keyless=name in _KEYLESS)
    for name, spec in _BUILTIN.items()
}
# The profile a user provider gets when it names none: its protocol's reference vendor.
_PROTOCOL_DEFAULT_PROFILE = REFERENCE_PROVIDER
_KEYS = {"name", "protocol", "base_url", "api_key_env", "model", "profile"}


def load_providers_file(path: str | Path) -> dict[str, Provider]:
    """User providers from a YAML file; errors name the file, the entry and the field."""
    path = Path(path)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise ProvidersFileError(f"{path}: cannot read providers file: {exc}") from exc
    entries = data.get("providers") if isinstance(data, Mapping) else None
    if not isinstance(entries, list):
        raise ProvidersFileError(f"{path}: expected a mapping with a `providers:` list")
    found: dict[str, Provider] = {}
    for i, entry in enumerate(entries):
        provider = _user_provider(entry, f"{path}: providers[{i}]", path.parent)
        found[provider.name] = provider
    return found


def _user_provider(entry: Any, where: str, folder: Path) -> Provider:
    if not isinstance(entry, Mapping):
        raise ProvidersFileError(f"{where}: expected a mapping")
    entry = over_builtin(entry)
    unknown = set(entry) - _KEYS
    if unknown:
        raise ProvidersFileError(f"{where}: unknown keys {sorted(unknown)}; "
                                 f"expected {sorted(_KEYS)}")
    for key in ("name", "protocol", "base_url", "model"):
        if not isinstance(entry.get(key), str) or not entry[key]:
            raise ProvidersFileError(f"{where}.{key}: required string")
    if entry["protocol"] not in PROTOCOLS:
        raise ProvidersFileError(f"{where}.protocol: {entry['protocol']!r} is not one of "
                                 f"{', '.join(PROTOCOLS)}")
    profile = str(entry.get("profile") or _PROTOCOL_DEFAULT_PROFILE[entry["protocol"]])
    if profile not in PROVIDERS:
        profile = str((folder / profile).resolve()) if not Path(profile).is_absolute() else profile
    try:
        loaded = load_profile(profile)
    except (ProfileError, UnknownProviderError) as exc:
        raise ProvidersFileError(f"{where}.profile: {exc}") from exc
    if loaded.protocol != entry["protocol"]:
        raise ProvidersFileError(f"{where}.profile: profile is for protocol {loaded.protocol!r}, "
                                 f"provider speaks {entry['protocol']!r}")
    return Provider(name=entry["name"], protocol=entry["protocol"], base_url=entry["base_url"],
                    api_key_env=str(entry.get("api_key_env") or ""), model=entry["model"],
                    profile=profile, builtin=entry["name"] in BUILTIN_PROVIDERS,
                    keyless=not entry.get("api_key_env"))


def over_builtin(entry: Mapping[str, Any]) -> Mapping[str, Any]:
    """An entry named like a built-in provider overrides it: the keys it gives (a model, a
    base URL, ...) merge over the built-in's, which fill in the rest."""
    base = BUILTIN_PROVIDERS.get(entry.get("name")) if isinstance(entry.get("name"), str) \
        else None
    if base is None:
        return entry
    return {"protocol": base.protocol, "base_url": base.base_url,
            "api_key_env": base.api_key_env, "model": base.model, "profile": base.profile,
            **entry}


def select(names: list[str] | None, extra: Mapping[str, Provider] | None = None
           ) -> list[Provider]:
    """The providers named (all built-ins plus user ones when `names` is empty)."""
    known = {**BUILTIN_PROVIDERS, **(extra or {})}
    if not names:
        return list(known.values())
    missing = [n for n in names if n not in known]
    if missing:
        raise UnknownProviderError(missing[0], tuple(known))
    return [known[n] for n in names]
