"""Our own tests reach only 127.0.0.1: any other connection fails at once, loudly.

Property tests are derandomized at the CI depth (the same examples every run: a red CI
means a change, not a lucky draw); `CONFORMANCE_TEST_DEPTH=thorough` explores anew."""

from __future__ import annotations

import gc
import importlib
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest
from hypothesis import settings
from sizing import DEPTH

from conformance import netguard

settings.register_profile("ci", derandomize=True, database=None)
settings.register_profile("thorough", derandomize=False)
settings.load_profile("thorough" if DEPTH == "thorough" else "ci")

pytest_plugins = ["pytester"]
GUARD = pytest.StashKey[ExitStack]()


@pytest.fixture(scope="session")
def suite_loaded() -> None:
    """In-process inner runs (`pytester.runpytest_inprocess`) unload every module they
    imported when they end; imported here first, the SDKs and the plugin's suite stay loaded
    and an inner run costs what its items cost (a subprocess spends ~2 s importing)."""
    for name in ("openai", "anthropic", "google.genai", "vcr", "conformance.backends",
                 "conformance.pytest_plugin.collect", "conformance.pytest_plugin.published",
                 "conformance.publish.matrix", "conformance.publish.recorded",
                 "conformance.emulator.server"):
        importlib.import_module(name)


@pytest.fixture(scope="module")
def emu() -> Iterator[Any]:
    """The built-in providers' emulators on a loopback port, one per test module that sends
    through the official SDKs; a module that serves other profiles defines its own `emu`."""
    from conformance.emulator import serve  # not at collection: most modules never ask
    with serve() as running:
        yield running


def pytest_configure(config: pytest.Config) -> None:
    config.stash[GUARD] = stack = ExitStack()
    stack.enter_context(netguard.loopback_only())


def pytest_unconfigure(config: pytest.Config) -> None:
    config.stash[GUARD].close()


def pytest_collection_finish(session: pytest.Session) -> None:
    """Collection leaves every SDK, the suite and ~7,000 items alive for the whole run; the
    cyclic collector would walk them all again in every full collection (a test that makes
    many objects, like the benchmark's end-to-end run, spent 4x its own time there).
    Frozen, they are skipped; what the tests allocate is collected as usual."""
    gc.collect()
    gc.freeze()



@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    """At the end pytest collects garbage several times (to flush unraisable exceptions):
    on the xdist controller, which holds every report and result and froze nothing at
    collection, those passes cost ~0.5 s after the last test. Frozen, they are skipped."""
    gc.freeze()
