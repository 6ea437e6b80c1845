"""Sync in the window: Settings > Sync sets up one computer and joins another, the
passes run in the background, what one computer is told appears in the other's memory
browser, and the status bar says how sync stands. Two computers are two profiles in
their own data folders on this machine, syncing through one folder (what Syncthing or
Dropbox would carry)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import shiboken6
from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from desktop_mem.core.config import Config
from desktop_mem.core.keys.vault import KeyringAccess, Vault
from desktop_mem.core.memory.records import NewMemory
from desktop_mem.core.profile import Profile
from desktop_mem.core.service import Service
from desktop_mem.core.service.sync import Sync
from desktop_mem.ui import tasks
from desktop_mem.ui.app import app_settings
from desktop_mem.ui.context import Context
from desktop_mem.ui.main_window import MainWindow
from desktop_mem.ui.memory_cards import meta_line
from desktop_mem.ui.pairing_dialog import PairingCodeDialog
from desktop_mem.ui.sync_ui import SyncPage
from desktop_mem.ui.sync_words import SyncWords
from tests.fakes.keyrings import MemoryKeyring
from tests.fakes.ollama_server import FakeOllama

WAIT = 20000  # ms: a pass on a busy 2-core machine (waited on what it shows, not on time)


def idle(qtbot: Any) -> None:
    qtbot.waitUntil(lambda: tasks.busy() == 0, timeout=WAIT)


def texts(w: MainWindow) -> list[str]:
    model = w.browser.model
    return [m.text for r in range(model.rowCount()) if (m := model.memory(r)) is not None]


def page_of(qtbot: Any, w: MainWindow) -> SyncPage:
    """Settings > Sync of this window, as the Settings dialog builds it."""
    page = SyncPage(w.syncing)
    qtbot.addWidget(page)
    page.resize(760, 560)
    page.show()
    idle(qtbot)
    return page


@pytest.fixture
def second(
    qtbot: Any, tmp_path: Path, isolated: MemoryKeyring, fake_ollama: FakeOllama
) -> Iterator[MainWindow]:
    """A second computer: a new profile in its own data folder, its own window."""
    home = tmp_path / "desktop-home"
    config = Config.resolve(home=home, ollama_host=fake_ollama.url, embed_model="fake-embed")
    service = Service.open(config, Vault(KeyringAccess(isolated, timeout=2.0)))
    w = MainWindow(service, app_settings(home))
    qtbot.addWidget(w)
    w.show()
    qtbot.waitUntil(lambda: w.context.server.online, timeout=5000)
    idle(qtbot)
    yield w
    idle(qtbot)
    if shiboken6.isValid(w):  # qtbot closed it already; it may be deleted by now
        w.close()
    service.close()


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    path = tmp_path / "Sync"  # the folder the engine carries
    path.mkdir()
    return path


def set_up(qtbot: Any, page: SyncPage, folder: Path, name: str) -> None:
    assert not page.showing_on()  # off: set up or join
    page.off_page.name.setText(name)
    page.off_page.set_up_folder.setText(str(folder))
    qtbot.mouseClick(page.off_page.set_up_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: page.showing_on(), timeout=WAIT)
    idle(qtbot)


def test_set_up_then_join_with_a_pairing_code_and_memories_reach_the_other_window(
    qtbot: Any, window: MainWindow, second: MainWindow, folder: Path
) -> None:
    laptop, desktop = window, second
    laptop.context.app.memories.add(NewMemory("I keep bees in Hangzhou", kind="fact"))
    laptop_page = page_of(qtbot, laptop)
    set_up(qtbot, laptop_page, folder, "laptop")
    assert laptop_page.folder.text() == str(folder)
    assert laptop_page.my_name.text() == "laptop"
    assert laptop.syncing.timer.isActive()  # passes in the background from now on
    qtbot.waitUntil(lambda: laptop.status_bar.sync_status.isVisible(), timeout=WAIT)
    assert "no other computer" in laptop.status_bar.sync_status.text()

    # a pairing code, shown large on the first computer
    qtbot.mouseClick(laptop_page.pair_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: isinstance(getattr(laptop_page, "pairing", None), PairingCodeDialog))
    code = laptop_page.pairing.code.text()
    assert len(code.replace("-", "")) >= 12
    assert laptop_page.pairing.code.font().pointSizeF() > laptop_page.font().pointSizeF() * 2
    laptop_page.pairing.reject()

    # the second computer, new and empty, joins with it
    said: list[str] = []
    laptop.context.hub.status.connect(lambda text, _ms: said.append(text))
    desktop_page = page_of(qtbot, desktop)
    assert desktop_page.off_page.join_button.isEnabled()
    assert desktop_page.off_page.join_note.isHidden()
    desktop_page.off_page.name.setText("desktop")
    desktop_page.off_page.join_folder.setText(str(folder))
    desktop_page.off_page.code.setText(code)
    qtbot.mouseClick(desktop_page.off_page.join_button, Qt.MouseButton.LeftButton)
    # what arrived, said once
    qtbot.waitUntil(lambda: desktop_page.status.text().startswith("Joined: "), timeout=WAIT)
    counts = desktop.context.app.counts()
    assert desktop_page.status.text() == (
        f"Joined: {counts['memories']} memor{'y' if counts['memories'] == 1 else 'ies'} and "
        f"{counts['conversations']} conversation{'' if counts['conversations'] == 1 else 's'} "
        "are here. laptop lets this computer in at its next sync; until then what you change "
        "here waits to be sent. From now on the recovery code of the profile you joined opens "
        "this profile: the recovery code shown when this profile was first opened no longer "
        "does."
    )
    assert desktop_page.showing_on()
    # it waits for the laptop to let it in: the laptop's next pass does, and says so
    assert desktop.syncing.status_text() == "Waiting for laptop to let this computer in"
    laptop.syncing.run_pass()
    qtbot.waitUntil(lambda: any("joined the sync" in t for t in said), timeout=WAIT)
    joined = next(t for t in said if "joined the sync" in t)
    assert joined.startswith("desktop joined the sync with the pairing code shown on laptop at")
    desktop.syncing.run_pass()
    qtbot.waitUntil(lambda: "Synced with laptop" in desktop_page.state.text(), timeout=WAIT)
    assert desktop_page.state.text() == desktop.status_bar.sync_status.text()
    assert desktop_page.off_page.code.text() == ""  # the code is not left on the screen
    # what the laptop held is in the desktop's browser (the core announced it)
    qtbot.waitUntil(lambda: "I keep bees in Hangzhou" in texts(desktop), timeout=WAIT)
    bees = next(m for m in desktop.context.app.memories.list() if m.text.startswith("I keep"))
    qtbot.waitUntil(lambda: bool(desktop.browser.model.computers), timeout=WAIT)
    assert "from laptop" in meta_line(bees, None, desktop.browser.model.computers)

    # a memory added in the desktop's window reaches the laptop's browser by the passes
    # alone: one soon after the change on the desktop, the laptop's every few moments
    laptop.syncing.timer.setInterval(200)
    desktop.syncing.soon.setInterval(50)
    desktop.memories.add_memory("我喜欢喝绿茶", "preference", False)
    qtbot.waitUntil(lambda: "我喜欢喝绿茶" in texts(laptop), timeout=WAIT)
    tea = next(m for m in laptop.context.app.memories.list() if m.text == "我喜欢喝绿茶")
    assert tea.origin_device is not None
    qtbot.waitUntil(lambda: laptop.browser.model.computers.get(tea.origin_device) == "desktop")
    # its details say where it came from
    laptop.memories.show_memory_details(tea.id)
    assert laptop.browser.drawer.computer.text() == "from desktop"
    laptop.memories.show_memory_details(
        next(m.id for m in laptop.context.app.memories.list() if m.text.startswith("I keep"))
    )
    assert laptop.browser.drawer.computer.isHidden()  # made here: nothing to say

    # the status bar says with whom it synced
    qtbot.waitUntil(
        lambda: "Synced with desktop" in laptop.status_bar.sync_status.text(), timeout=WAIT
    )
    laptop_page.refresh()
    idle(qtbot)
    assert "desktop" in laptop_page.remove_buttons
    laptop.syncing.timer.setInterval(10_000)


def test_settings_sync_holds_its_controller_and_nothing_of_the_service(
    qtbot: Any, window: MainWindow, folder: Path
) -> None:
    """Everything Settings > Sync does it asks the window's sync controller, which runs
    it off the GUI thread: no widget of the page holds the service, its sync, the
    profile or the window's context (tests/test_architecture.py reads the sources)."""
    page = page_of(qtbot, window)
    set_up(qtbot, page, folder, "laptop")
    assert page.controller is window.syncing
    widgets = [page, *page.findChildren(QObject)]
    held = [
        f"{type(widget).__name__}.{name}"
        for widget in widgets
        for name, value in getattr(widget, "__dict__", {}).items()
        if isinstance(value, Service | Sync | Profile | Context)
    ]
    assert len(widgets) > 50 and held == []


