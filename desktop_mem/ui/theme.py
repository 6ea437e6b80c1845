"""Light, dark or the system's colours (Fusion style, explicit palettes, so the look is
the same on every desktop and in headless screenshots), and the few styles the app adds."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication, QStyleFactory

STYLE = """
QFrame#userMessage { background: palette(alternate-base); border-radius: 8px; }
QFrame#assistantMessage { border: none; }
QFrame#userMessage[editing="true"] { border: 2px solid palette(highlight); }
QWidget#editBar { background: palette(alternate-base); border-left: 3px solid palette(highlight); }
QLabel#versions { color: palette(placeholder-text); }
QLabel#heading { font-weight: 600; padding-top: 6px; }
QLabel#who { font-weight: 600; }
QLabel#status { color: #d9534f; }
QLabel#stopped { color: palette(placeholder-text); font-style: italic; }
QWidget#incognitoList { background: rgba(91, 60, 136, 0.10); }
QLabel#notice { color: palette(placeholder-text); }
QLabel#incognito { background: #5b3c88; color: white; border-radius: 6px; padding: 2px 8px; }
QLabel#spaceBadge { border: 1px solid palette(mid); border-radius: 6px; padding: 1px 8px;
                    color: palette(window-text); }
QLabel#empty { color: palette(placeholder-text); font-size: 15px; padding: 40px; }
QLabel#chatTitle { font-size: 15px; font-weight: 600; }
QPushButton#chip { border: 1px solid palette(mid); border-radius: 9px; padding: 2px 9px;
                   min-height: 16px; }
QPushButton#chip[weak="true"] { border-style: dashed; color: palette(placeholder-text); }
QPushButton#danger { color: #d9534f; }
QLabel#banner { font-size: 18px; font-weight: 600; }
QWidget#rail { background: palette(alternate-base); }
QToolButton#railButton { border: 2px solid transparent; border-radius: 6px; padding: 6px 4px;
                         min-width: 64px; background: transparent; }
QToolButton#railButton:hover { background: palette(button); }
QToolButton#railButton:checked { background: palette(highlight); color: palette(highlighted-text); }
"""

# The keyboard's place, drawn the same way on every control, in the highlight colour of
# either theme: Fusion alone shows it only on text fields (a focused button, check box,
# list or the rail looked exactly like the others). Each control keeps one size whether
# it has the focus or not: the ring replaces a border of the same width (a 1 px border
# and 1 px of padding, or a transparent 2 px one), so nothing moves as Tab goes by.
FOCUS = """
QPushButton, QToolButton { border: 1px solid palette(mid); border-radius: 4px;
                           background: palette(button); padding: 4px 12px; }
QToolButton { padding: 3px 6px; }
QPushButton:hover, QToolButton:hover { background: palette(alternate-base); }
QPushButton:pressed, QToolButton:pressed, QToolButton:checked { background: palette(mid); }
QPushButton:focus { border: 2px solid palette(highlight); padding: 3px 11px; }
QToolButton:focus { border: 2px solid palette(highlight); padding: 2px 5px; }
QPushButton:flat { background: transparent; }
QPushButton:default { background: palette(highlight); color: palette(highlighted-text);
                      border-color: palette(highlight); }
QPushButton:default:disabled { background: palette(button); color: palette(placeholder-text);
                               border-color: palette(mid); }
QPushButton:default:focus { border-color: palette(window-text); }
QPushButton#chip:focus { border: 2px solid palette(highlight); padding: 1px 8px; }
QCheckBox, QRadioButton { border: 2px solid transparent; border-radius: 4px; padding: 1px 2px; }
QCheckBox:focus, QRadioButton:focus { border-color: palette(highlight); }
QComboBox { border: 1px solid palette(mid); border-radius: 3px; padding: 2px 6px;
            background: palette(button); }
QComboBox:focus { border: 2px solid palette(highlight); padding: 1px 5px; }
QComboBox::drop-down { border: none; width: 18px; }
QComboBox::down-arrow { image: url(ARROW); width: 10px; height: 6px; }
QPlainTextEdit, QTextEdit { border: 1px solid palette(mid); padding: 1px; }
QPlainTextEdit:focus, QTextEdit:focus { border: 2px solid palette(highlight); padding: 0px; }
QAbstractItemView { border: 1px solid palette(mid); padding: 1px; }
QAbstractItemView:focus { border: 2px solid palette(highlight); padding: 0px; }
QHeaderView { border: none; padding: 0px; }
QToolButton#railButton:focus { border-color: palette(highlight); padding: 6px 4px; }
QToolButton#railButton:checked:focus { border-color: palette(window-text); }
"""
ICONS = Path(__file__).resolve().parents[1] / "resources" / "icons"


def style(dark: bool) -> str:
    """The app's style sheet for a theme (the combo box arrow is drawn in its colour)."""
    arrow = ICONS / ("arrow-down-dark.png" if dark else "arrow-down-light.png")
    return STYLE + FOCUS.replace("ARROW", arrow.as_posix())


def dark_palette() -> QPalette:
    p = QPalette()
    colors = {
        QPalette.ColorRole.Window: "#202124",
        QPalette.ColorRole.WindowText: "#e8eaed",
        # Fusion outlines check boxes and fields in the window colour darkened by 40%: a
        # base darker than the window made that outline vanish (invisible check boxes).
        QPalette.ColorRole.Base: "#2a2c30",
        QPalette.ColorRole.AlternateBase: "#34363b",
        QPalette.ColorRole.ToolTipBase: "#2b2d31",
        QPalette.ColorRole.ToolTipText: "#e8eaed",
        QPalette.ColorRole.Text: "#e8eaed",
        QPalette.ColorRole.Button: "#2b2d31",
        QPalette.ColorRole.ButtonText: "#e8eaed",
        QPalette.ColorRole.BrightText: "#ffffff",
        QPalette.ColorRole.Highlight: "#3d6fd8",
        QPalette.ColorRole.HighlightedText: "#ffffff",
        QPalette.ColorRole.Link: "#8ab4f8",
        QPalette.ColorRole.PlaceholderText: "#9aa0a6",
        QPalette.ColorRole.Mid: "#5f6368",
    }
    for role, value in colors.items():
        p.setColor(role, QColor(value))
    for role in (
        QPalette.ColorRole.Text,
        QPalette.ColorRole.ButtonText,
        QPalette.ColorRole.WindowText,
    ):
        p.setColor(QPalette.ColorGroup.Disabled, role, QColor("#6f7378"))
    return p


def is_system_dark() -> bool:
    return QGuiApplication.styleHints().colorScheme() == Qt.ColorScheme.Dark


def apply(theme: str) -> None:
    """theme: "light", "dark" or "system"."""
    app = QApplication.instance()
    assert isinstance(app, QApplication), "a theme is applied to the running window app"
    app.setStyle(QStyleFactory.create("Fusion"))
    dark = theme == "dark" or (theme == "system" and is_system_dark())
    app.setPalette(dark_palette() if dark else app.style().standardPalette())
    if dark:
        # In a list the check box sits on the base colour, filled with it: only Fusion's
        # outline (the window colour darkened) shows, dark on dark. Lists get a lighter
        # "window" so the outline shows; they never paint the window colour themselves.
        views = dark_palette()
        views.setColor(QPalette.ColorRole.Window, QColor("#9aa0a6"))
        app.setPalette(views, "QAbstractItemView")  # type: ignore[arg-type]
    app.setStyleSheet(style(dark))
    app.setProperty("desktop_mem_dark", dark)
