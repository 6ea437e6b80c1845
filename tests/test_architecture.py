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


# -- the window follows what the core announces ------------------------------------------

# The service's areas (and what holds one in the window: a page's `store`, the Apps
# page's `registry`, a rejection's `command`), and their operations that change the
# profile: each announces its change (core/events.py).
AREAS = {"apps", "registry", "documents", "store", "imports", "keys", "about", "memories",
         "conversations", "command", "last_reject"}  # fmt: skip
ANNOUNCING = {"add", "remove", "renew", "set_level", "set_unregistered_level", "clear_log",
              "unwatch", "sync", "accept", "reject", "restore", "renew_recovery_code",
              "set_enabled", "edit", "rewrite", "delete", "forget", "do", "undo"}  # fmt: skip
REFRESHES = {"refresh", "refresh_memories", "update_found"}
SAID_BY_THE_CORE = {"memories_changed", "conversations_changed", "documents_changed",
                    "proposals_changed", "apps_changed", "key_changed"}  # fmt: skip


def _hand_refreshes(source: str) -> list[str]:
    """The functions (with what is nested in them: a task's `done`) that call an
    announcing operation of the service and refresh by hand, or say by hand what the
    core says: "name:line"."""
    import ast

    def name(node: ast.expr) -> str:
        return node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", "")

    found = []
    for fn in ast.walk(ast.parse(source)):
        if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        calls = [
            c.func
            for c in ast.walk(fn)
            if isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute)
        ]
        writes = any(f.attr in ANNOUNCING and name(f.value) in AREAS for f in calls)
        refresh = next(
            (
                f
                for f in calls
                if f.attr in REFRESHES or (f.attr == "emit" and name(f.value) in SAID_BY_THE_CORE)
            ),
            None,
        )
        if writes and refresh is not None:
            found.append(f"{fn.name}:{refresh.lineno}")
    return found


def test_no_part_of_the_window_refreshes_by_hand_after_an_operation_that_announces() -> None:
    found = [
        f"{path.name}:{where}"
        for path in sorted((ROOT / "ui").glob("*.py"))
        for where in _hand_refreshes(path.read_text(encoding="utf-8"))
    ]
    assert found == []


def test_the_check_would_see_a_hand_refresh() -> None:
    assert _hand_refreshes(
        "def connect_app(self):\n    app, key = self.registry.add(name)\n    self.refresh()\n"
    ) == ["connect_app:3"]
    assert _hand_refreshes(
        "def remove(self):\n"
        "    def work():\n        self.store.remove(1)\n"
        "    tasks.run(work, done=lambda _: self.refresh())\n"
    ) == ["remove:4"]
    assert _hand_refreshes(
        "def accepted(self):\n    self.app.imports.accept([1])\n"
        "    self.hub.memories_changed.emit(None)\n"
    ) == ["accepted:3"]
    assert _hand_refreshes("def shown(self):\n    self.refresh()\n") == []
