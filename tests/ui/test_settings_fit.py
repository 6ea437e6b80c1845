"""The Settings dialog at its own size shows every button's words whole."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtWidgets import QPushButton

from desktop_mem.ui.settings_dialog import SettingsDialog
from tests.ui.test_dialogs_by_keyboard import SETTINGS


@pytest.mark.parametrize("mode", ["passphrase", "keyring"])
def test_the_ways_to_change_the_key_are_not_cut_short(qtbot: Any, mode: str) -> None:
    """Side by side, "Keep the key in the system keyring instead" was cut to
    "ep the key in the system keyring inste" at the dialog's width, on every screen."""
    dialog = SettingsDialog({**SETTINGS, "key_mode": mode}, ["qwen2.5:7b"])
    qtbot.addWidget(dialog)
    dialog.show()
    for index in range(dialog.tabs.count()):
        dialog.tabs.setCurrentIndex(index)
        qtbot.waitUntil(dialog.tabs.currentWidget().isVisible)
        for button in dialog.tabs.currentWidget().findChildren(QPushButton):
            if button.isVisible() and button.text():
                assert button.width() >= button.sizeHint().width(), button.text()
