"""`Step`: a pass of `normalize`'s schedule, the rule ids it fixes and the passes it follows
(normalizer/steps.py gathers them)."""

from __future__ import annotations

from dataclasses import dataclass

from normalizer.passes import Pass


@dataclass(frozen=True, slots=True)
class Step:
    """A pass, the rule ids it fixes, and the passes that must run before it when enabled."""

    run: Pass
    fixes: tuple[str, ...]
    after: tuple[str, ...] = ()
    # Also run when the profile does not list the rule at all (the vendor's behaviour is
    # unknown, and the repair is harmless where it is not needed).
    when_unknown: bool = False
    # Idempotent, and has nothing to do exactly where no message alone gives it anything to
    # do: the confirming rounds then look only at the messages made since its last run
    # (normalizer/passes/rounds.py).
    local: bool = False
