"""Run options are defined once (conformance.options) for the CLI and the pytest plugin;
the defaults differ only where conformance.options says why."""

from __future__ import annotations

import io
from typing import Any

import pytest

from conformance.batch import confirm_live
from conformance.cli.main import build_parser
from conformance.options import RUN_OPTIONS, RunOption
from conformance.pytest_plugin import hooks

# The overrides listed (with their reasons) in conformance.options' docstring.
CLI_OVERRIDES = {"run": {"backend": "emulator"}, "report": {"backend": "cassette"},
                 "record": {"backend": "live", "record_mode": "all"}}


def key(name: str) -> str:
    return name.replace("-", "_")


def default(option: RunOption) -> Any:
    return [] if option.action == "append" else option.default


def test_pytest_options_are_the_table_prefixed() -> None:
    parser = pytest.Parser(_ispytest=True)
    hooks.pytest_addoption(parser)
    seen = vars(parser.parse([]))
    seen.pop("file_or_dir")  # pytest's own positional arguments
    for option in RUN_OPTIONS:
        assert seen.pop(f"conformance_{key(option.name)}") == default(option)
    assert seen == {}, "the plugin adds options outside the table"


@pytest.mark.parametrize("command", sorted(CLI_OVERRIDES))
def test_cli_options_are_the_table(command: str) -> None:
    args = vars(build_parser().parse_args([command]))
    for option in RUN_OPTIONS:
        name = key(option.name)
        if not option.cli or (name == "record_mode" and command != "record"):
            assert name not in args
            continue
        assert args[name] == CLI_OVERRIDES[command].get(name, default(option)), name


def test_record_refuses_record_mode_none() -> None:
    with pytest.raises(SystemExit):
        build_parser().parse_args(["record", "--record-mode", "none"])


def test_one_live_question_names_the_callers_flag() -> None:
    assert confirm_live(0, False, stdin=io.StringIO()) == ""
    assert confirm_live(3, True, stdin=io.StringIO()) == ""
    said = confirm_live(3, False, "--conformance-yes", stdin=io.StringIO())
    assert said == ("3 live requests would be sent to vendors (they may cost money). "
                    "Pass --conformance-yes to send them.")
