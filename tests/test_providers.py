"""Built-in and user providers."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from conformance.providers import (
    BUILTIN_PROVIDERS,
    ProvidersFileError,
    load_providers_file,
    select,
)
from normalizer import PROVIDERS
from normalizer.errors import UnknownProviderError


def test_every_builtin_has_a_loadable_profile_of_its_protocol() -> None:
    assert tuple(BUILTIN_PROVIDERS) == PROVIDERS
    for provider in BUILTIN_PROVIDERS.values():
        assert provider.load_profile().protocol == provider.protocol


def write(tmp: Path, entries: object) -> Path:
    path = tmp / "providers.yaml"
    path.write_text(yaml.safe_dump({"providers": entries}), encoding="utf-8")
    return path


def test_user_provider_defaults_to_its_protocols_reference_profile(tmp_path: Path) -> None:
    found = load_providers_file(write(tmp_path, [
        {"name": "acme", "protocol": "openai_chat", "base_url": "http://127.0.0.1:9/v1",
         "api_key_env": "ACME_KEY", "model": "m"}]))
    assert found["acme"].load_profile().provider == "openai"
    assert [p.name for p in select(["acme", "gemini"], found)] == ["acme", "gemini"]


@pytest.mark.parametrize(("entry", "message"), [
    ({"name": "a", "protocol": "grpc", "base_url": "u", "model": "m"}, "providers[0].protocol"),
    ({"name": "a", "protocol": "anthropic", "base_url": "u"}, "providers[0].model: required"),
    ({"name": "a", "protocol": "anthropic", "base_url": "u", "model": "m", "colour": 1},
     "unknown keys ['colour']"),
    ({"name": "a", "protocol": "anthropic", "base_url": "u", "model": "m", "profile": "openai"},
     "profile is for protocol 'openai_chat'"),
    ({"name": "a", "protocol": "anthropic", "base_url": "u", "model": "m",
      "profile": "missing.yaml"}, "no such profile file"),
])
def test_bad_providers_file_says_where(tmp_path: Path, entry: dict, message: str) -> None:
    with pytest.raises(ProvidersFileError, match=__import__("re").escape(message)):
        load_providers_file(write(tmp_path, [entry]))


def test_unknown_provider_selected() -> None:
    with pytest.raises(UnknownProviderError, match="openaii"):
        select(["openaii"])
