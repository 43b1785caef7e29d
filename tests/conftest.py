"""Our own tests reach only 127.0.0.1: any other connection fails at once, loudly."""

from __future__ import annotations

from contextlib import ExitStack

import pytest

from conformance import netguard

pytest_plugins = ["pytester"]
GUARD = pytest.StashKey[ExitStack]()


def pytest_configure(config: pytest.Config) -> None:
    config.stash[GUARD] = stack = ExitStack()
    stack.enter_context(netguard.loopback_only())


def pytest_unconfigure(config: pytest.Config) -> None:
    config.stash[GUARD].close()
