"""Every dialog works from the keyboard (issue 30): it has a default button (Enter) and
Esc closes it, and where Enter could destroy something it does not."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QPushButton

from desktop_mem.core.documents.store import PassageHit
from desktop_mem.ui.backup_ui import LockedDialog
from desktop_mem.ui.confirm_dialog import TypedConfirmDialog
from desktop_mem.ui.new_memory_dialog import NewMemoryDialog
from desktop_mem.ui.passage_dialog import PassageDialog
from desktop_mem.ui.passphrase_dialog import PassphraseDialog
from desktop_mem.ui.pull_dialog import PullDialog
from desktop_mem.ui.settings_dialog import SettingsDialog
from desktop_mem.ui.shortcuts_dialog import ShortcutsDialog

SETTINGS = {
    "ollama_host": "http://127.0.0.1:11434", "chat_model": "qwen2.5:7b",
    "embed_model": "bge-m3", "language": "en", "theme": "light", "data_folder": "/tmp",
    "key_mode": "keyring", "keyring_usable": True, "auto_memory": True, "use_memory": True,
    "sleep_consolidation": True, "instructions": "", "context_tokens": 8192,
    "openai_enabled": False, "openai_base_url": "", "openai_model": "",
}  # fmt: skip


def _passage(tmp_path: Path) -> PassageDialog:
    passage = PassageHit(1, 1, "handbook.md", str(tmp_path / "handbook.md"), None, "Leave",
                         "Annual leave is twenty-five days.", 1.0)  # fmt: skip
    return PassageDialog(passage)


DIALOGS: list[Callable[[Path], QDialog]] = [
    lambda _t: PassphraseDialog("default", create=True),
    lambda _t: PassphraseDialog("default", create=False),
    lambda _t: TypedConfirmDialog("Forget everything", "This deletes all.", "FORGET"),
    lambda _t: PullDialog("bge-m3"),
    lambda _t: ShortcutsDialog(),
    lambda _t: SettingsDialog(SETTINGS, ["qwen2.5:7b"], embedding_models=["bge-m3"]),
    lambda _t: NewMemoryDialog(),
    _passage,
    lambda _t: LockedDialog("default"),
]


@pytest.mark.parametrize("index", range(len(DIALOGS)))
def test_a_dialog_has_a_default_button_and_esc_closes_it(
    qtbot: Any, tmp_path: Path, index: int
) -> None:
    dialog = DIALOGS[index](tmp_path)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    buttons = dialog.findChildren(QPushButton)
    assert any(b.isDefault() for b in buttons), f"{type(dialog).__name__}: no default button"
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    assert not dialog.isVisible(), f"{type(dialog).__name__}: Esc did not close it"


def test_enter_in_the_typed_confirmation_destroys_nothing_until_the_word_is_typed(
    qtbot: Any,
) -> None:
    dialog = TypedConfirmDialog("Forget everything", "This deletes all.", "FORGET")
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.keyClick(dialog.entry, Qt.Key.Key_Return)
    assert dialog.isVisible() and dialog.result() != QDialog.DialogCode.Accepted
    qtbot.keyClicks(dialog.entry, "FORGET")
    qtbot.keyClick(dialog.entry, Qt.Key.Key_Return)
    assert dialog.result() == QDialog.DialogCode.Accepted


def test_enter_in_the_chats_forget_deletes_nothing(qtbot: Any) -> None:
    """The chat's "forget …" lists what it found, all ticked: Enter is Cancel there (a
    reflexive Enter after typing the command deleted them for good); Delete selected is
    chosen on purpose."""
    from types import SimpleNamespace

    from desktop_mem.ui.forget_dialog import ForgetDialog

    memory = SimpleNamespace(id=1, text="My sister Ana lives in Porto", pinned=False)
    dialog = ForgetDialog([memory], [])
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    qtbot.keyClick(dialog.items, Qt.Key.Key_Return)
    assert dialog.result() != QDialog.DialogCode.Accepted
    assert not dialog.isVisible(), "Enter closed it, as Cancel"
    dialog.show()
    dialog.delete.click()
    assert dialog.result() == QDialog.DialogCode.Accepted and dialog.chosen("memory") == [1]
