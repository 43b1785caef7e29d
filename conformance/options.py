"""Run options, defined once for the `conformance` CLI and the pytest plugin.

The CLI spells an option `--backend`; the plugin spells it `--conformance-backend`, because
it loads in every pytest run of an environment where the package is installed and must not
clash with other plugins (pytest-recording owns `--record-mode`).

This module imports only the standard library: the plugin reads this table while pytest
parses its command line, in projects that may not have the suite's dependencies installed.

Defaults. The table holds the default that both surfaces use, except where a command's job
needs another one; each such override is passed where the command is built, and listed here:
- `--backend`: `auto` (the cassette where one exists, else the emulator; live only with
  `--live` and a key). pytest uses it, so CI replays what is recorded. `conformance run`
  uses `emulator`: its offline run answers "what do the profiles say", whatever cassettes
  are on disk. `conformance report` uses `cassette`: the published matrix must come from
  recorded answers only, never silently from the emulator. `conformance record` uses
  `live`: recording means asking the vendor.
- `--record-mode`: `none` (never record: CI must not write cassettes). `conformance record`
  uses `all` (overwrite), and refuses `none`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

BACKENDS = ("auto", "live", "cassette", "emulator")
RECORD_MODES = ("none", "once", "new_episodes", "all")
PYTEST_PREFIX = "--conformance-"
CLI_PREFIX = "--"


@dataclass(frozen=True, slots=True)
class RunOption:
    """One option. `help` may say `{p}` where another option's prefix goes, so each surface
    names its own spelling (`{p}live` reads `--live` in the CLI, `--conformance-live` in
    pytest)."""

    name: str
    default: Any
    help: str
    action: str = "store"  # store, append or store_true
    choices: tuple[str, ...] | None = None
    metavar: str | None = None
    cli: bool = True
    pytest: bool = True

    def flag(self, prefix: str) -> str:
        """The option as spelled with `prefix` (`--` for the CLI, `--conformance-` for pytest)."""
        return prefix + self.name

    def kwargs(self, prefix: str, default: Any = None) -> dict[str, Any]:
        """Keyword arguments for argparse's `add_argument` (pytest's `addoption` takes the
        same). A fresh list for `append`: argparse copies it, but a shared default is a trap."""
        value = self.default if default is None else default
        found: dict[str, Any] = {"action": self.action,
                                 "default": [] if self.action == "append" else value,
                                 "help": self.help.format(p=prefix)}
        if self.choices:
            found["choices"] = self.choices
        if self.metavar:
            found["metavar"] = self.metavar
        return found


RUN_OPTIONS: tuple[RunOption, ...] = (
    RunOption("provider", None, "only this provider (repeatable; default: every one)",
              action="append", metavar="NAME"),
    RunOption("providers-file", None, "more providers, from YAML", metavar="YAML"),
    RunOption("backend", "auto",
              "where requests go (default: %(default)s). auto: live with {p}live where the "
              "provider's key is set, else the cassette where one exists, else the emulator",
              choices=BACKENDS),
    RunOption("live", False, "with {p}backend auto: use the vendor where its key is set",
              action="store_true"),
    RunOption("yes", False, "send live requests without asking", action="store_true"),
    RunOption("record-mode", "none",
              "vcrpy record mode for cassettes (default: %(default)s)",
              choices=RECORD_MODES),
    RunOption("cassette-dir", "cassettes", "cassette folder (default: %(default)s)",
              metavar="DIR"),
    # The CLI has `--out` per command; pytest has no other way to ask for the matrix.
    RunOption("report", None, "write the strictness matrix (JSON, Markdown, HTML) into DIR",
              metavar="DIR", cli=False),
)
OPTIONS = {option.name: option for option in RUN_OPTIONS}


def plugin_flag(name: str) -> str:
    """How pytest spells a run option, e.g. `--conformance-backend`."""
    return OPTIONS[name].flag(PYTEST_PREFIX)
