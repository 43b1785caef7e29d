"""Repair passes: pure functions, each named after the defect it removes.

Every pass has the signature `(draft, profile, policy) -> (draft, changes)`: it never
mutates its input, is deterministic and idempotent, reads what the vendor requires from
the profile (never from the provider's name), and returns one Change per item it removed,
moved, merged, rewritten or synthesized.
"""

from normalizer.passes.draft import Draft, Pass, Policy

__all__ = ["Draft", "Pass", "Policy"]
