"""Render the application icon (desktop_mem/resources/icons/desktop-mem.svg) to the PNG
sizes desktops ask for (freedesktop hicolor: 16 to 512), with Qt's own SVG renderer.

    QT_QPA_PLATFORM=offscreen .venv/bin/python packaging/make_icons.py
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

ICONS = Path(__file__).resolve().parents[1] / "desktop_mem" / "resources" / "icons"
SIZES = (16, 24, 32, 48, 64, 128, 256, 512)


def main() -> None:
    app = QGuiApplication([])  # noqa: F841 - QPainter on QImage needs it for fonts
    renderer = QSvgRenderer(str(ICONS / "desktop-mem.svg"))
    assert renderer.isValid(), "the SVG icon does not parse"
    for size in SIZES:
        image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        renderer.render(painter)
        painter.end()
        out = ICONS / f"desktop-mem-{size}.png"
        image.save(str(out))
        print(out.relative_to(ICONS.parents[2]))


if __name__ == "__main__":
    main()
