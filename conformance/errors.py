"""The suite's errors, under one base, so a caller can catch "anything the suite refused".

    ConformanceError
     ├── ScenarioError        a scenario file does not load (every problem, located)
     ├── ProvidersFileError   a providers YAML file is unreadable or wrong (file, entry, field)
     ├── StreamReplayError    a scenario's recorded stream could not be read through the SDK
     ├── ScenarioFailure      a pytest item's verdict is not the expected one
     ├── ControlFailure       `conformance probe`'s valid control request was not accepted
     └── NetworkBlockedError  a connection to a non-loopback address while the guard is on
                              (also a ConnectionRefusedError, so socket callers see a refusal)

Each keeps its old built-in base where it had one (ValueError, ConnectionRefusedError),
so existing `except ValueError` callers keep working. The classes are defined here and
re-exported where they lived before (scenarios.load, providers, scenarios.replay,
pytest_plugin.collect, probe.observe, netguard).

A vendor's answer is never an exception here: HTTP errors become an `Outcome`
(clients.py) and a `Verdict` (classify.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from conformance.classify import Verdict


class ConformanceError(Exception):
    """Base of every error the suite raises on purpose."""


@dataclass(frozen=True, slots=True)
class Problem:
    """One located problem of a scenario file."""

    line: int
    col: int
    where: str
    message: str


class ScenarioError(ConformanceError):
    """All problems of one scenario file, each as `path:line:col: key.path: problem`."""

    def __init__(self, path: str, problems: Sequence[Problem]) -> None:
        self.path = path
        self.problems = tuple(problems)
        super().__init__("\n".join(self.lines()))

    def lines(self) -> list[str]:
        """Each problem as `path:line:col: key.path: problem`."""
        return [f"{self.path}:{p.line}:{p.col}: {p.where or '(top)'}: {p.message}"
                for p in self.problems]


class ProvidersFileError(ConformanceError, ValueError):
    """A providers file that cannot be used; the message names file, entry and field."""


class StreamReplayError(ConformanceError, ValueError):
    """The recorded stream could not be read through the SDK at all (no event arrived)."""


class ScenarioFailure(ConformanceError):
    """An item whose verdict is not the expected one (shown without a traceback)."""

    def __init__(self, result: Any, nodeid: str) -> None:
        super().__init__(result.problem)
        self.result = result
        self.nodeid = nodeid


class ControlFailure(ConformanceError):
    """Why the probe's control request failed: exit code, one-line cause, the next step.
    Returned by `probe.observe.check_control` (a value to report), raisable like any
    other suite error."""

    def __init__(self, exit_code: int, cause: str, hint: str, verdict: Verdict) -> None:
        super().__init__(cause)
        self.exit_code = exit_code
        self.cause = cause
        self.hint = hint
        self.verdict = verdict

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ControlFailure) and (
            (self.exit_code, self.cause, self.hint, self.verdict)
            == (other.exit_code, other.cause, other.hint, other.verdict))

    __hash__ = None  # type: ignore[assignment]  # mutable exception, compared by value

    def explain(self) -> str:
        """The failure as one line: the cause, the vendor's status and message, then the next
        step."""
        said = self.verdict.message or self.verdict.reason
        status = f"HTTP {self.verdict.status}" if self.verdict.status else "no HTTP answer"
        return f"{self.cause} ({status}: {said or 'no message'}). {self.hint}"


class NetworkBlockedError(ConformanceError, ConnectionRefusedError):
    """An outbound connection to a non-loopback address while the network guard is on."""


__all__ = ["ConformanceError", "ControlFailure", "NetworkBlockedError", "Problem",
           "ProvidersFileError", "ScenarioError", "ScenarioFailure", "StreamReplayError"]
