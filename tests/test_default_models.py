"""Default models live in one place (normalizer/protocols.py) and are current: the test
warns when an SDK marks one deprecated, and fails when its end of life is near."""

from __future__ import annotations

import datetime as dt
import re
import warnings

import pytest

from conformance.providers import BUILTIN_PROVIDERS
from normalizer.protocols import DEFAULT_MODEL, REFERENCE_PROVIDER

NEAR = dt.timedelta(days=60)


def _anthropic_deprecations() -> dict[str, dt.date]:
    """The anthropic SDK's own table of deprecated models and their end-of-life dates."""
    from anthropic.resources.messages import messages

    found = {}
    for model, when in getattr(messages, "DEPRECATED_MODELS", {}).items():
        day = re.sub(r"(\d+)(st|nd|rd|th)", r"\1", when)
        found[model] = dt.datetime.strptime(day, "%B %d, %Y").date()
    return found


def test_reference_providers_send_the_protocol_default_model() -> None:
    for protocol, provider in REFERENCE_PROVIDER.items():
        assert BUILTIN_PROVIDERS[provider].model == DEFAULT_MODEL[protocol], provider


@pytest.mark.parametrize("model", sorted({p.model for p in BUILTIN_PROVIDERS.values()
                                         if p.protocol == "anthropic"}
                                        | {DEFAULT_MODEL["anthropic"]}))
def test_default_anthropic_models_are_not_near_their_end_of_life(model: str) -> None:
    ends = _anthropic_deprecations().get(model)
    if ends is None:
        return
    warnings.warn(f"{model} is deprecated by the anthropic SDK (end of life {ends}): "
                  "choose a current model in normalizer/protocols.py and re-record",
                  DeprecationWarning, stacklevel=1)
    assert ends - dt.date.today() > NEAR, f"{model} reaches its end of life on {ends}"


def test_the_sdk_table_is_read() -> None:
    table = _anthropic_deprecations()
    assert table, "the anthropic SDK no longer ships DEPRECATED_MODELS: read its new table"
    assert all(isinstance(day, dt.date) for day in table.values())
