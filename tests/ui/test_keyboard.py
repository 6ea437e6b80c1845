"""The whole window by Tab alone (issue 44): every control of each page is reached, in the
order it is read, the rail included; Tab from the last control goes on round to the
first and Shift+Tab walks back the same way; nothing keeps the keyboard (the "Any date"
filter did); the place of the keyboard is drawn, in both themes."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QTimer, QUrl
from PySide6.QtGui import QColor, QDropEvent, QImage, QPalette
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QDialog,
    QLabel,
    QListWidget,
    QPushButton,
    QTabWidget,
    QToolButton,
    QWidget,
)

from desktop_mem.core.memory.store import NewMemory
from desktop_mem.ui import focus, theme
from desktop_mem.ui.main_window import MainWindow
from desktop_mem.ui.new_memory_dialog import NewMemoryDialog
from tests.fakes.ollama_server import FakeOllama
from tests.ui.driving import HANGZHOU, idle, send
from tests.ui.test_dialogs_by_keyboard import DIALOGS


def walk(start: QWidget, presses: int = 80, back: bool = False) -> list[QWidget]:
    """Press Tab (or Shift+Tab) from `start` until the keyboard is back on it: the
    widgets it stopped on, `start` first. Fails if it never comes back."""
    start.setFocus()
    assert QApplication.focusWidget() is start
    seen = [start]
    for _ in range(presses):
        here = QApplication.focusWidget()
        assert here is not None
        if back:
            QTest.keyClick(here, Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)
        else:
            QTest.keyClick(here, Qt.Key.Key_Tab)
        now = QApplication.focusWidget()
        if now is here and isinstance(here, QLabel) and "<a " in here.text():
            continue  # Tab went on to a link inside it (Undo): Enter follows it
        assert now is not here, (
            f"Tab stayed on {describe(here)} after {[describe(w) for w in seen]}"
        )
        if now is start:
            return seen
        seen.append(now)
    raise AssertionError(f"Tab never came back round: {[describe(w) for w in seen]}")


def describe(w: QWidget | None) -> str:
    if w is None:
        return "nothing"
    text = getattr(w, "text", None)
    label = text() if callable(text) else ""
    return f"{type(w).__name__}({label or w.accessibleName() or w.objectName()})"


def check_round(start: QWidget, order: list[QWidget], must: list[QWidget]) -> None:
    """Tab visits `order` (those of it usable now, of which `must` are) and comes back
    round; Shift+Tab the same way back."""
    expected = [c for c in order if c.isVisibleTo(c.window()) and c.isEnabled()]
    assert all(c in expected for c in must), [describe(c) for c in must if c not in expected]
    forward = walk(start)
    assert [describe(w) for w in forward] == [describe(w) for w in expected]
    assert forward == expected
    backward = walk(start, back=True)
    assert backward == [start, *reversed(expected[1:])]


def seeded(qtbot: Any, w: MainWindow, fake: FakeOllama, tmp_path: Path) -> None:
    """A conversation whose answer used a memory (a chip), a memory selected in the
    browser, a document on the Documents page."""
    fake.reply_json(HANGZHOU)
    send(qtbot, w, "I live in Hangzhou with my cat Mochi")
    qtbot.waitUntil(lambda: w.browser.model.rowCount() > 0, timeout=10000)
    w.context.app.memories.add(NewMemory(text="Prefers green tea", kind="preference"))
    send(qtbot, w, "Where do I live?")
    qtbot.waitUntil(lambda: any(m.parts()[5:-1] for m in w.chat.messages), timeout=10000)
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "leave.md").write_text("# Leave\n\nAnnual leave is twenty-five days.\n", "utf-8")
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(folder / "leave.md"))])
    w.documents_page.dropEvent(
        QDropEvent(QPointF(10, 10), Qt.DropAction.CopyAction, mime, Qt.MouseButton.NoButton,
                   Qt.KeyboardModifier.NoModifier)
    )  # fmt: skip
    qtbot.waitUntil(lambda: w.documents_page.table.rowCount() == 1, timeout=10000)
    idle(qtbot, w)


def test_tab_goes_round_every_page_rail_included(
    qtbot: Any, window: MainWindow, fake_ollama: FakeOllama, tmp_path: Path
) -> None:
    w = window
    seeded(qtbot, w, fake_ollama, tmp_path)
    rail = list(w.rail_buttons.values())
    assert [b.text() for b in rail] == ["Chat", "Memories", "Documents"]
    panel, chat = w.conversation_panel, w.chat

    w.show_page("chat")
    messages = [
        p for m in chat.messages for p in m.parts()
        if p.isVisibleTo(w) and p.isEnabled() and p.focusPolicy() & Qt.FocusPolicy.TabFocus
    ]  # fmt: skip
    chips = [p for p in messages if p.objectName() == "chip"]
    assert chips, "the answer shows the memory it used"
    # the message's text is no stop of its own (Copy copies it): no focus without a ring
    assert not any(m.body in messages for m in chat.messages)
    check_round(
        rail[0],
        [*rail, panel.space_box, panel.new_button, panel.incognito_button, panel.search,
         panel.list,
         chat.model_box, *messages, chat.input, chat.send_button],
        [*rail, panel.list, *chips, chat.input, chat.send_button],
    )  # fmt: skip

    w.show_page("memories")
    b, d = w.browser, w.browser.drawer
    b.select(b.model.memory(0).id)  # type: ignore[union-attr]
    qtbot.waitUntil(lambda: d.current is not None, timeout=5000)
    check_round(
        rail[0],
        [*rail, b.search, b.all_matches, b.new_button, b.space_filter, b.kind_filter,
         b.pinned_only, b.always_only, b.since, b.sort, b.list, d.text, d.kind, d.importance,
         d.has_until, d.always, d.move_button, d.save_button, d.pin_button, d.delete_button,
         d.impact, d.history,
         d.restore_button, b.export_button, b.import_button, b.forget_button],
        [b.since, b.sort, b.list, d.text, d.save_button, d.impact, d.history, b.forget_button],
    )  # fmt: skip

    w.show_page("documents")
    p = w.documents_page
    p.table.selectRow(0)
    check_round(
        rail[0],
        [*rail, p.space_box, p.add_files, p.add_folder, p.reindex, p.move_button, p.remove,
         p.table, p.folders, p.move_folder, p.unwatch, p.paused, p.search, p.results],
        [p.add_files, p.table, p.search],
    )  # fmt: skip


def test_the_any_date_filter_lets_tab_go_on(qtbot: Any, window: MainWindow) -> None:
    w = window
    w.show_page("memories")
    assert w.browser.since.text() == "Any date"
    w.browser.since.setFocus()
    qtbot.keyClick(w.browser.since, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is w.browser.sort
    qtbot.keyClick(w.browser.sort, Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)
    assert QApplication.focusWidget() is w.browser.since
    qtbot.keyClick(w.browser.since, Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)
    assert QApplication.focusWidget() is w.browser.always_only


def _dialog_round(dialog: QDialog, root: QWidget) -> None:
    """Every control of `root` that can be used now is reached, in order, and Tab comes
    back round (a dialog's own buttons after them)."""
    usable = [
        c for c in focus.in_order(root)
        if c.isVisibleTo(dialog) and c.isEnabled() and c is not root
    ]  # fmt: skip
    if not usable:
        return
    forward = walk(usable[0])
    missing = [describe(c) for c in usable if c not in forward]
    assert not missing, f"{type(dialog).__name__}: Tab never reaches {missing}"
    assert [c for c in forward if c in usable] == usable, "Tab goes in the order read"
    backward = walk(usable[0], back=True)
    assert backward == [forward[0], *reversed(forward[1:])]


def test_every_settings_tab_goes_round(qtbot: Any, window: MainWindow) -> None:
    w = window
    walked: list[str] = []
    errors: list[BaseException] = []

    def go() -> None:
        dialog = w.settings.dialog
        if dialog is None or not dialog.isVisible() or not dialog.isActiveWindow():
            if dialog is not None and dialog.isVisible():
                dialog.activateWindow()
            QTimer.singleShot(20, go)
            return
        try:
            tabs = dialog.findChild(QTabWidget)
            assert tabs is not None
            for i in range(tabs.count()):
                tabs.setCurrentIndex(i)
                _dialog_round(dialog, tabs.widget(i))
                walked.append(tabs.tabText(i))
        except BaseException as exc:  # noqa: BLE001  (reported after the dialog closes)
            errors.append(exc)
        dialog.reject()

    QTimer.singleShot(0, go)
    w.settings.open_settings()
    if errors:
        raise errors[0]
    assert len(walked) >= 6 and "Apps" in walked and "Sync" in walked


def _forget(_t: Path) -> QDialog:
    from desktop_mem.ui.forget_dialog import ForgetDialog

    memory = SimpleNamespace(id=1, text="My sister Ana lives in Porto", pinned=False)
    return ForgetDialog([memory], [])


def _forget_everything(_t: Path) -> QDialog:
    from desktop_mem.ui.forget_dialog import ForgetEverythingDialog

    return ForgetEverythingDialog(3, 10, 2)


def _recovery_code(_t: Path) -> QDialog:
    from desktop_mem.ui.backup_ui import RecoveryCodeDialog

    return RecoveryCodeDialog("KKK1-XTJD-SEA3-ABCD-EFGH-JKMN", "default")


def _pairing_code(_t: Path) -> QDialog:
    from desktop_mem.ui.pairing_dialog import PairingCodeDialog

    return PairingCodeDialog("KKK1-XTJD-SEA3")


MORE = [*DIALOGS, _forget, _forget_everything, _recovery_code, _pairing_code]


@pytest.mark.parametrize("index", range(len(MORE)))
def test_every_dialog_goes_round(qtbot: Any, tmp_path: Path, index: int) -> None:
    dialog = MORE[index](tmp_path)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    dialog.activateWindow()
    qtbot.waitUntil(dialog.isActiveWindow, timeout=5000)
    if isinstance(dialog, NewMemoryDialog):
        dialog.edit.setPlainText("Likes hiking")  # OK is usable once there is text
    tabs = dialog.findChild(QTabWidget)
    if tabs is None:
        _dialog_round(dialog, dialog)
        return
    for i in range(tabs.count()):
        tabs.setCurrentIndex(i)
        _dialog_round(dialog, tabs.widget(i))


def _ring(widget: QWidget) -> tuple[int, int]:
    """How many pixels of the highlight colour it shows without and with the focus."""

    def count() -> int:
        image = widget.grab().toImage().convertToFormat(QImage.Format.Format_RGB32)
        target = QApplication.palette().color(QPalette.ColorRole.Highlight)
        n = 0
        for y in range(image.height()):
            for x in range(image.width()):
                c = QColor(image.pixel(x, y))
                if (
                    abs(c.red() - target.red()) + abs(c.green() - target.green())
                    + abs(c.blue() - target.blue()) < 60
                ):  # fmt: skip
                    n += 1
        return n

    widget.clearFocus()
    QApplication.processEvents()
    without = count()
    widget.setFocus()
    QApplication.processEvents()
    assert widget.hasFocus()
    return without, count()


@pytest.mark.parametrize("name", ["light", "dark"])
def test_the_focus_ring_shows_on_every_kind_of_control(
    qtbot: Any, window: MainWindow, name: str
) -> None:
    w = window
    theme.apply(name)
    try:
        rail = w.rail_buttons["memories"]
        chosen = w.rail_buttons["chat"]  # checked: drawn in the highlight already
        listed = QListWidget()
        listed.addItems(["one", "two"])
        box = QComboBox()
        box.addItem("All kinds")
        tick = QCheckBox("Pinned only")
        button = QPushButton("Save")
        tool = QToolButton()
        tool.setText("Copy")
        row = QWidget(w)
        for i, c in enumerate((listed, box, tick, button, tool)):
            c.setParent(row)
            c.move(0, i * 60)
        row.resize(200, 320)
        row.show()
        for c in (rail, listed, box, tick, button, tool):
            without, with_focus = _ring(c)
            # a ring: at least its two sides' height more of the highlight colour
            assert with_focus - without >= 2 * c.height(), (name, describe(c))
        before = chosen.grab().toImage()
        chosen.setFocus()
        QApplication.processEvents()
        assert chosen.grab().toImage() != before, "the checked rail button shows its focus"
    finally:
        theme.apply("light")
