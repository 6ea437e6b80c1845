"""The shape the import contracts cannot see: the front ends reach the profile only
through the application service's operations, never its stores or its database by
attribute (`service.profile.memories`, `....db.query`), and hold no SQL."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "desktop_mem"
FRONT_ENDS = [
    *sorted((ROOT / "ui").glob("*.py")),
    *sorted((ROOT / "cli").glob("*.py")),
    ROOT / "api.py",
    ROOT / "mcp_server.py",
]
BELOW = re.compile(r"\.profile\.(?:memories|conversations|documents|search|db|clients|settings)\b")
DATABASE = re.compile(r"\.db\.|\bdb\.(?:query|execute|transaction)\(")
SQL = re.compile(r"\b(?:SELECT|INSERT INTO|UPDATE|DELETE FROM)\b [a-z_*]")


def test_the_front_ends_use_operations_not_stores() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in FRONT_ENDS
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if BELOW.search(line) or DATABASE.search(line) or SQL.search(line)
    ]
    assert found == []


def test_the_check_would_see_a_store_reached_through_the_service() -> None:
    assert BELOW.search("rows = self.ctx.app.profile.memories.list()")
    assert DATABASE.search("n = app.profile.db.query('SELECT count(*) FROM messages')")
    assert SQL.search('db.query("SELECT id FROM memories")')
