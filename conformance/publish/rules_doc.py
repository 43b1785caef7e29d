"""docs/generated/rules.md, generated from the profiles: rules × providers, then each
provider's rules
with status, vendor text, source and confidence. Regenerate with
`python -m conformance.publish.rules_doc` (a test fails when the committed file is stale)."""

from __future__ import annotations

import sys
from pathlib import Path

from normalizer.profiles import Profile, Rule, builtin_profiles
from normalizer.rules import RULE_IDS

OUT = Path(__file__).resolve().parents[2] / "docs" / "generated" / "rules.md"
LEGEND = ("Cells: **H** enforced, confidence high (seen verbatim in a vendor doc or response); "
          "**L** enforced, confidence low (second-hand); *i* inherited from the protocol's base "
          "rules (nobody has documented this vendor's own); **off** known lenient; blank: the "
          "rule does not apply to that provider.")


def cell(rule: Rule | None) -> str:
    """A rules.md matrix cell for one provider's rule: H or L (confidence), *i* when inherited,
    off when known lenient, blank when it does not apply."""
    if rule is None:
        return ""
    if not rule.enforced:
        return "off"
    mark = "**H**" if rule.confidence == "high" else "**L**"
    return f"{mark} *i*" if rule.inherited else mark


def escape(text: str) -> str:
    """The text made safe for a Markdown table cell (pipes escaped, newlines as spaces)."""
    return text.replace("|", "\\|").replace("\n", " ")


def matrix(profiles: tuple[Profile, ...]) -> list[str]:
    """The rules × providers table, for the rules some profile has."""
    used = [rid for rid in RULE_IDS if any(p.rule(rid) for p in profiles)]
    lines = ["| rule | " + " | ".join(p.provider for p in profiles) + " |",
             "|---|" + "---|" * len(profiles)]
    for rid in used:
        lines.append(f"| `{rid}` | " + " | ".join(cell(p.rule(rid)) for p in profiles) + " |")
    return lines


def provider_section(profile: Profile) -> list[str]:
    """One provider's section: its notes, and each rule's status, error type and code, vendor
    message, source, date verified and confidence."""
    lines = [f"### {profile.provider} ({profile.protocol})", ""]
    if profile.notes:
        lines += [escape(profile.notes.strip()), ""]
    lines += ["| rule | status | error type / code | vendor message | source | verified | "
              "confidence |", "|---|---|---|---|---|---|---|"]
    for r in profile.rules:
        kind = " / ".join(str(r.error.get(k)) for k in ("type", "code") if k in r.error) or "—"
        status = str(r.status) if r.enforced else f"{r.status} (off)"
        origin = " (inherited)" if r.inherited else ""
        said = r.message + "".join(f"; for {', '.join(w.models)}: {w.message}"
                                   for w in r.wordings)
        lines.append(f"| `{r.id}`{origin} | {status} | {escape(kind)} | {escape(said)} | "
                     f"{escape(r.source)} | {r.last_verified} | {r.confidence} |")
    return [*lines, ""]


def render(profiles: tuple[Profile, ...]) -> str:
    """The whole of rules.md."""
    lines = ["# Strictness rules by provider", "",
             "Generated from `normalizer/profiles/*.yaml` by "
             "`python -m conformance.publish.rules_doc`; do not edit by hand.", "", LEGEND, "",
             *matrix(profiles), "", "## Rules of each provider", ""]
    for profile in profiles:
        lines += provider_section(profile)
    return "\n".join(lines).rstrip() + "\n"


def main() -> int:
    """Write rules.md from the built-in profiles."""
    OUT.write_text(render(builtin_profiles()), encoding="utf-8")
    print(f"wrote {OUT.relative_to(Path.cwd()) if OUT.is_relative_to(Path.cwd()) else OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
