"""Settings > Appearance > Language follows the system by default and says which
language that is (issue 53, item 5): a window started in Chinese by a Chinese system
never says "English" there."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from desktop_mem.ui.main_window import MainWindow
from desktop_mem.ui.settings_dialog import SettingsDialog

ROOT = Path(__file__).resolve().parents[2]


def in_next_settings(act: Any) -> None:
    def look() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, SettingsDialog):
            QTimer.singleShot(20, look)
            return
        try:
            act(dialog)
        finally:
            if dialog.isVisible():
                dialog.reject()

    QTimer.singleShot(20, look)


def test_the_default_follows_the_system_and_an_explicit_choice_is_kept(
    qtbot: Any, window: MainWindow
) -> None:
    seen: list[tuple[str, str]] = []

    def look(dialog: SettingsDialog) -> None:
        box = dialog.language
        seen.append((box.currentData(), box.currentText()))
        assert [box.itemData(i) for i in range(box.count())] == ["system", "en", "zh_CN"]

    in_next_settings(look)
    window.settings.open_settings()
    assert seen == [("system", "As the system (English)")]  # this test's system: C

    def choose_english(dialog: SettingsDialog) -> None:
        dialog.language.setCurrentIndex(dialog.language.findData("en"))
        dialog.accept()

    in_next_settings(choose_english)
    window.settings.open_settings()  # English is shown already: no new window
    assert window.context.prefs.value("ui/language") == "en"
    in_next_settings(look)
    window.settings.open_settings()
    assert seen[-1] == ("en", "English")


def test_settings_never_says_a_language_the_window_is_not_in(
    qtbot: Any, window: MainWindow, qapp: Any
) -> None:
    """The saved choice follows the system (English here) but the window is in Chinese
    (a window built before the choice changed, a language forced for screenshots): the
    list shows Chinese, not "As the system (English)"."""
    from desktop_mem.ui.app import install_language

    seen: list[str] = []
    install_language(qapp, "zh_CN")
    try:
        in_next_settings(lambda d: seen.append(d.language.currentText()))
        window.settings.open_settings()
    finally:
        install_language(qapp, "en")
    assert seen == ["简体中文"]


LOOK = """
import sys
from pathlib import Path
import keyring
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
from desktop_mem.core.config import Config
from desktop_mem.core.keys.vault import KeyringAccess, Vault
from desktop_mem.ui import app as ui_app
from desktop_mem.ui.main_window import MainWindow
from desktop_mem.ui.settings_dialog import SettingsDialog
from tests.fakes.keyrings import MemoryKeyring
from tests.fakes.ollama_server import FakeOllama

backend = MemoryKeyring()
keyring.set_keyring(backend)
fake = FakeOllama().start()
qapp = QApplication(["desktop-mem"])

def settings_shown():
    dialog = QApplication.activeModalWidget()
    if not isinstance(dialog, SettingsDialog):
        QTimer.singleShot(20, settings_shown)
        return
    print(dialog.language.currentData(), dialog.language.currentText(), sep="\\n")
    dialog.reject()

def window_shown():
    first = QApplication.activeModalWidget()  # a new profile's recovery code, shown once
    if first is not None:
        first.done(0)
    windows = [w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow)]
    if first is not None or not windows or not windows[0].isVisible():
        QTimer.singleShot(20, window_shown)
        return
    print(qapp.property("desktop_mem_language"))
    QTimer.singleShot(20, settings_shown)
    windows[0].settings.open_settings()
    windows[0].close()
    qapp.quit()

QTimer.singleShot(0, window_shown)
config = Config.resolve(home=Path(sys.argv[1]), ollama_host=fake.url, embed_model="fake-embed")
code = ui_app.main(["desktop-mem"], vault=Vault(KeyringAccess(backend, timeout=2.0)), config=config)
fake.stop()
sys.stdout.flush()
"""


def test_a_window_started_in_chinese_says_so_in_settings(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "LANG": "zh_CN.UTF-8",
        "LC_ALL": "zh_CN.UTF-8",
        "QT_QPA_PLATFORM": "offscreen",
        "PYTHONPATH": str(ROOT),
        "DESKTOP_MEM_HOME": str(tmp_path / "home"),
    }
    env.pop("LANGUAGE", None)
    done = subprocess.run(
        [sys.executable, "-c", LOOK, str(tmp_path / "home")],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    lines = done.stdout.splitlines()
    assert lines[:3] == ["zh_CN", "system", "跟随系统（简体中文）"], done.stderr[-2000:]