def test_joining_a_passphrase_profile_keeps_this_ones_own_recovery_code(
    qtbot: Any, second: MainWindow, folder: Path, tmp_path: Path, isolated: MemoryKeyring,
    fake_ollama: FakeOllama,
) -> None:  # fmt: skip
    """The synced profile has no recovery code: the joining window is not told of one,
    but that its own code (shown at its first start) still opens it."""
    config = Config.resolve(home=tmp_path / "laptop", ollama_host=fake_ollama.url,
                            embed_model="fake-embed", passphrase="correct horse battery")  # fmt: skip
    laptop = Service.open(config, Vault(KeyringAccess(isolated, timeout=2.0)))
    try:
        laptop.sync.set_up(folder, "laptop")
        page = page_of(qtbot, second)
        page.off_page.join_folder.setText(str(folder))
        page.off_page.code.setText(laptop.sync.offer_pairing())
        qtbot.mouseClick(page.off_page.join_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: page.status.text().startswith("Joined: "), timeout=WAIT)
        assert page.status.text().endswith(
            "The profile you joined has no recovery code (a passphrase protects it): this "
            "profile keeps its own, the one shown when it was first opened."
        )
        assert "no longer" not in page.status.text()
        idle(qtbot)
    finally:
        laptop.close()


def test_a_profile_with_data_cannot_join_and_is_told_why(
    qtbot: Any, window: MainWindow, folder: Path
) -> None:
    window.context.app.memories.add(NewMemory("I play the cello", kind="fact"))
    page = page_of(qtbot, window)
    assert not page.showing_on()
    assert not page.off_page.join_button.isEnabled() and not page.off_page.code.isEnabled()
    assert page.off_page.join_note.isVisible()
    assert "cannot join" in page.off_page.join_note.text() and "nothing here is changed" in (
        page.off_page.join_note.text()
    )
    assert page.off_page.set_up_button.isEnabled()  # setting up is offered instead
    assert window.context.app.memories.count() == 1


