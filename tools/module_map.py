"""Write the module map of docs/development.md from the code: every module of
desktop_mem with the first sentence of its docstring, folder by folder. A test checks
that the page holds what this writes now (run it after adding or renaming a module).

    python tools/module_map.py          # rewrite the map in docs/development.md
    python tools/module_map.py --print  # print it
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "desktop_mem"
PAGE = ROOT / "docs" / "development.md"
START = "<!-- module map: written by tools/module_map.py -->"
END = "<!-- end of the module map -->"


def first_sentence(path: Path) -> str:
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    text = " ".join(doc.split())
    match = re.match(r"(.+?[.!?])(?:\s|$)", text)
    return (match.group(1) if match else text) or "(no docstring)"


def modules() -> list[Path]:
    return sorted(
        (p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts),
        key=lambda p: (p.parent.relative_to(PACKAGE).parts, p.name != "__init__.py", p.name),
    )


def render() -> str:
    lines = [START, "", "| module | what it holds |", "|---|---|"]
    for path in modules():
        rel = path.relative_to(ROOT).as_posix()
        lines.append(f"| `{rel}` | {first_sentence(path).replace('|', '/')} |")
    lines += ["", END]
    return "\n".join(lines)


def write(page: Path = PAGE) -> bool:
    """Put the map in the page; True when it changed."""
    text = page.read_text(encoding="utf-8")
    new = render()
    if START in text:
        before, rest = text.split(START, 1)
        after = rest.split(END, 1)[1]
        updated = before + new + after
    else:
        updated = text.rstrip("\n") + "\n\n## Module map\n\n" + new + "\n"
    if updated != text:
        page.write_text(updated, encoding="utf-8")
    return updated != text


if __name__ == "__main__":
    if "--print" in sys.argv:
        print(render())
    else:
        print("rewrote the module map" if write() else "the module map is up to date")
