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
              "set_enabled", "edit", "rewrite", "delete", "forget", "do", "undo", "pin",
              "set_always"}  # fmt: skip
REFRESHES = {"refresh", "refresh_memories", "update_found", "memory_changed"}
SAID_BY_THE_CORE = {"memories_changed", "conversations_changed", "documents_changed",
                    "proposals_changed", "apps_changed", "key_changed"}  # fmt: skip


def _hand_refreshes(source: str) -> list[str]:
    """The functions (with what is nested in them: a task's `done`, and a method of the
    same class a task is told to call when done) that call an announcing operation of
    the service, or hand it to a task (`tasks.run(self.app.memories.restore, ...)`), and
    refresh by hand, or say by hand what the core says: "name:line"."""
    import ast

    def name(node: ast.expr) -> str:
        return node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", "")

    def calls(fn: ast.AST) -> list[ast.Attribute]:
        return [
            c.func
            for c in ast.walk(fn)
            if isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute)
        ]

    def refresh_in(fn: ast.AST) -> ast.Attribute | None:
        return next(
            (
                f
                for f in calls(fn)
                if f.attr in REFRESHES or (f.attr == "emit" and name(f.value) in SAID_BY_THE_CORE)
            ),
            None,
        )

    tree = ast.parse(source)
    methods: dict[int, dict[str, ast.FunctionDef | ast.AsyncFunctionDef]] = {}
    for cls in ast.walk(tree):
        if isinstance(cls, ast.ClassDef):
            for item in cls.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                    methods.setdefault(id(item), {}).update(
                        {m.name: m for m in cls.body if isinstance(m, ast.FunctionDef)}
                    )
    found = []
    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        writes = any(
            isinstance(a, ast.Attribute) and a.attr in ANNOUNCING and name(a.value) in AREAS
            for a in ast.walk(fn)
        )
        if not writes:
            continue
        refresh = refresh_in(fn)
        if refresh is None:  # a method of its class it hands a task as what follows
            siblings = methods.get(id(fn), {})
            followed = [
                siblings[kw.value.attr]
                for c in ast.walk(fn)
                if isinstance(c, ast.Call)
                for kw in c.keywords
                if kw.arg in ("done", "failed")
                and isinstance(kw.value, ast.Attribute)
                and name(kw.value.value) == "self"
                and kw.value.attr in siblings
            ]
            refresh = next((r for m in followed if (r := refresh_in(m)) is not None), None)
        if refresh is not None:
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
    assert _hand_refreshes(
        "def restore(self):\n"
        "    tasks.run(self.app.memories.restore, 1, done=lambda r: self.memory_changed(1))\n"
    ) == ["restore:2"]
    assert _hand_refreshes(
        "class Page:\n"
        "    def rewrite(self):\n        tasks.run(self.app.about.rewrite, done=self.rewritten)\n"
        "    def rewritten(self, done):\n        self.refresh()\n"
    ) == ["rewrite:5"]
    assert _hand_refreshes("def shown(self):\n    self.refresh()\n") == []


# -- Settings > Sync goes through its controller -----------------------------------------

# What reaches the service, or the window's hold on it: the service itself (`app`,
# `service`), its sync area and what lies under it (`sync`, `profile`, `syncer`, `keys`),
# the context that holds them (`ctx`, `context`, `core`).
SERVICE_WAYS = {"app", "service", "sync", "profile", "syncer", "keys", "ctx", "context", "core"}
# and what would let a page do the work itself: the service's modules, the context, and
# running work off the GUI thread (the controller's `tasks.run`)
SERVICE_MODULES = ("desktop_mem.core.service", "desktop_mem.core.sync", "desktop_mem.core.profile",
                   "desktop_mem.ui.context", "desktop_mem.ui.tasks")  # fmt: skip
SYNC_CONTROLLER = ROOT / "ui" / "sync_controller.py"


def sync_page_modules() -> list[Path]:
    """Settings > Sync and what it is made of: every ui/sync_*.py module but the
    controller, and the pairing code's dialog."""
    found = [*sorted((ROOT / "ui").glob("sync*.py")), ROOT / "ui" / "pairing_dialog.py"]
    return [path for path in found if path != SYNC_CONTROLLER and path.exists()]


def _service_reached(source: str) -> list[str]:
    """Where a module reaches the service other than through the sync controller:
    "what:line"."""
    import ast

    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr in SERVICE_WAYS:
            found.append(f".{node.attr}:{node.lineno}")
        elif isinstance(node, ast.Name) and node.id in SERVICE_WAYS - {"sync"}:
            found.append(f"{node.id}:{node.lineno}")
        elif isinstance(node, ast.ImportFrom):
            names = [f"{node.module}.{a.name}" for a in node.names]
            found += [f"{n}:{node.lineno}" for n in names if n.startswith(SERVICE_MODULES)]
        elif isinstance(node, ast.Import):
            found += [f"{a.name}:{node.lineno}" for a in node.names
                      if a.name.startswith(SERVICE_MODULES)]  # fmt: skip
    return found


def test_the_sync_page_asks_its_controller_and_never_the_service() -> None:
    modules = sync_page_modules()
    assert ROOT / "ui" / "sync_ui.py" in modules
    found = [
        f"{path.name}:{where}"
        for path in modules
        for where in _service_reached(path.read_text(encoding="utf-8"))
    ]
    assert found == [], "Settings > Sync asks ui/sync_controller.py, never the service"


def test_the_check_would_see_the_sync_page_reach_the_service() -> None:
    assert _service_reached("tasks.run(self.app.sync.keep_lost, 1)") == [".sync:1", ".app:1"]
    assert _service_reached("self.controller.ctx.app.sync.rename('desk')") == [
        ".sync:1", ".app:1", ".ctx:1"
    ]  # fmt: skip
    assert _service_reached("def f(service):\n    service.sync.now()\n") == [
        ".sync:2", "service:2"
    ]  # fmt: skip
    assert _service_reached("from desktop_mem.ui import tasks") == ["desktop_mem.ui.tasks:1"]
    assert _service_reached("self.controller.rename('desk', done, failed)") == []
    assert _service_reached("controller.sync_changed.connect(self.refresh)") == []
