"""Settings > Sync: the page (sync on: the folder, this computer, the other computers,
join again, conflicts; off: setting up or joining, ui/sync_setup.py; what merges
dropped, ui/sync_lost.py, either way); the passes, the status bar's line and every call
to the service are the sync controller's (ui/sync_controller.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QFileDialog,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)
from shiboken6 import isValid

from desktop_mem.core.textproc import shorten
from desktop_mem.ui.item_models import ID_ROLE
from desktop_mem.ui.pairing_dialog import PairingCodeDialog
from desktop_mem.ui.sync_controller import SyncController
from desktop_mem.ui.sync_lost import LostChangesBox
from desktop_mem.ui.sync_setup import SetUpOrJoin
from desktop_mem.ui.sync_words import SyncWords
from desktop_mem.ui.widgets import ElidedLabel


class SyncPage(QWidget):
    """Settings > Sync. Off: sync this profile through a folder, or join a synced one.
    On: the folder, this computer's name, the other computers (each with when it last
    synced, and Remove), a pairing code, sync now, turn off, and the memories edited on
    two computers at once."""

    memory_requested = Signal(int)  # show this memory in the browser
    conflicts_requested = Signal()  # list the memories edited on two computers at once

    def __init__(self, controller: SyncController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.words = SyncWords(self)
        self._conflicts: list[tuple[int, str, str]] = []
        self._joining = False  # a join runs: its progress is said in the page's line
        layout = QVBoxLayout(self)
        # one of two shown, in the page's own layout (a stack would not give wrapped
        # paragraphs the height they need at their width)
        self.off_page = SetUpOrJoin()
        self.off_page.set_up_requested.connect(self._set_up)
        self.off_page.join_requested.connect(self._join)
        self.off_page.said.connect(self._say)
        self.on_page = self._on_page()
        self.on_page.hide()
        layout.addWidget(self.off_page)
        layout.addWidget(self.on_page)
        # what merges dropped: shown on or off (sync may be off by now), until dismissed
        self.lost_box = LostChangesBox(controller)
        self.lost_box.said.connect(self._say)
        self.lost_box.handled.connect(self.refresh)
        layout.addWidget(self.lost_box)
        self.status = QLabel("")
        self.status.setObjectName("notice")
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.status)
        layout.addStretch(1)
        controller.changed.connect(self._controller_changed)
        controller.progress.connect(self._progressed)
        controller.sync_changed.connect(self._sync_changed)
        self.refresh()

    def _sync_changed(self, _state: str) -> None:
        if self.isVisible():  # a Settings dialog closed long ago reads nothing
            self.refresh()

    # -- off ---------------------------------------------------------------------------

    def showing_on(self) -> bool:
        """Whether it shows sync on (else: set up or join)."""
        return not self.on_page.isHidden()

    def _set_up(self, folder: str, name: str) -> None:
        self.off_page.busy()
        self._say(self.tr("Setting up sync…"))
        self.controller.set_up(folder, name, self._done, self._failed)

    def _join(self, folder: str, code: str, name: str) -> None:
        self.off_page.busy()
        self._say(self.tr("Joining: bringing in everything the other computers hold…"))
        self._joining = True
        self.controller.join(folder, code, name, self._done, self._failed)

    def _progressed(self, done: int, total: int, peer: str) -> None:
        """Joining (or a long catch-up): how far, in the page's own line."""
        if self._joining and done < total:
            self._say(
                self.tr("Joining: %1 of %2 records from %3 taken in…")
                .replace("%1", f"{done:,}")
                .replace("%2", f"{total:,}")
                .replace("%3", peer)
            )

    def _rejoin(self) -> None:
        code = self.rejoin_code.text().strip()
        if not code:
            self._say(self.tr("Enter a pairing code shown on one of your other computers."),
                      error=True)  # fmt: skip
            return
        if self.rejoin_button.hasFocus():  # disabled, it would hand it to the next one
            self.rejoin_code.setFocus()
        self.rejoin_button.setEnabled(False)
        self._say(self.tr("Joining again…"))
        self._joining = True
        folder = str(self.info.get("folder", ""))

        def done(_info: Any) -> None:
            self.rejoin_code.clear()  # a code is not left on the screen
            self.rejoin_button.setEnabled(True)
            self._done(_info)

        def failed(text: str) -> None:
            self.rejoin_button.setEnabled(True)
            self._failed(text)

        self.controller.join(folder, code, None, done, failed)

    def _done(self, info: Any) -> None:
        joined = self._joining
        self._joining = False
        self.off_page.code.clear()  # a code is not left on the screen
        counts = (info or {}).get("counts") or {}
        if joined and counts:  # what arrived, said once
            said = (
                self.tr("Joined: %1 and %2 are here.")
                .replace("%1", self.tr("%n memory(s)", "", int(counts.get("memories", 0))))
                .replace(
                    "%2", self.tr("%n conversation(s)", "", int(counts.get("conversations", 0)))
                )
            )
            waiting = (info or {}).get("waiting_for")
            if waiting:  # joined with a pairing code: that computer lets this one in
                said = (
                    self.tr("%1 %2")
                    .replace("%1", said)
                    .replace(
                        "%2",
                        self.tr(
                            "%1 lets this computer in at its next sync; until then what you "
                            "change here waits to be sent."
                        ).replace("%1", str(waiting.get("name") or "")),
                    )
                )
            recovery = self._recovery_said((info or {}).get("recovery"))
            # two sentences, as the language joins them (no space after "。")
            self._say(self.tr("%1 %2").replace("%1", said).replace("%2", recovery).strip())
        else:
            self._say(self.tr("Sync is on."))
        self.refresh()

    def _recovery_said(self, recovery: str | None) -> str:
        """Which recovery code opens this profile after joining, as the core did it;
        nothing for a profile that has none (a passphrase opens it)."""
        if recovery == "synced":
            return self.tr(
                "From now on the recovery code of the profile you joined opens this profile: "
                "the recovery code shown when this profile was first opened no longer does."
            )
        if recovery == "own":
            return self.tr(
                "The profile you joined has no recovery code (a passphrase protects it): this "
                "profile keeps its own, the one shown when it was first opened."
            )
        return ""

    def _failed(self, text: str) -> None:
        self._joining = False
        self._say(text, error=True)
        self.refresh()

    # -- on ----------------------------------------------------------------------------

    def _on_page(self) -> QWidget:
        page = QWidget()
        column = QVBoxLayout(page)
        column.setContentsMargins(0, 0, 0, 0)
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        self.folder = QLineEdit("")  # read only: a long path scrolls, and can be copied
        self.folder.setReadOnly(True)
        self.move_button = QPushButton(self.tr("Move to another folder…"))
        self.move_button.setToolTip(
            self.tr(
                "Sync through another folder from now on (the engine's folder moved, or you "
                "use another engine). The same key and the same computer: nothing is sent again."
            )
        )
        self.move_button.clicked.connect(self._move)
        row = QHBoxLayout()
        row.addWidget(self.folder, 1)
        row.addWidget(self.move_button)
        form.addRow(self.tr("Folder"), row)
        # the status bar's line: synced when, or that it failed (the sentence follows on a
        # line of its own); one line, "…" and a tooltip when narrower (a wrapped label in
        # a form row was given one line's height and clipped)
        self.state = ElidedLabel("")
        # the form grows only fields that ask to expand (an ignored width would get none)
        self.state.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)

        form.addRow(self.tr("Status"), self.state)
        row = QHBoxLayout()
        self.my_name = QLineEdit()
        self.my_name.setMaxLength(60)
        self.rename_button = QPushButton(self.tr("Rename"))
        self.rename_button.clicked.connect(self._rename)
        row.addWidget(self.my_name, 1)
        row.addWidget(self.rename_button)
        form.addRow(self.tr("This computer"), row)
        self.computers = QWidget()
        self.computers_grid = QGridLayout(self.computers)
        self.computers_grid.setContentsMargins(0, 0, 0, 0)
        self.computers_grid.setColumnStretch(1, 1)
        form.addRow(self.tr("Other computers"), self.computers)
        column.addLayout(form)
        # what is wrong, the whole sentence, wrapped across the page (the status bar has
        # room for a few words only; in a form row a long sentence was clipped)
        self.error_line = QLabel("")
        self.error_line.setObjectName("status")
        self.error_line.setWordWrap(True)
        self.error_line.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.error_line.hide()
        column.addWidget(self.error_line)
        # files a pass refused for what they are: said once, then counted here
        self.ignored_line = QLabel("")
        self.ignored_line.setObjectName("notice")
        self.ignored_line.setWordWrap(True)
        self.ignored_line.hide()
        column.addWidget(self.ignored_line)
        # what the user can do when another computer lacks this one's changes (or its
        # files have not all arrived): the status bar has it in its tooltip only
        self.advice_line = QLabel("")
        self.advice_line.setObjectName("notice")
        self.advice_line.setWordWrap(True)
        self.advice_line.hide()
        column.addWidget(self.advice_line)

        self.conflicts_line = QLabel("")
        self.conflicts_line.setWordWrap(True)
        self.conflicts_line.linkActivated.connect(lambda _link: self._show_conflicts())
        column.addWidget(self.conflicts_line)
        self.conflicts_list = QListWidget()
        self.conflicts_list.setMaximumHeight(120)
        self.conflicts_list.setToolTip(
            self.tr("The other version of each is in its history. Double-click to open it.")
        )
        self.conflicts_list.itemActivated.connect(self._conflict_activated)
        self.conflicts_list.hide()
        column.addWidget(self.conflicts_list)

        # taken out of the sync by another computer: join it again, keeping what is here
        self.rejoin_box = QGroupBox(self.tr("Join again"))
        inner = QFormLayout(self.rejoin_box)
        note = QLabel(
            self.tr(
                "Show a pairing code on one of your other computers (Settings > Sync) and "
                "enter it here. This computer joins as a new one and keeps everything it "
                "holds: what changed here since is sent, what the others did is taken in."
            )
        )
        note.setWordWrap(True)
        inner.addRow(note)
        self.rejoin_code = QLineEdit()
        self.rejoin_code.setPlaceholderText(self.tr("The recovery code, or a pairing code"))
        self.rejoin_button = QPushButton(self.tr("Join again"))
        self.rejoin_button.clicked.connect(self._rejoin)
        self.rejoin_code.returnPressed.connect(self._rejoin)
        row = QHBoxLayout()
        row.addWidget(self.rejoin_code, 1)
        row.addWidget(self.rejoin_button)
        inner.addRow(self.tr("Code"), row)
        self.rejoin_box.hide()
        column.addWidget(self.rejoin_box)

        buttons = QHBoxLayout()
        self.pair_button = QPushButton(self.tr("Show a pairing code"))
        self.pair_button.setToolTip(
            self.tr("A code another computer joins with, without the recovery code")
        )
        self.pair_button.clicked.connect(self._pair)
        self.now_button = QPushButton(self.tr("Sync now"))
        self.now_button.clicked.connect(self._now)
        self.off_button = QPushButton(self.tr("Turn off sync on this computer…"))
        self.off_button.clicked.connect(self._turn_off)
        buttons.addWidget(self.pair_button)
        buttons.addWidget(self.now_button)
        buttons.addStretch(1)
        buttons.addWidget(self.off_button)
        column.addLayout(buttons)
        return page

    def refresh(self) -> None:
        """Read how sync stands (off the GUI thread) and show it."""
        self.controller.read_page(self._show, lambda text: self._say(text, error=True))

    def _show(self, info: dict[str, Any]) -> None:
        self.info = info
        on = bool(info.get("enabled"))
        self.off_page.setVisible(not on)
        self.on_page.setVisible(on)
        self.lost_box.show_items(list(info.get("lost_items") or []))
        running = self.controller.running
        if not on:
            self.off_page.show_state(info, running)
            return
        self.folder.setText(str(info.get("folder", "")))
        # taken out by another computer: only joining again (or turning off) can work
        removed = bool(info.get("removed"))
        # joined again: the keyboard stays near where it was (the buttons under the
        # box), never on "Turn off sync…", which Qt gives it next when the box goes
        was_here = self.rejoin_box.isAncestorOf(self.window().focusWidget())
        self.rejoin_box.setVisible(removed)
        for button in (self.pair_button, self.now_button, self.move_button, self.rename_button):
            button.setVisible(not removed)
        if was_here and not removed:  # Sync now waits while a pass runs: then its neighbour
            near = self.now_button if self.now_button.isEnabled() else self.pair_button
            near.setFocus()
        self.my_name.setReadOnly(removed)
        if not self.my_name.isModified():  # never over what is being typed
            self.my_name.setText(str(info.get("name", "")))
        self._show_computers(info)
        ignored = int(info.get("ignored") or 0)
        self.ignored_line.setText(self.words.ignored(ignored) if ignored else "")
        self.ignored_line.setVisible(bool(ignored))
        self._conflicts = list(info.get("conflict_list", []))
        # the line counts those not looked at yet; once looked at, the list stays
        # findable behind a quiet link
        n = len(info.get("conflict_unseen", []))
        self.conflicts_line.setVisible(bool(self._conflicts))
        if n:
            show = self.tr("Show them")
            self.conflicts_line.setText(f'{self.words.conflicts(n)} · <a href="show">{show}</a>')
        else:
            self.conflicts_line.setText(
                '<a href="show">{}</a>'.format(self.tr("Memories edited on two computers at once"))
            )
        self.conflicts_list.clear()
        texts = info.get("conflict_texts", {})
        for memory_id, device, at in self._conflicts:
            text = shorten(texts.get(memory_id, ""), 100) or self.tr("(deleted)")
            item = QListWidgetItem(
                self.tr("%1 (also edited on %2, %3)")
                .replace("%1", text)
                .replace("%2", device)
                .replace("%3", self.words.ago(at))
            )
            item.setData(ID_ROLE, memory_id)
            self.conflicts_list.addItem(item)
        self._controller_changed()
        QTimer.singleShot(0, self._fit_window)

    def _fit_window(self) -> None:
        """The Settings dialog grows to what the page shows now: it was sized before the
        page was read (off the GUI thread), and a page taller than it squeezed its
        wrapped lines until they were clipped."""
        if not isValid(self):  # the window closed before the timer fired
            return
        top = self.window()
        if top is self or not top.isVisible():
            return
        want = top.sizeHint().height()
        screen = top.screen().availableGeometry().height() if top.screen() else want
        if top.height() < want:
            top.resize(top.width(), min(want, screen))

    def _show_computers(self, info: dict[str, Any]) -> None:
        grid = self.computers_grid
        while grid.count():
            item = grid.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        self.remove_buttons: dict[str, QPushButton] = {}
        others = [
            c
            for c in info.get("computers", [])
            if c.get("device") != info.get("device") and not c.get("removed")
        ]
        if not others:
            passphrase = self.controller.without_recovery_code()  # a pairing code only
            none = QLabel(
                self.tr(
                    "None yet. On the other computer, choose Join a synced profile in "
                    "Settings > Sync, with this folder and a pairing code (Show a pairing "
                    "code, below)."
                )
                if passphrase
                else self.tr(
                    "None yet. On the other computer, choose Join a synced profile in "
                    "Settings > Sync, with this folder and the recovery code or a pairing code."
                )
            )
            none.setWordWrap(True)
            grid.addWidget(none, 0, 0, 1, 3)
            return
        for row, c in enumerate(others):
            name = QLabel(str(c["name"]))
            # whether it has what this computer wrote (as its own status says), and
            # whether its own files have all arrived here
            if c.get("stuck"):
                said = self.words.cannot_read_short()
            elif c.get("up_to_date", True):
                said = self.words.has_all(c.get("synced_at") or c.get("seen_at"))
            else:
                said = self.words.lacks(int(c.get("missing") or 0), c.get("missing_since"))
            if c.get("behind"):
                said += " · " + self.words.not_here()
            when = QLabel(said)
            when.setObjectName("notice" if c.get("up_to_date", True) else "")
            when.setWordWrap(True)
            remove = QPushButton(self.tr("Remove…"))
            remove.clicked.connect(
                lambda _=False, d=str(c["device"]), n=str(c["name"]): self._remove(d, n)
            )
            remove.setVisible(not info.get("removed"))  # taken out: it removes no one
            self.remove_buttons[str(c["name"])] = remove
            grid.addWidget(name, row, 0)
            grid.addWidget(when, row, 1)
            grid.addWidget(remove, row, 2)

    def _controller_changed(self) -> None:
        running = self.controller.running
        if hasattr(self, "now_button"):
            self.now_button.setEnabled(not running)
        error = bool(self.controller.error) and not running
        name = "status" if error else ""  # an error: in the error colour
        if self.state.objectName() != name:
            self.state.setObjectName(name)
            self.state.style().polish(self.state)
        self.state.setText(self.controller.status_text(in_settings=True))
        if hasattr(self, "error_line"):
            self.error_line.setText(self.controller.error if error else "")
            self.error_line.setVisible(error)
            advice = "" if error or running else self.controller.advice()
            self.advice_line.setText(advice)
            self.advice_line.setVisible(bool(advice))

    def _say(self, text: str, error: bool = False) -> None:
        name = "status" if error else "notice"  # an error: in the error colour
        if self.status.objectName() != name:
            self.status.setObjectName(name)
            self.status.style().polish(self.status)
        self.status.setText(text)

    def _rename(self) -> None:
        name = self.my_name.text().strip()
        if not name:
            self._say(self.tr("A computer's name cannot be empty: type a few letters."), True)
            return
        self.controller.rename(
            name, lambda _r: self._renamed(), lambda text: self._say(text, error=True)
        )

    def _renamed(self) -> None:
        self.my_name.setModified(False)
        self._say(self.tr("Renamed."))

    def _remove(self, device: str, name: str) -> None:
        answer = QMessageBox.question(
            self,
            self.tr("Remove a computer"),
            self.tr(
                "Remove “%1” from this sync? The others get a new key that it is not given: it "
                "cannot read anything changed from now on. What it already holds stays on it. "
                "Do this if it was lost or stolen, or is no longer yours."
            ).replace("%1", name),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        if answer != QMessageBox.StandardButton.Yes:
            return
        self._say(self.tr("Removing %1…").replace("%1", name))
        self.controller.remove(
            device,
            lambda _r: self._say(self.tr("%1 was removed.").replace("%1", name)),
            lambda text: self._say(text, error=True),
        )

    def _move(self) -> None:
        folder = QFileDialog.getExistingDirectory(
            self, self.tr("Move sync to another folder"), str(Path(self.folder.text()).parent)
        )
        if not folder:
            return
        self.move_button.setEnabled(False)
        self._say(self.tr("Moving sync to %1…").replace("%1", folder))

        def moved(_info: Any) -> None:
            self.move_button.setEnabled(True)
            self._say(
                self.tr(
                    "This profile now syncs through %1. On your other computers, choose Move to "
                    "another folder… with the same folder once the engine has brought it there. "
                    "The old folder is no longer used here: delete it once every computer has "
                    "moved."
                ).replace("%1", folder)
            )
            self.refresh()

        def failed(text: str) -> None:
            self.move_button.setEnabled(True)
            self._say(text, error=True)

        self.controller.move(folder, moved, failed)

    def _pair(self) -> None:
        self.pair_button.setEnabled(False)

        def shown(code: str) -> None:
            self.pair_button.setEnabled(True)
            self.pairing = PairingCodeDialog(code, self)
            self.pairing.open()

        def failed(text: str) -> None:
            self.pair_button.setEnabled(True)
            self._say(text, error=True)

        self.controller.offer_pairing(shown, failed)

    def _now(self) -> None:
        self.controller.run_pass(then=self.refresh)

    def _turn_off(self) -> None:
        answer = QMessageBox.question(
            self,
            self.tr("Turn off sync"),
            self.tr(
                "Stop syncing this profile on this computer? Everything it holds stays here, and "
                "the other computers go on syncing without it."
            ),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        if answer != QMessageBox.StandardButton.Yes:
            return
        self.controller.turn_off(
            lambda _r: self._say(self.tr("Sync is off on this computer.")),
            lambda text: self._say(text, error=True),
        )

    def _show_conflicts(self) -> None:
        """The list opened: the user has seen them (the line stops counting them)."""
        self.conflicts_list.setVisible(True)
        self.controller.mark_conflicts_seen(lambda _n: None, self._said)
        self.conflicts_requested.emit()  # and the memory list shows only them

    def _said(self, text: str) -> None:
        self._say(text, error=True)

    def _conflict_activated(self, item: QListWidgetItem) -> None:
        memory_id = item.data(ID_ROLE)
        if memory_id is not None:
            self.memory_requested.emit(int(memory_id))
