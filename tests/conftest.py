"""Our own tests reach only 127.0.0.1: any other connection fails at once, loudly."""

from __future__ import annotations

from conformance import netguard

pytest_plugins = ["pytester"]


def pytest_configure() -> None:
    netguard.install()


def pytest_unconfigure() -> None:
    netguard.uninstall()
