"""The keyboard stays where the user was (issue 53, item 5): Stop clicked hands it to
the composer, not to the rail's Chat button; joining a sync again leaves it on the buttons
under the box it was in, never on "Turn off sync on this computer…"."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from desktop_mem.core.profile import Profile
from desktop_mem.ui.main_window import MainWindow
from tests.fakes.ollama_server import FakeOllama
from tests.ui.driving import idle
from tests.ui.test_sync_window import WAIT, folder, page_of, second  # noqa: F401
from tests.ui.test_sync_window import idle as sync_idle


def test_after_stop_the_keyboard_is_in_the_composer(
    qtbot: Any, window: MainWindow, fake_ollama: FakeOllama
) -> None:
    w = window
    held = fake_ollama.reply("w0 w1 w2 w3 w4 w5", hold_after=2)
    w.activateWindow()
    w.chat.input.setFocus()
    qtbot.waitUntil(lambda: w.chat.input.hasFocus(), timeout=5000)
    w.chat.input.setPlainText("tell me everything")
    qtbot.mouseClick(w.chat.send_button, Qt.MouseButton.LeftButton)  # Send, by mouse
    qtbot.waitUntil(lambda: w.chat.stop_button.isVisible(), timeout=5000)
    w.chat.stop_button.setFocus()  # as a click on it gives it
    qtbot.waitUntil(lambda: w.chat.stop_button.hasFocus(), timeout=5000)
    qtbot.keyClick(w.chat.stop_button, Qt.Key.Key_Space)  # Stop, pressed
    held.release.set()
    idle(qtbot, w)
    assert w.chat.messages[-1].status.text() == "Stopped."
    focused = QApplication.focusWidget()
    assert focused is w.chat.input, focused
    assert focused is not w.rail_buttons["chat"]


def test_joining_again_leaves_the_keyboard_near_where_it_was(
    qtbot: Any,
    window: MainWindow,
    second: MainWindow,  # noqa: F811
    folder: Path,  # noqa: F811
    profile: Profile,
) -> None:
    laptop, desktop = window, second
    laptop.context.app.sync.set_up(folder, "laptop")
    desktop.context.app.sync.join(folder, profile.db.new_recovery_code, "desktop")
    sync_idle(qtbot)
    for w in (laptop, desktop):
        w.syncing.stop()
    sync_idle(qtbot)
    laptop.context.app.sync.now()
    gone = next(p.device for p in laptop.context.app.sync.peers() if p.name == "desktop")
    laptop.context.app.sync.remove(gone)
    desktop.syncing.run_pass()
    qtbot.waitUntil(lambda: bool(desktop.syncing.error), timeout=WAIT)
    page = page_of(qtbot, desktop)
    qtbot.waitUntil(lambda: page.rejoin_box.isVisibleTo(page), timeout=WAIT)
    page.activateWindow()
    page.rejoin_code.setFocus()
    qtbot.waitUntil(lambda: page.rejoin_code.hasFocus(), timeout=5000)
    page.rejoin_code.setText(laptop.context.app.sync.offer_pairing())
    page.rejoin_button.setFocus()
    qtbot.keyClick(page.rejoin_button, Qt.Key.Key_Space)  # Join again, pressed
    qtbot.waitUntil(lambda: not page.rejoin_box.isVisibleTo(page), timeout=WAIT)
    sync_idle(qtbot)
    focused = page.focusWidget()  # the page's (the window may no longer be the active one)
    assert focused is not page.off_button
    assert focused in (page.now_button, page.pair_button), focused  # near where it was
