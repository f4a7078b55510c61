"""axe-core in the page under test: the accessibility problems it finds, serious or worse.

axe-core's script is vendored beside the tests (``vendor/axe-core``, with its licence), put
into the page with Playwright and run there, so nothing comes from a CDN.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

AXE = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"
SERIOUS = ("serious", "critical")
#: The standards checked: WCAG 2.1 A and AA, and axe's own best practices.
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]


def axe_results(page: Any) -> list[dict[str, Any]]:
    """Every violation axe-core finds in the page as it is now."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    violations: list[dict[str, Any]] = page.evaluate(
        "async (tags) => (await window.axe.run(document, {runOnly: {type: 'tag', values: tags},"
        " resultTypes: ['violations']})).violations",
        TAGS,
    )
    return violations


def serious_problems(page: Any) -> list[str]:
    """The serious and critical violations, one line each: the rule, what it says, and where."""
    return [
        f"{violation['id']} ({violation['impact']}): {violation['help']} at "
        + ", ".join(
            " ".join(node["target"]) if isinstance(node["target"], list) else str(node["target"])
            for node in violation["nodes"][:4]
        )
        for violation in axe_results(page)
        if violation["impact"] in SERIOUS
    ]


def all_problems(page: Any) -> list[str]:
    """Every violation, whatever its impact (for a report while fixing them)."""
    return [f"{v['id']} ({v['impact']}): {v['help']} x{len(v['nodes'])}" for v in axe_results(page)]
