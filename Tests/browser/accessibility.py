"""axe-core (the copy the PyPI package selenium-axe-python ships) run in the page under test."""

from __future__ import annotations

import json
from pathlib import Path

import selenium_axe_python

AXE_SCRIPT = Path(selenium_axe_python.__file__).parent / "axe-core" / "axe.min.js"
BLOCKING = ("serious", "critical")
# WCAG 2.0, 2.1 and 2.2 at levels A and AA, and axe's best practices.
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]


def audit(driver) -> list[dict]:
    """Runs axe on the current page and answers its violations (every impact)."""
    if not driver.execute_script("return typeof window.axe === 'object'"):
        driver.execute_script(AXE_SCRIPT.read_text(encoding="utf8"))
    options = json.dumps({"runOnly": {"type": "tag", "values": TAGS}, "resultTypes": ["violations"]})
    # Colours are judged once they settle: a transition still running (a button's background
    # after the colour scheme changed) would be measured half-way. Endless animations (a spinner)
    # are not waited for.
    result = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "const settling = document.getAnimations()"
        ".filter((a) => a.effect && a.effect.getComputedTiming().endTime !== Infinity)"
        ".map((a) => a.finished.catch(() => {}));"
        f"Promise.all(settling).then(() => axe.run(document, {options}))"
        ".then((r) => done(r.violations), (e) => done({error: String(e)}));")
    if isinstance(result, dict) and "error" in result:
        raise RuntimeError(f"axe failed: {result['error']}")
    return result


def blocking(violations: list[dict]) -> list[dict]:
    return [v for v in violations if v.get("impact") in BLOCKING]


def describe(where: str, violations: list[dict]) -> str:
    """One readable paragraph per violation: rule, impact, and each element with axe's reason."""
    lines = []
    for v in violations:
        lines.append(f"{where}: {v['id']} ({v['impact']}) — {v['help']}")
        for node in v["nodes"][:8]:
            reason = node.get("failureSummary", "").replace("\n", " ")
            lines.append(f"    {' '.join(map(str, node['target']))}: {reason[:300]}")
    return "\n".join(lines)
