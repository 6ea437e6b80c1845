"""The Documents page, driven as a user would."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent
from PySide6.QtWidgets import QMessageBox

from desktop_mem.core.profile import Profile
from desktop_mem.core.service import Service
from desktop_mem.ui.app import app_settings
from desktop_mem.ui.context import Context
from desktop_mem.ui.documents_ui import DocumentsPage
from tests.ui.driving import marked_pixels


def test_add_by_drop_search_pause_and_remove(
    qtbot: Any, profile: Profile, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "leave.md").write_text("# Leave\n\nAnnual leave is twenty-five days.\n", "utf-8")
    (folder / "junk.md").write_bytes(b"\x00\x01binary" * 100)
    page = DocumentsPage(Context(Service(profile), app_settings(profile.config.home)))
    qtbot.addWidget(page)
    assert page.empty.isVisibleTo(page)
    warnings: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda _p, _t, text: warnings.append(text))
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(folder))])
    drop = QDropEvent(
        QPointF(10, 10), Qt.DropAction.CopyAction, mime, Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
    )  # fmt: skip
    page.dropEvent(drop)
    # the list as the documents announced it
    qtbot.waitUntil(lambda: not page.running and page.table.rowCount() == 1, timeout=10000)
    assert page.table.rowCount() == 1 and page.table.item(0, 0).text() == "leave.md"
    assert warnings and "junk.md" in warnings[0] and "binary" in warnings[0]
    page.search.setText("how many days of annual leave")
    page.search.returnPressed.emit()
    qtbot.waitUntil(lambda: page.results.count() > 0, timeout=5000)
    assert page.results.item(0).text().startswith("leave.md, Leave")
    # the words it matched are marked in the passage found
    page.resize(800, 600)
    page.show()
    qtbot.waitExposed(page)
    assert marked_pixels(page.results) > 30
    hit = page.store.search("how many days of annual leave")[0]
    with profile.db.transaction() as conn:  # an answer that was given this passage
        conv = conn.execute(
            "INSERT INTO conversations(title, created_at, updated_at) VALUES ('t', 'x', 'x')"
        ).lastrowid
        mid = conn.execute(
            "INSERT INTO messages(conversation_id, role, content, status, created_at) "
            "VALUES (?, 'assistant', 'Twenty-five days.', 'complete', 'x')",
            (conv,),
        ).lastrowid
        conn.execute(
            "INSERT INTO message_documents(message_id, chunk_id, rank, score) VALUES (?, ?, 1, 1)",
            (mid, hit.chunk_id),
        )
    page.results.clear()
    page.search.returnPressed.emit()
    qtbot.waitUntil(lambda: page.results.count() > 0, timeout=5000)
    assert "shaped 1 answer" in page.results.item(0).text()
    page.paused.setChecked(True)
    assert page.sync(background=True) is False  # paused: the background pass waits
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    page.table.selectRow(0)
    page.remove.click()  # off the GUI thread: wait for it
    qtbot.waitUntil(lambda: page.table.rowCount() == 0, timeout=5000)
    assert page.table.rowCount() == 0 and (folder / "leave.md").exists()


def test_the_watched_folders_are_listed_unwatched_and_names_are_escaped(
    qtbot: Any, profile: Profile, tmp_path: Path
) -> None:
    folder = tmp_path / "shared"
    folder.mkdir()
    (folder / "bell\x07\x1b[2Jname.md").write_text(
        "# Bees\n\nThe bees live on the roof.\n", "utf-8"
    )
    (folder / "two.md").write_text("# Two\n\nA second note about honey.\n", "utf-8")
    page = DocumentsPage(Context(Service(profile), app_settings(profile.config.home)))
    qtbot.addWidget(page)
    assert page.folders.currentData() is None and not page.unwatch.isEnabled()
    page.add([folder])
    qtbot.waitUntil(lambda: not page.running and page.table.rowCount() == 2, timeout=10000)
    names = sorted(page.table.item(r, 0).text() for r in range(page.table.rowCount()))
    assert names == ["bell\\x07\\x1b[2Jname.md", "two.md"]  # shown, not obeyed
    assert page.folders.count() == 1 and page.folders.currentData() == str(folder.resolve())
    assert "2 documents" in page.folders.currentText() and page.unwatch.isEnabled()
    assert page.unwatch_folder(keep=False)
    qtbot.waitUntil(lambda: page.table.rowCount() == 0, timeout=10000)
    assert page.folders.currentData() is None and page.store.folders() == []
    assert (folder / "two.md").exists()  # the files themselves are never touched


def test_del_in_the_table_removes_the_selected_documents_after_asking(
    qtbot: Any, profile: Profile, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.ui.driving import ORIGINAL_QUESTION, press_in_next_box

    folder = tmp_path / "notes"
    folder.mkdir()
    for name in ("leave.md", "travel.md", "pay.md"):
        (folder / name).write_text(f"# {name}\n\nWhat {name} says about the rules.\n", "utf-8")
    page = DocumentsPage(Context(Service(profile), app_settings(profile.config.home)))
    qtbot.addWidget(page)
    page.show()
    assert page.add(sorted(folder.iterdir()))
    qtbot.waitUntil(lambda: not page.running and page.table.rowCount() == 3, timeout=10000)
    monkeypatch.setattr(QMessageBox, "question", ORIGINAL_QUESTION)  # the real dialog
    page.table.selectRow(0)
    page.table.selectionModel().select(
        page.table.model().index(1, 0),
        page.table.selectionModel().SelectionFlag.Select
        | page.table.selectionModel().SelectionFlag.Rows,
    )
    kept = page.table.item(2, 0).text()
    page.activateWindow()
    page.table.setFocus()
    qtbot.waitUntil(page.table.hasFocus)
    seen: list[str] = []
    press_in_next_box(Qt.Key.Key_Return, seen)  # a reflexive Enter keeps them
    qtbot.keyClick(page.table, Qt.Key.Key_Delete)
    assert "Remove 2 documents and every passage of them" in seen[0]
    assert page.table.rowCount() == 3
    page.activateWindow()  # offscreen, no window manager gives the window back its focus
    page.table.setFocus()
    qtbot.waitUntil(page.table.hasFocus)
    press_in_next_box(Qt.Key.Key_Y, seen)  # Yes, on purpose
    qtbot.keyClick(page.table, Qt.Key.Key_Delete)
    qtbot.waitUntil(lambda: page.table.rowCount() == 1, timeout=5000)
    assert page.table.item(0, 0).text() == kept
    assert all((folder / name).exists() for name in ("leave.md", "travel.md", "pay.md"))