def test_a_missing_folder_is_said_once_in_the_status_bar_in_the_windows_words(
    qtbot: Any, window: MainWindow, folder: Path
) -> None:
    page = page_of(qtbot, window)
    set_up(qtbot, page, folder, "laptop")
    qtbot.waitUntil(lambda: "Sync on" in window.status_bar.sync_status.text(), timeout=WAIT)
    said: list[str] = []
    window.context.hub.status.connect(lambda text, _ms: said.append(text))
    folder.rename(folder.with_name("Sync-moved"))  # a drive not connected
    for _ in range(2):  # the next pass fails the same way: said once, not again
        window.syncing.run_pass()
        qtbot.waitUntil(lambda: bool(window.syncing.error), timeout=WAIT)
        idle(qtbot)
    assert len(said) == 1, said
    text = said[0]
    assert "is not there" in text and "put the folder back" in text
    assert "desktop-mem " not in text and "DESKTOP_MEM" not in text  # no command, no variable
    # the line that stays is short, in the error colour, with the sentence in its tooltip
    assert window.status_bar.sync_status.text() == "Not synced: see Settings > Sync"
    assert window.status_bar.sync_status.toolTip() == text
    assert window.status_bar.sync_status.objectName() == "status"
    assert QApplication.activeModalWidget() is None  # never a box every 10 s
    page.refresh()
    idle(qtbot)
    # Settings > Sync says it in full, wrapped across the page
    assert page.state.text() == "Not synced: the reason is below"  # not "see" here
    assert page.error_line.text() == text and page.error_line.isVisible()
    assert page.error_line.wordWrap()
    page.resize(420, 560)  # narrow: it wraps, never clipped
    idle(qtbot)
    qtbot.waitUntil(lambda: page.error_line.height() >= page.error_line.heightForWidth(
        page.error_line.width()), timeout=WAIT)  # fmt: skip
    assert page.error_line.height() > page.fontMetrics().height() * 2
    folder.with_name("Sync-moved").rename(folder)  # back: the next pass clears it
    window.syncing.run_pass()
    qtbot.waitUntil(lambda: not window.syncing.error and not window.syncing.running, timeout=WAIT)
    assert "Sync on" in window.status_bar.sync_status.text()
    assert not page.error_line.isVisible()


def test_a_window_closed_while_it_reads_how_sync_stands_is_not_touched_after(
    qtbot: Any, profile: Profile, home: Path, folder: Path
) -> None:
    """A pass made elsewhere makes the window read how sync stands, in the background;
    a window closed and deleted meanwhile must not hear the answer (it once raised
    "Signal source has been deleted" in the event loop)."""
    w = MainWindow(Service(profile), app_settings(home))  # its own: deleted by the test
    w.show()
    qtbot.waitUntil(lambda: w.context.server.online, timeout=WAIT)
    idle(qtbot)
    page = SyncPage(w.syncing)
    page.show()
    idle(qtbot)
    set_up(qtbot, page, folder, "laptop")
    shiboken6.delete(page)
    idle(qtbot)
    assert not w.syncing.running
    w.context.core.sync_changed.emit("synced")  # as the core says of a pass elsewhere
    assert tasks.busy() > 0  # the reading runs: its answer is queued for the window
    w.close()
    shiboken6.delete(w)  # gone before the answer comes back
    idle(qtbot)  # the answer arrives to nothing: no exception in the event loop


def test_a_settings_page_deleted_before_it_fits_its_window_is_not_touched(
    qtbot: Any, profile: Profile, home: Path, folder: Path
) -> None:
    """Found in CI: Settings > Sync fits its dialog to what it shows on a timer, once
    it has shown how sync stands; a page deleted (the dialog closed) before the timer
    fired raised "Internal C++ object already deleted" in the event loop."""
    w = MainWindow(Service(profile), app_settings(home))
    qtbot.addWidget(w)
    page = SyncPage(w.syncing)  # its own: deleted by the test
    page.show()
    idle(qtbot)
    set_up(qtbot, page, folder, "laptop")
    idle(qtbot)
    page._show(page.info)  # as an answer that arrives: the fitting is on a timer
    shiboken6.delete(page)
    idle(qtbot)  # the timer fires to nothing: no exception in the event loop


def test_files_refused_in_the_folder_are_said_once_then_counted_in_settings(
    qtbot: Any, window: MainWindow, folder: Path
) -> None:
    import os

    page = page_of(qtbot, window)
    set_up(qtbot, page, folder, "laptop")
    root = next(folder.glob("desktop-mem-*"))
    os.mkfifo(root / "keys" / f"000002-{'a' * 32}.dmk")  # planted: a pass would hang on it
    (root / "keys" / f"000003-{'b' * 32}.dmk").symlink_to("/dev/zero")
    window.syncing.run_pass()  # said once, in the window's words
    qtbot.waitUntil(lambda: bool(window.syncing.error), timeout=WAIT)
    idle(qtbot)
    assert "was refused" in window.syncing.error
    window.syncing.run_pass()  # then left alone, and counted
    qtbot.waitUntil(lambda: not window.syncing.error and not window.syncing.running, timeout=WAIT)
    page.refresh()
    idle(qtbot)
    assert page.ignored_line.isVisible()
    assert page.ignored_line.text().startswith("2 files in the sync folder are ignored")


def test_a_long_sync_error_is_cut_with_an_ellipsis_at_800x600(
    qtbot: Any, window: MainWindow, folder: Path
) -> None:
    window.resize(800, 600)
    page = page_of(qtbot, window)
    set_up(qtbot, page, folder, "laptop")
    folder.rename(folder.with_name("Sync-moved"))
    window.syncing.run_pass()
    qtbot.waitUntil(lambda: bool(window.syncing.error), timeout=WAIT)
    idle(qtbot)
    bar = window.statusBar()
    shown = bar.currentMessage()
    full = window.syncing.error
    # cut with "…" beside the short line, the whole sentence in the tooltip
    assert shown.endswith("…") and full.startswith(shown[:-1])
    room = bar.width() - window.status_bar.sync_status.width()
    assert bar.fontMetrics().horizontalAdvance(shown) < room
    assert bar.toolTip() == full
    bar.clearMessage()
    assert bar.toolTip() == ""


