#!/bin/sh
# Install this desktop-mem build for the current user: the program in
# ~/.local/lib/desktop-mem, `desktop-mem` in ~/.local/bin, and the menu entry, icons and
# AppStream data under ~/.local/share. System-wide: sudo PREFIX=/usr/local ./install.sh
# Remove again: ./install.sh --uninstall (your memories stay in ~/.local/share/desktop-mem).
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
PREFIX=${PREFIX:-$HOME/.local}
ID=io.github.desktopmem.DesktopMem
APP_DIR="$PREFIX/lib/desktop-mem"
SHARE="$PREFIX/share"

if [ "${1:-}" = "--uninstall" ]; then
    rm -rf "$APP_DIR"
    rm -f "$PREFIX/bin/desktop-mem" "$SHARE/applications/$ID.desktop" "$SHARE/metainfo/$ID.metainfo.xml"
    find "$SHARE/icons/hicolor" -name "$ID.*" -delete 2>/dev/null || true
    echo "desktop-mem removed from $PREFIX (your data folder was not touched)."
    exit 0
fi

rm -rf "$APP_DIR"
mkdir -p "$APP_DIR" "$PREFIX/bin" "$SHARE/applications" "$SHARE/metainfo"
cp -a "$HERE"/. "$APP_DIR"/
rm -rf "$APP_DIR/share" "$APP_DIR/install.sh"
ln -sf "$APP_DIR/desktop-mem" "$PREFIX/bin/desktop-mem"
# The menu entry runs the installed program by its full path: ~/.local/bin is not on
# every desktop session's PATH.
sed "s|^Exec=desktop-mem|Exec=$APP_DIR/desktop-mem|" "$HERE/share/applications/$ID.desktop" \
    > "$SHARE/applications/$ID.desktop"
cp "$HERE/share/metainfo/$ID.metainfo.xml" "$SHARE/metainfo/"
cp -R "$HERE/share/icons" "$SHARE/"
command -v update-desktop-database >/dev/null 2>&1 && update-desktop-database -q "$SHARE/applications" || true
command -v gtk-update-icon-cache >/dev/null 2>&1 && gtk-update-icon-cache -q -t "$SHARE/icons/hicolor" 2>/dev/null || true
echo "desktop-mem installed in $APP_DIR; start it from the menu or run: $PREFIX/bin/desktop-mem"
