"""Spaces as the window shows them (core/memory/spaces.py): their names in the
interface's language ("Shared" for the shared space), the boxes that choose one (the
conversations' space, the memory browser's filter, the documents'), the "Move to space"
menus, and the space the window is in: where new chats start and documents are added,
and whose conversations the list shows. A box is filled again when the spaces change
(SpacesChanged), keeping what it had chosen while that is still there."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from PySide6.QtCore import QCoreApplication, QObject, QSettings, Signal
from PySide6.QtWidgets import QComboBox, QMenu, QWidget

from desktop_mem.core.errors import DesktopMemError
from desktop_mem.core.memory.spaces import Space
from desktop_mem.core.service.spaces import Spaces

ALL = "all"  # a box's "All spaces"
SHARED = "shared"  # the shared space, in a box's data (its id is None)
MANAGE = "manage"  # a box's last entry: Settings > Spaces
# what a box or the window has chosen: a space's id, None (the shared space) or ALL
Choice = int | None | str


def shared_name() -> str:
    return QCoreApplication.translate("spaces", "Shared")


def space_name(space: int | None, names: dict[int, str]) -> str:
    """A space's name as shown; the shared space's is "Shared"; a space taken out
    meanwhile is said so."""
    if space is None:
        return shared_name()
    if space not in names:
        return QCoreApplication.translate("spaces", "(a removed space)")
    # a space another computer named in what it sent, whose own record has not come yet
    return names[space] or QCoreApplication.translate("spaces", "(a space still arriving)")


def names_of(spaces: Iterable[Space]) -> dict[int, str]:
    return {s.id: s.name for s in spaces}


def data_of(choice: Choice) -> str:
    """A choice as a box's item data (a box cannot hold None apart from "nothing")."""
    if choice is None:
        return SHARED
    return str(choice)


def choice_of(data: object) -> Choice:
    if data in (None, "", SHARED):
        return None
    if data == ALL:
        return ALL
    text = str(data)
    return int(text) if text.isdigit() else None


def fill_box(
    box: QComboBox,
    spaces: list[Space],
    chosen: Choice,
    every: bool = True,
    manage: bool = False,
) -> Choice:
    """Fill a box with "All spaces" (`every`), "Shared" and each space (and "Manage
    spaces…", `manage`), the `chosen` one current (the first when it is gone); without
    a signal of its change. What it shows now."""
    box.blockSignals(True)
    box.clear()
    if every:
        box.addItem(QCoreApplication.translate("spaces", "All spaces"), ALL)
    box.addItem(shared_name(), SHARED)
    for s in spaces:
        box.addItem(s.name, str(s.id))
    if manage:
        box.insertSeparator(box.count())
        box.addItem(QCoreApplication.translate("spaces", "Manage spaces…"), MANAGE)
    at = box.findData(data_of(chosen))
    box.setCurrentIndex(max(0, at))
    box.blockSignals(False)
    return choice_of(box.currentData())


def fill_move_menu(
    menu: QMenu,
    spaces: list[Space],
    current: set[int | None],
    chosen: Callable[[int | None], object],
) -> None:
    """A "Move to space" menu's entries: the shared space and each space, the one
    everything chosen is in already ticked and greyed (`current`: the spaces of what is
    chosen)."""
    menu.clear()
    targets: list[tuple[int | None, str]] = [
        (None, QCoreApplication.translate("spaces", "Shared (every space sees it)"))
    ]
    targets += [(s.id, s.name) for s in spaces]
    for space, label in targets:
        action = menu.addAction(label.replace("&", "&&"))
        here = current == {space}
        action.setCheckable(True)
        action.setChecked(here)
        action.setEnabled(not here)
        action.triggered.connect(lambda _=False, s=space: chosen(s))
    # as wide as its longest name, Chinese too (drawn in a wider fallback font than the
    # menu measures): never a name cut at the menu's edge
    metrics = menu.fontMetrics()
    widest = max(metrics.horizontalAdvance(label) for _space, label in targets)
    menu.setMinimumWidth(min(widest + 72, 560))


def move_menu(
    parent: QWidget,
    spaces: list[Space],
    current: set[int | None],
    chosen: Callable[[int | None], object],
) -> QMenu:
    """ "Move to space ▸", as a submenu of `parent`'s menu."""
    menu = QMenu(QCoreApplication.translate("spaces", "Move to space"), parent)
    fill_move_menu(menu, spaces, current, chosen)
    return menu


class SpaceChoice(QObject):
    """The space the window is in: where a new chat starts and a document is added
    (ALL: the shared space), and whose conversations the list shows. Kept in the
    window's preferences; back to every space when the one chosen is taken out."""

    changed = Signal()

    def __init__(self, spaces: Spaces, prefs: QSettings, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.spaces = spaces
        self.prefs = prefs
        self.current: Choice = choice_of(prefs.value("ui/space", ALL))
        self.check(announce=False)

    def choose(self, choice: Choice) -> None:
        if choice == MANAGE or choice == self.current:
            return
        self.current = choice
        self.prefs.setValue("ui/space", data_of(choice))
        self.changed.emit()

    def check(self, announce: bool = True) -> None:
        """The spaces changed: a choice of a space taken out goes back to every space."""
        if not isinstance(self.current, int):
            return
        try:
            self.spaces.get(self.current)
        except DesktopMemError:
            self.current = ALL
            self.prefs.setValue("ui/space", ALL)
            if announce:
                self.changed.emit()

    def for_new(self) -> int | None:
        """The space a new chat or document goes to."""
        return self.current if isinstance(self.current, int) else None