def test_remove_a_computer_after_confirming_then_turn_off(
    qtbot: Any,
    window: MainWindow,
    second: MainWindow,
    folder: Path,
    profile: Profile,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    laptop_page = page_of(qtbot, window)
    set_up(qtbot, laptop_page, folder, "laptop")
    desktop_page = page_of(qtbot, second)
    desktop_page.off_page.name.setText("desktop")
    desktop_page.off_page.join_folder.setText(str(folder))
    desktop_page.off_page.code.setText(profile.db.new_recovery_code)  # the recovery code this time
    qtbot.mouseClick(desktop_page.off_page.join_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: desktop_page.showing_on(), timeout=WAIT)
    idle(qtbot)
    window.syncing.run_pass()
    idle(qtbot)
    laptop_page.refresh()
    qtbot.waitUntil(lambda: "desktop" in getattr(laptop_page, "remove_buttons", {}), timeout=WAIT)
    asked: list[str] = []

    def answer(_parent: Any, _title: str, text: str, *_a: Any) -> Any:
        asked.append(text)
        return QMessageBox.StandardButton.No if len(asked) == 1 else QMessageBox.StandardButton.Yes

    monkeypatch.setattr(QMessageBox, "question", answer)
    qtbot.mouseClick(laptop_page.remove_buttons["desktop"], Qt.MouseButton.LeftButton)
    idle(qtbot)
    assert "new key" in asked[0] and "cannot read anything changed from now on" in asked[0]
    assert any(not p.removed for p in window.context.app.sync.peers())  # "No": kept
    qtbot.mouseClick(laptop_page.remove_buttons["desktop"], Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "was removed" in laptop_page.status.text(), timeout=WAIT)
    assert all(p.removed for p in window.context.app.sync.peers() if p.name == "desktop")
    idle(qtbot)
    qtbot.waitUntil(lambda: "desktop" not in laptop_page.remove_buttons, timeout=WAIT)
    window.syncing.run_pass()  # one did join: it was taken out, not "has not joined yet"
    qtbot.waitUntil(
        lambda: window.status_bar.sync_status.text() == "Sync on · no other computer syncs now",
        timeout=WAIT,
    )

    # the desktop hears it at its next pass: only joining again (or turning off) is
    # offered, and a pairing code from the laptop brings it back with what it holds
    second.syncing.run_pass()
    qtbot.waitUntil(lambda: bool(second.syncing.error), timeout=WAIT)
    assert "Join again" in second.syncing.error and "desktop-mem" not in second.syncing.error
    desktop_page.refresh()
    qtbot.waitUntil(lambda: desktop_page.rejoin_box.isVisibleTo(desktop_page), timeout=WAIT)
    for button in (desktop_page.pair_button, desktop_page.now_button, desktop_page.move_button,
                   *desktop_page.remove_buttons.values()):  # fmt: skip
        assert not button.isVisibleTo(desktop_page)
    # the page's own line is shown, whole, in the width the form gives it
    assert desktop_page.state.text() == "Not synced: the reason is below"
    assert desktop_page.state.width() >= desktop_page.state.fontMetrics().horizontalAdvance(
        desktop_page.state.text()
    )
    second.context.app.memories.add(NewMemory("Written on the desktop while it was out"))
    desktop_page.rejoin_code.setText(window.context.app.sync.offer_pairing())
    qtbot.mouseClick(desktop_page.rejoin_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not desktop_page.rejoin_box.isVisibleTo(desktop_page), timeout=WAIT)
    assert desktop_page.now_button.isVisibleTo(desktop_page)
    # the code is not left on the screen once done
    qtbot.waitUntil(lambda: desktop_page.rejoin_code.text() == "", timeout=WAIT)
    idle(qtbot)
    window.syncing.run_pass()
    qtbot.waitUntil(
        lambda: (
            "Written on the desktop while it was out"
            in [m.text for m in window.context.app.memories.list()]
        ),
        timeout=WAIT,
    )
    assert [p.name for p in window.context.app.sync.peers() if not p.removed] == ["desktop"]

    qtbot.mouseClick(laptop_page.off_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not laptop_page.showing_on(), timeout=WAIT)
    assert not window.context.app.sync.enabled
    assert not window.syncing.timer.isActive()
    qtbot.waitUntil(lambda: window.status_bar.sync_status.isHidden(), timeout=WAIT)
    assert laptop_page.off_page.name.text() == "laptop"  # its name is offered again, not forgotten


def test_memories_edited_on_both_computers_are_findable_from_settings(
    qtbot: Any, window: MainWindow, second: MainWindow, folder: Path, profile: Profile
) -> None:
    laptop, desktop = window, second
    laptop.context.app.memories.add(NewMemory("I work at a bakery", kind="fact"))
    laptop.context.app.sync.set_up(folder, "laptop")
    desktop.context.app.sync.join(folder, profile.db.new_recovery_code, "desktop")
    idle(qtbot)
    for w in (laptop, desktop):  # the passes are the test's from here
        w.syncing.stop()
    idle(qtbot)
    lid = laptop.context.app.memories.list()[0].id
    did = desktop.context.app.memories.list()[0].id
    laptop.context.app.memories.edit(lid, text="I work at a bakery in Leeds")
    desktop.context.app.memories.edit(did, text="I work at a bookshop")
    said: dict[str, list[str]] = {"laptop": [], "desktop": []}
    laptop.context.hub.status.connect(lambda text, _ms: said["laptop"].append(text))
    desktop.context.hub.status.connect(lambda text, _ms: said["desktop"].append(text))
    laptop.context.app.sync.now()
    for w in (desktop, laptop):  # the window's own passes, as the timer starts them
        assert w.syncing.run_pass()
        idle(qtbot)
    line = (
        "1 memory was edited on two computers at once: the other version is in its history "
        "(Settings > Sync lists them)."
    )
    # said once by each window whose pass found it (at least one of them)
    assert [said["laptop"].count(line), said["desktop"].count(line)] in ([1, 0], [0, 1], [1, 1])
    w, memory_id = (
        (laptop, lid) if laptop.context.app.sync.conflicts() else (desktop, did)
    )  # recorded on at least one of them
    assert w.context.app.sync.conflicts()
    idle(qtbot)
    w.show_page("chat")
    seen: dict[str, Any] = {}

    def drive() -> None:  # in Settings, as a user: the Sync tab, the line, "Show them"
        dialog = w.settings.dialog
        if dialog is None or not dialog.isVisible():
            QTimer.singleShot(20, drive)
            return
        tabs = dialog.tabs
        index = next(i for i in range(tabs.count()) if tabs.tabText(i) == "Sync")
        tabs.setCurrentIndex(index)
        page = tabs.widget(index)
        assert isinstance(page, SyncPage)
        if not page.conflicts_line.isVisible():
            QTimer.singleShot(20, drive)  # read off the GUI thread: not shown yet
            return
        seen["line"] = page.conflicts_line.text()
        page.conflicts_line.linkActivated.emit("show")  # the link "Show them"

    QTimer.singleShot(0, drive)
    w.settings.open_settings()  # returns once the dialog closed
    assert seen["line"].startswith("1 memory was edited on two computers at once")
    assert w.page() == "memories"  # the browser, on that memory
    qtbot.waitUntil(lambda: w.browser.drawer.current is not None, timeout=WAIT)
    assert w.browser.drawer.current.id == memory_id
    versions = {v.text for v in w.context.app.memories.history(memory_id)}
    assert {"I work at a bakery in Leeds", "I work at a bookshop"} <= versions
    # its history says which version the other computer wrote, and only that one
    texts = ("I work at a bakery in Leeds", "I work at a bookshop")
    other, theirs, mine = ("desktop", texts[1], texts[0]) if w is laptop else (
        "laptop", texts[0], texts[1])  # fmt: skip
    history = w.browser.drawer.history
    lines = [history.item(i).text() for i in range(history.count())]
    assert any(line.endswith(theirs) and f", on {other})" in line for line in lines), lines
    assert not any(line.endswith(mine) and ", on " in line for line in lines), lines
    # looked at: the line no longer counts it, and the list stays findable
    qtbot.waitUntil(lambda: not w.context.app.sync.conflicts(unseen_only=True), timeout=WAIT)
    page = page_of(qtbot, w)
    assert page.conflicts_line.isVisible()
    assert "1 memory" not in page.conflicts_line.text()
    assert "Memories edited on two computers at once" in page.conflicts_line.text()
    page.conflicts_line.linkActivated.emit("show")
    assert page.conflicts_list.isVisible() and page.conflicts_list.count() == 1


def _edited_on_both(qtbot: Any, laptop: MainWindow, desktop: MainWindow, folder: Path,
                    code: str) -> tuple[MainWindow, int]:  # fmt: skip
    laptop.context.app.memories.add(NewMemory("I work at a bakery", kind="fact"))
    laptop.context.app.sync.set_up(folder, "laptop")
    desktop.context.app.sync.join(folder, code, "desktop")
    idle(qtbot)
    for w in (laptop, desktop):
        w.syncing.stop()
    idle(qtbot)
    lid = laptop.context.app.memories.list()[0].id
    did = desktop.context.app.memories.list()[0].id
    laptop.context.app.memories.edit(lid, text="I work at a bakery in Leeds")
    desktop.context.app.memories.edit(did, text="I work at a bookshop")
    laptop.context.app.sync.now()
    desktop.context.app.sync.now()
    laptop.context.app.sync.now()
    return (laptop, lid) if laptop.context.app.sync.conflicts() else (desktop, did)


def test_opening_a_memory_edited_on_both_clears_the_line(
    qtbot: Any, window: MainWindow, second: MainWindow, folder: Path, profile: Profile
) -> None:
    w, memory_id = _edited_on_both(qtbot, window, second, folder, profile.db.new_recovery_code)
    page = page_of(qtbot, w)
    qtbot.waitUntil(lambda: page.conflicts_line.isVisible(), timeout=WAIT)
    assert page.conflicts_line.text().startswith("1 memory was edited on two computers at once")
    # its card says so, before what a narrow card cuts off
    w.show_page("memories")
    model = w.browser.model
    w.memories.refresh_memories()
    qtbot.waitUntil(lambda: memory_id in model.edited_on_both, timeout=WAIT)
    memory = w.context.app.memories.get(memory_id)
    line = meta_line(memory, None, model.computers, memory_id in model.edited_on_both)
    assert line.split(" · ")[2] == "⇄ edited on two computers", line
    # opened from anywhere (a card, a chat's "used" list): it has been looked at
    w.context.hub.memory_requested.emit(memory_id)
    qtbot.waitUntil(lambda: not w.context.app.sync.conflicts(unseen_only=True), timeout=WAIT)
    qtbot.waitUntil(lambda: "1 memory" not in page.conflicts_line.text(), timeout=WAIT)
    assert page.conflicts_line.isVisible()  # still findable
    assert w.context.app.sync.conflicts()
    # the card's mark is gone; the memory itself says why it has two versions, always
    drawer = w.browser.drawer
    assert memory_id not in model.edited_on_both
    assert drawer.edited_on_both.isVisibleTo(drawer)
    assert drawer.edited_on_both.text() == (
        "Edited on two computers at once: the other version is in its history."
    )
    w.memories.refresh_memories()
    idle(qtbot)
    qtbot.waitUntil(lambda: model.rowCount() == 1, timeout=WAIT)
    assert memory_id not in model.edited_on_both
    other = w.context.app.memories.add(NewMemory("I like rowing", kind="fact")).memory.id
    w.context.hub.memory_requested.emit(other)
    qtbot.waitUntil(lambda: drawer.current is not None and drawer.current.id == other,
                    timeout=WAIT)  # fmt: skip
    assert not drawer.edited_on_both.isVisibleTo(drawer)


def test_the_status_says_synced_only_once_the_other_has_taken_in_everything(
    qtbot: Any, window: MainWindow, second: MainWindow, folder: Path, profile: Profile
) -> None:
    """Desktop's engine is paused: the laptop's line says desktop lacks its last
    changes and since when (the tooltip what to do), not "synced"; once desktop has
    them, "Synced with desktop". Removed, desktop leaves the line at once."""
    laptop, desktop = window, second
    laptop.context.app.sync.set_up(folder, "laptop")
    desktop.context.app.sync.join(folder, profile.db.new_recovery_code, "desktop")
    idle(qtbot)
    for w in (laptop, desktop):  # the passes are the test's from here
        w.syncing.stop()
    idle(qtbot)
    laptop.syncing.run_pass()
    qtbot.waitUntil(
        lambda: "Synced with desktop" in laptop.status_bar.sync_status.text(), timeout=WAIT
    )
    for text in ("I keep bees", "I play the cello", "我喜欢喝绿茶"):
        laptop.context.app.memories.add(NewMemory(text))
    laptop.syncing.run_pass()
    idle(qtbot)
    since = laptop.context.app.sync.info()["computers"][0]["missing_since"]
    clock = SyncWords().clock(since)
    assert len(clock) == 5  # "14:02": written today
    line = f"desktop has not yet received your last 3 changes (since {clock})"
    qtbot.waitUntil(lambda: laptop.status_bar.sync_status.text() == line, timeout=WAIT)
    tip = laptop.status_bar.sync_status.toolTip()
    assert tip.startswith(line + ". Check that desktop is switched on")
    assert (
        laptop.status_bar.sync_status.objectName() == ""
    )  # not a failure: not in the error colour
    page = page_of(qtbot, laptop)
    assert page.state.text() == line
    assert page.advice_line.isVisible()  # what to do, said on the page too
    assert tip == f"{line}. {page.advice_line.text()}"
    row = page.computers_grid.itemAtPosition(0, 1).widget()
    assert row.text() == f"has not yet received your last 3 changes (since {clock})"

    desktop.syncing.run_pass()  # the engine runs again
    idle(qtbot)
    laptop.syncing.run_pass()
    qtbot.waitUntil(
        lambda: laptop.status_bar.sync_status.text() == "Synced with desktop just now", timeout=WAIT
    )
    page.refresh()
    idle(qtbot)
    row = page.computers_grid.itemAtPosition(0, 1).widget()
    assert row.text() == "has all your changes (the last reached it just now)"
    assert not page.advice_line.isVisible()

    # taken out: gone from the line at once, before any pass
    laptop.context.app.sync.remove("desktop")
    qtbot.waitUntil(
        lambda: laptop.status_bar.sync_status.text() == "Sync on · no other computer syncs now",
        timeout=WAIT,
    )
    assert not laptop.syncing.running
    qtbot.waitUntil(lambda: page.state.text() == laptop.status_bar.sync_status.text(), timeout=WAIT)


def test_a_damaged_file_is_said_in_words_a_user_can_act_on_and_mended(
    qtbot: Any, window: MainWindow, second: MainWindow, folder: Path, profile: Profile
) -> None:
    """The engine damages desktop's newest change file: the laptop says whose file it
    is and that desktop sends a fresh copy (not "remove that computer"); desktop's next
    pass mends it, and the memory arrives."""
    laptop, desktop = window, second
    laptop.context.app.sync.set_up(folder, "laptop")
    desktop.context.app.sync.join(folder, profile.db.new_recovery_code, "desktop")
    idle(qtbot)
    for w in (laptop, desktop):  # the passes are the test's from here
        w.syncing.stop()
    idle(qtbot)

    def run(w: MainWindow) -> None:
        w.syncing.run_pass()
        qtbot.waitUntil(lambda: not w.syncing.running, timeout=WAIT)
        idle(qtbot)

    run(laptop)
    run(desktop)
    run(laptop)
    desktop.context.app.memories.add(NewMemory("I play the cello on Sundays"))
    run(desktop)
    root = next(folder.glob("desktop-mem-*"))
    own = root / desktop.context.app.sync.info()["device"]
    newest = sorted(own.glob("c-*.dmc"))[-1]
    data = bytearray(newest.read_bytes())
    data[len(data) // 2] ^= 0xFF  # the same size: an engine's bad copy
    newest.write_bytes(bytes(data))

    run(laptop)
    assert laptop.syncing.error == (
        "A file of desktop's in the sync folder is damaged or missing, so its latest "
        "changes cannot be taken in yet: desktop sends a fresh copy the next time it syncs."
    )
    assert "remove" not in laptop.syncing.error.lower()
    assert "I play the cello on Sundays" not in texts(laptop)

    run(desktop)  # it finds its own file changed, and writes a fresh copy
    run(laptop)
    qtbot.waitUntil(lambda: "I play the cello on Sundays" in texts(laptop), timeout=WAIT)
    assert not laptop.syncing.error


def test_an_edit_lost_to_a_deletion_is_said_once_and_kept_until_dismissed(
    qtbot: Any,
    window: MainWindow,
    second: MainWindow,
    folder: Path,
    profile: Profile,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    laptop, desktop = window, second
    app = laptop.context.app
    for text in ("I drive a red Fiat", "I grow tomatoes"):
        app.memories.add(NewMemory(text, kind="preference"))
    app.sync.set_up(folder, "laptop")
    desktop.context.app.sync.join(folder, profile.db.new_recovery_code, "desktop")
    idle(qtbot)
    for w in (laptop, desktop):  # the passes are the test's from here
        w.syncing.stop()
    idle(qtbot)
    laptop.syncing.run_pass()
    idle(qtbot)
    # apart: the laptop edits both, the desktop deletes both
    ids = {m.text: m.id for m in app.memories.list()}
    app.memories.edit(ids["I drive a red Fiat"], text="I drive a blue Fiat")
    app.memories.edit(ids["I grow tomatoes"], text="I grow cherry tomatoes")
    desktop.context.app.memories.delete([m.id for m in desktop.context.app.memories.list()])
    desktop.context.app.sync.now()
    said: list[str] = []
    laptop.context.hub.status.connect(lambda text, _ms: said.append(text))
    laptop.syncing.run_pass()
    idle(qtbot)
    line = (
        "2 edits made here were to memories deleted on desktop. Settings > Sync keeps their "
        "text until you dismiss them."
    )
    assert said.count(line) == 1, said
    laptop.syncing.run_pass()  # said once: the next pass does not say it again
    idle(qtbot)
    assert said.count(line) == 1
    assert texts(laptop) == []  # the deletion won

    page = page_of(qtbot, laptop)
    assert page.lost_box.isVisible()
    assert page.lost_box.line.text() == "2 edits made here were to memories deleted on desktop"
    assert page.lost_box.list.count() == 2
    shown = [page.lost_box.list.item(i).text() for i in range(2)]
    assert all(t.endswith("\nedited here, deleted on desktop · just now") for t in shown), shown
    row = next(i for i, t in enumerate(shown) if t.startswith("I grow cherry tomatoes"))
    page.lost_box.list.setCurrentRow(row)
    qtbot.mouseClick(page.lost_box.copy, Qt.MouseButton.LeftButton)
    assert QApplication.clipboard().text() == "I grow cherry tomatoes"
    qtbot.mouseClick(page.lost_box.keep, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: page.lost_box.list.count() == 1, timeout=WAIT)
    qtbot.waitUntil(lambda: texts(laptop) == ["I grow cherry tomatoes"], timeout=WAIT)
    assert page.lost_box.line.text() == "1 edit made here was to a memory deleted on desktop"
    assert page.status.text() == "Kept as a new memory."

    asked: list[str] = []

    def answer(_parent: Any, _title: str, text: str, *_a: Any) -> Any:
        asked.append(text)
        return QMessageBox.StandardButton.No if len(asked) == 1 else QMessageBox.StandardButton.Yes

    monkeypatch.setattr(QMessageBox, "question", answer)
    qtbot.mouseClick(page.lost_box.dismiss, Qt.MouseButton.LeftButton)  # "No": kept
    idle(qtbot)
    assert "for good" in asked[0] and page.lost_box.list.count() == 1
    qtbot.mouseClick(page.lost_box.dismiss, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not page.lost_box.isVisibleTo(page), timeout=WAIT)
    assert app.sync.lost() == []

    # the desktop hears of the edits its deletion won over, the other way round
    said_there: list[str] = []
    desktop.context.hub.status.connect(lambda text, _ms: said_there.append(text))

    def heard() -> bool:
        # a pass of its own timer may have been under way, reading the folder before the
        # laptop's last files: the next pass takes them in (waited on what is said)
        if not desktop.syncing.running:
            desktop.syncing.run_pass()
        return any(
            t.startswith("2 edits made on laptop were to memories deleted here") for t in said_there
        )

    qtbot.waitUntil(heard, timeout=WAIT)


def test_words_for_sync_have_real_plural_forms() -> None:
    words = SyncWords()
    assert words.conflicts(1) == "1 memory was edited on two computers at once"
    assert words.conflicts(3) == "3 memories were edited on two computers at once"
    assert words.ignored(1).startswith("1 file in the sync folder is ignored: it was")
    assert words.ago("2026-01-01T10:00:00Z", _at("2026-01-01T10:02:30Z")) == "2 min ago"
    assert words.ago("2026-01-01T10:00:00Z", _at("2026-01-01T11:00:00Z")) == "1 hour ago"
    assert words.ago("2026-01-01T10:00:00Z", _at("2026-01-01T13:00:00Z")) == "3 hours ago"
    assert words.ago("2026-01-01T10:00:00Z", _at("2026-01-01T10:00:20Z")) == "just now"
    assert (
        words.synced(["laptop"], "2026-01-01T10:00:00Z", _at("2026-01-01T10:02:00Z"))
        == "Synced with laptop 2 min ago"
    )
    assert words.lost("memory_here", "desktop", 1) == (
        "1 edit made here was to a memory deleted on desktop"
    )
    assert words.lost("message_there", "desktop", 2) == (
        "2 messages written on desktop were in conversations deleted here"
    )
    assert words.lost("memory_removed", "laptop", 1) == (
        "1 memory change written on laptop after it was removed was undone here"
    )
    assert words.lost("memory_removed", "laptop", 3) == (
        "3 memory changes written on laptop after it was removed were undone here"
    )
    assert words.lost_way("memory_removed", "laptop") == (
        "written on laptop after it was removed, undone"
    )
    assert words.lost_after_pass([("message_here", "laptop", 1)]) == (
        "1 message written here was in a conversation deleted on laptop. Settings > Sync keeps "
        "its text until you dismiss it."
    )
    now = _at("2026-01-02T10:00:00Z")
    assert words.not_received("desktop", 1, None, now) == (
        "desktop has not yet received your last change"
    )
    assert words.not_received("desktop", 3, None, now) == (
        "desktop has not yet received your last 3 changes"
    )
    when = words.clock("2026-01-01T10:00:00Z", now)
    assert when.startswith("2026-01-0")  # not today: with its date
    assert words.lacks(2, "2026-01-01T10:00:00Z", now) == (
        f"has not yet received your last 2 changes (since {when})"
    )


def _at(stamp: str) -> Any:
    from datetime import datetime

    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))


def test_joining_a_large_profile_says_how_far_it_got(
    qtbot: Any, window: MainWindow, second: MainWindow, folder: Path, profile: Profile
) -> None:
    from desktop_mem.core.sync.syncer import APPLY_BATCH

    laptop, desktop = window, second
    conversations = laptop.context.app.profile.conversations
    for c in range(APPLY_BATCH // 100 + 2):  # more records than one step takes
        conv = conversations.create(f"chat {c}")
        conversations.add_messages(
            conv.id, [("user", f"message {c}-{i}", None) for i in range(100)]
        )
    laptop.context.app.sync.set_up(folder, "laptop")
    laptop.syncing.stop()
    idle(qtbot)
    page = page_of(qtbot, desktop)
    shown: list[tuple[str, str]] = []  # the page's line and the status bar's, at each step
    desktop.syncing.progress.connect(
        lambda *_: shown.append((page.status.text(), desktop.syncing.status_text()))
    )
    page.off_page.join_folder.setText(str(folder))
    page.off_page.code.setText(profile.db.new_recovery_code)
    qtbot.mouseClick(page.off_page.join_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: page.status.text().startswith("Joined: "), timeout=WAIT * 3)
    total = APPLY_BATCH // 100 * 101 + 2 * 101
    assert (
        shown
        and shown[0][0] == f"Joining: {APPLY_BATCH:,} of {total:,} records from laptop taken in…"
    )
    assert shown[0][1] == f"Syncing… {APPLY_BATCH * 100 // total}%"
    assert desktop.context.app.counts()["messages"] == (APPLY_BATCH // 100 + 2) * 100


def test_move_sync_to_another_folder_from_settings(
    qtbot: Any,
    window: MainWindow,
    folder: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    window.context.app.memories.add(NewMemory("I keep bees in Hangzhou", kind="fact"))
    page = page_of(qtbot, window)
    set_up(qtbot, page, folder, "laptop")
    device = window.context.app.sync.info()["device"]
    elsewhere = tmp_path / "Dropbox"
    elsewhere.mkdir()
    from PySide6.QtWidgets import QFileDialog

    # the folder dialog, answered as a user would (a native dialog cannot be driven)
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *_a, **_k: str(elsewhere))
    qtbot.mouseClick(page.move_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: page.status.text().startswith("This profile now syncs"), timeout=WAIT)
    qtbot.waitUntil(lambda: page.folder.text() == str(elsewhere.resolve()), timeout=WAIT)
    info = window.context.app.sync.info()
    assert info["device"] == device  # the same computer, the same key
    assert any(p.name.startswith("desktop-mem-") for p in elsewhere.iterdir())
    assert page.move_button.isEnabled()


def test_a_computer_left_out_of_a_new_key_says_so_and_joins_again(
    qtbot: Any,
    window: MainWindow,
    second: MainWindow,
    folder: Path,
    profile: Profile,
    tmp_path: Path,
    isolated: MemoryKeyring,
    fake_ollama: FakeOllama,
) -> None:
    """The laptop let the desktop in just before a third computer removed the laptop,
    and that computer had not seen the desktop yet: nothing that is not removed vouches
    for the desktop, so it is out. Its window says so in a window user's words, and
    Settings > Sync joins it again."""
    laptop_page = page_of(qtbot, window)
    set_up(qtbot, laptop_page, folder, "laptop")
    config = Config.resolve(home=tmp_path / "tablet", ollama_host=fake_ollama.url,
                            embed_model="fake-embed")  # fmt: skip
    tablet = Service.open(config, Vault(KeyringAccess(isolated, timeout=2.0)))
    try:
        tablet.sync.join(folder, profile.db.new_recovery_code, "tablet")
        window.syncing.run_pass()
        idle(qtbot)
        desktop_page = page_of(qtbot, second)
        second.context.app.sync.join(folder, window.context.app.sync.offer_pairing(), "desktop")
        idle(qtbot)
        window.syncing.run_pass()  # the laptop lets it in
        qtbot.waitUntil(lambda: not window.syncing.running, timeout=WAIT)
        second.syncing.run_pass()
        idle(qtbot)
        layout = tablet.sync.syncer.layout()
        me = second.context.app.sync.this_computer() or ""
        away = [(layout.device(me), tmp_path / "desktop-files"),
                (layout.keys / f"join-{me}.dmj", tmp_path / "join")]  # fmt: skip
        for path, aside in away:  # not delivered to the tablet yet
            path.rename(aside)
        tablet.sync.remove("laptop")
        for path, aside in away:
            aside.rename(path)
        second.syncing.run_pass()
        qtbot.waitUntil(lambda: bool(second.syncing.error), timeout=WAIT)
        error = second.syncing.error
        assert "no longer in the sync" in error and "Join again" in error
        assert "desktop-mem" not in error
        desktop_page.refresh()
        qtbot.waitUntil(lambda: desktop_page.rejoin_box.isVisibleTo(desktop_page), timeout=WAIT)
        desktop_page.rejoin_code.setText(tablet.sync.offer_pairing())
        qtbot.mouseClick(desktop_page.rejoin_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: not desktop_page.rejoin_box.isVisibleTo(desktop_page),
                        timeout=WAIT)  # fmt: skip
        qtbot.waitUntil(lambda: not second.syncing.running, timeout=WAIT)
        tablet.sync.now()  # the tablet lets it in
        second.syncing.run_pass()
        qtbot.waitUntil(lambda: not second.syncing.running, timeout=WAIT)
        idle(qtbot)
        assert not second.syncing.error
    finally:
        tablet.close()


def test_a_change_is_taken_in_as_soon_as_the_engine_puts_it_in_the_folder(
    qtbot: Any, window: MainWindow, second: MainWindow, folder: Path, profile: Profile
) -> None:
    """The desktop's timer would wait a minute; the file the laptop writes into the
    folder (as an engine would put it there) makes the desktop's window take it in at
    once, by the folder's own notices (not by polling)."""
    laptop, desktop = window, second
    set_up(qtbot, page_of(qtbot, laptop), folder, "laptop")
    desktop.context.app.sync.join(folder, profile.db.new_recovery_code, "desktop")
    desktop.syncing._sync_changed("on")
    qtbot.waitUntil(lambda: not desktop.syncing.running, timeout=WAIT)
    desktop.syncing.timer.setInterval(60_000)  # no pass by the clock in this test
    desktop.syncing.timer.start()
    qtbot.waitUntil(lambda: bool(desktop.syncing.folder_watch.root), timeout=WAIT)
    watched = set(desktop.syncing.folder_watch._watcher.directories())
    me = desktop.context.app.sync.this_computer() or ""
    assert not any(p.endswith(me) for p in watched)  # never its own folder
    laptop.context.app.memories.add(NewMemory("I learned to sail in Xiamen", kind="fact"))
    laptop.syncing.run_pass()
    qtbot.waitUntil(lambda: "I learned to sail in Xiamen" in texts(desktop), timeout=WAIT)
    assert desktop.syncing.timer.remainingTime() > 20_000  # the clock had nothing to do
