"""The suite's errors share one base and stay importable from where they were defined."""

from __future__ import annotations

import pytest

from conformance import errors
from conformance.netguard import NetworkBlockedError
from conformance.probe.observe import ControlFailure
from conformance.providers import ProvidersFileError
from conformance.pytest_plugin.collect import ScenarioFailure
from conformance.scenarios.load import ScenarioError
from conformance.scenarios.replay import StreamReplayError


@pytest.mark.parametrize("cls", [ScenarioError, ProvidersFileError, StreamReplayError,
                                 ScenarioFailure, ControlFailure, NetworkBlockedError])
def test_every_suite_error_is_a_conformance_error(cls: type) -> None:
    assert issubclass(cls, errors.ConformanceError)
    assert getattr(errors, cls.__name__) is cls
    assert cls.__name__ in (errors.__doc__ or "")  # drawn in the tree


def test_old_builtin_bases_are_kept() -> None:
    assert issubclass(ProvidersFileError, ValueError)
    assert issubclass(StreamReplayError, ValueError)
    assert issubclass(NetworkBlockedError, ConnectionRefusedError)
