"""`conformance emulate`: prints one base URL per provider, serves, stops cleanly."""

from __future__ import annotations

import threading
from typing import Any

from conformance.cli import emulate as cli_emulate
from conformance.cli.main import build_parser


def test_emulate_prints_urls_and_stops(capsys: Any) -> None:
    args = build_parser().parse_args(["emulate", "--provider", "openai",
                                      "--provider", "anthropic", "--quiet"])
    stop = threading.Event()
    stop.set()  # serve, print, and return at once
    before = set(threading.enumerate())
    assert cli_emulate.run(args, stop=stop) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in out] == ["openai", "anthropic"]
    assert out[0].split()[2].startswith("http://127.0.0.1:")
    assert out[0].split()[2].endswith("/openai/v1")
    assert out[1].split()[2].endswith("/anthropic")
    assert set(threading.enumerate()) - before == set()  # the server's threads are gone


def test_emulate_unknown_provider_is_an_error(capsys: Any) -> None:
    args = build_parser().parse_args(["emulate", "--provider", "nosuch"])
    assert cli_emulate.run(args, stop=threading.Event()) == 2
    assert "unknown provider 'nosuch'" in capsys.readouterr().err
