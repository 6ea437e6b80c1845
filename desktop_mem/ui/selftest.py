"""`desktop-mem self-test`: is this installation whole?

Meant for a freshly built package (packaging/smoke_test.py runs it in the bundle) and for
a user who wonders whether an install works. In a new, temporary profile (a random
passphrase, nothing in the keyring, deleted afterwards) it checks that:

- SQLCipher and the sqlite-vec extension load and the database is encrypted;
- a memory is stored, embedded by the model server and found again by meaning and by
  keyword, in English and Chinese;
- Qt starts (offscreen when there is no display), the icon and the Chinese translation
  load, and the main window opens on that profile and closes.
"""

from __future__ import annotations

import os
import secrets
import shutil
import sys
import tempfile
from pathlib import Path

from desktop_mem.core.config import Config
from desktop_mem.core.doctor import Check
from desktop_mem.core.errors import DesktopMemError
from desktop_mem.core.memory.records import NewMemory
from desktop_mem.core.service import Service

PROBE_EN = "The self-test remembers that the user grows purple tomatoes"
PROBE_ZH = "自检：用户在阳台上种紫色的番茄"


def _store_checks(app: Service) -> list[Check]:
    checks: list[Check] = []
    cipher, vec, encrypted = app.keys.encryption()
    checks.append(
        Check("database", bool(cipher) and encrypted, f"SQLCipher {cipher}, encrypted: {encrypted}")
    )
    checks.append(Check("sqlite-vec", bool(vec), f"extension {vec} loaded"))
    stored = app.memories.add_many([NewMemory(PROBE_EN), NewMemory(PROBE_ZH)])[0]
    indexed = len(stored) - app.models.unindexed().memories
    checks.append(
        Check(
            "embedding",
            indexed == len(stored),
            f"{indexed} of {len(stored)} memories embedded with {app.models.embedding_model}",
            "" if indexed else "start Ollama and pull the embedding model (see `doctor`)",
        )
    )
    for query, expected in (("which tomatoes does the user grow?", PROBE_EN), ("番茄", PROBE_ZH)):
        result = app.memories.search(query, k=1)
        found = bool(result.hits) and result.hits[0].memory.text == expected
        how = ", ".join(sorted(result.hits[0].signals)) if result.hits else "nothing"
        checks.append(Check(f"search '{query}'", found, f"found by {how}"))
    return checks


def _window_checks(app_service: Service, home: Path) -> list[Check]:
    if sys.platform.startswith("linux") and not (
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    ):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QCoreApplication, QThread
    from PySide6.QtWidgets import QApplication

    from desktop_mem.ui import tasks
    from desktop_mem.ui.app import app_icon, app_settings, install_language, prepare_application
    from desktop_mem.ui.main_window import MainWindow

    app = QApplication.instance() or QApplication(["desktop-mem"])
    prepare_application(app)  # type: ignore[arg-type]
    checks = [Check("qt", True, f"platform '{app.platformName()}'")]  # type: ignore[attr-defined]
    icon = app_icon()
    checks.append(Check("icon", not icon.isNull(), f"{len(icon.availableSizes())} sizes"))
    translator = install_language(app, "zh_CN")  # type: ignore[arg-type]
    new_chat = QCoreApplication.translate("MainWindow", "New chat")
    checks.append(
        Check(
            "translation", translator is not None and new_chat != "New chat", f"zh_CN: {new_chat}"
        )
    )
    install_language(app, "en")  # type: ignore[arg-type]
    window = MainWindow(app_service, app_settings(home))
    window.show()

    def settle() -> None:  # let the window's background work (status, lists) finish
        for _ in range(400):
            app.processEvents()
            if not tasks.busy():
                return
            QThread.msleep(25)

    settle()
    rows = window.browser.model.rowCount()
    window.close()
    settle()
    checks.append(Check("window", rows == 2, f"opened with {rows} memories in the browser"))
    window.deleteLater()
    app.processEvents()
    return checks


def run(config: Config, with_window: bool = True) -> list[Check]:
    """All checks, in a temporary data folder that is removed afterwards."""
    home = Path(tempfile.mkdtemp(prefix="desktop-mem-self-test-"))
    checks: list[Check] = []
    try:
        temp = Config(
            home=home,
            profile="self-test",
            ollama_host=config.ollama_host,
            embed_model=config.embed_model,
            passphrase=secrets.token_urlsafe(16),
        )
        try:
            with Service.open(temp) as app:
                checks += _store_checks(app)
                if with_window:
                    checks += _window_checks(app, home)
        except DesktopMemError as exc:
            checks.append(Check("profile", False, str(exc)))
    finally:
        shutil.rmtree(home, ignore_errors=True)
    return checks
