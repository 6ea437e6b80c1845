"""Packaging metadata (issue 6): the .desktop entry, the AppStream metainfo, the icons,
the pyside6-deploy spec and the version agree with each other and with the app. The
build itself is `make package` (minutes of Nuitka; not part of the suite)."""

from __future__ import annotations

import configparser
import shutil
import struct
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

import desktop_mem

ROOT = Path(__file__).resolve().parents[1]
APP_ID = "io.github.desktopmem.DesktopMem"
LINUX = ROOT / "packaging" / "linux"
ICONS = ROOT / "desktop_mem" / "resources" / "icons"


def _png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", f"{path.name} is not a PNG"
    return struct.unpack(">II", head[16:24])


def test_the_app_id_is_the_same_everywhere() -> None:
    from desktop_mem.ui.app import APP_ID as in_app

    assert in_app == APP_ID
    assert (LINUX / f"{APP_ID}.desktop").exists() and (LINUX / f"{APP_ID}.metainfo.xml").exists()


def test_desktop_entry() -> None:
    entry = configparser.ConfigParser(interpolation=None)
    entry.optionxform = str  # type: ignore[assignment,method-assign]
    entry.read(LINUX / f"{APP_ID}.desktop", encoding="utf-8")
    d = entry["Desktop Entry"]
    assert d["Type"] == "Application" and d["Exec"] == "desktop-mem" and d["Icon"] == APP_ID
    assert d["Terminal"] == "false" and d["Name[zh_CN]" if "Name[zh_CN]" in d else "Name"]
    assert "GenericName[zh_CN]" in d and "Comment[zh_CN]" in d
    if shutil.which("desktop-file-validate"):
        proc = subprocess.run(
            ["desktop-file-validate", str(LINUX / f"{APP_ID}.desktop")],
            capture_output=True,
            text=True,
        )
        assert proc.returncode == 0, proc.stdout + proc.stderr


def test_metainfo() -> None:
    root = ET.parse(LINUX / f"{APP_ID}.metainfo.xml").getroot()
    assert root.tag == "component" and root.get("type") == "desktop-application"
    assert root.findtext("id") == APP_ID
    assert root.findtext("launchable") == f"{APP_ID}.desktop"
    assert root.find("releases/release").get("version") == desktop_mem.__version__  # type: ignore[union-attr]
    assert root.findtext("provides/binary") == "desktop-mem"
    if shutil.which("appstreamcli"):
        proc = subprocess.run(
            ["appstreamcli", "validate", "--no-net", str(LINUX / f"{APP_ID}.metainfo.xml")],
            capture_output=True,
            text=True,
        )
        assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.parametrize("size", [16, 24, 32, 48, 64, 128, 256, 512])
def test_icon_sizes(size: int) -> None:
    assert _png_size(ICONS / f"desktop-mem-{size}.png") == (size, size)


def test_the_icon_pngs_are_rendered_from_the_svg() -> None:
    svg = (ICONS / "desktop-mem.svg").stat().st_mtime
    ET.parse(ICONS / "desktop-mem.svg")  # well-formed
    assert svg > 0 and all((ICONS / f"desktop-mem-{s}.png").stat().st_size > 300 for s in (16, 512))


def test_versions_agree() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text("utf-8")
    assert f'version = "{desktop_mem.__version__}"' in pyproject


def test_deploy_spec_ships_what_the_app_loads_by_path() -> None:
    spec = configparser.ConfigParser(allow_no_value=True, interpolation=None)
    spec.read(ROOT / "packaging" / "pysidedeploy.spec", encoding="utf-8")
    args = spec["nuitka"]["extra_args"].split()
    # sqlite-vec is loaded by file path and the translations and icons are read from the
    # package folder: no import would make Nuitka bring them along. (The first build
    # without the DLL entry failed its smoke test: "vec0.so: cannot open shared object".)
    assert "--include-package-data=desktop_mem" in args
    config = "--user-package-configuration-file=nuitka-package.config.yml"
    assert config in args
    yml = (ROOT / "packaging" / "nuitka-package.config.yml").read_text("utf-8")
    assert "module-name: 'sqlite_vec'" in yml and "'vec0'" in yml
    assert spec["app"]["title"] == "desktop-mem"
    icon = (ROOT / "packaging" / spec["app"]["icon"]).resolve()
    assert icon.exists()
    assert (ROOT / "packaging" / spec["app"]["input_file"]).exists()


def test_the_package_data_is_declared() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text("utf-8")
    assert '"resources/translations/*.qm"' in pyproject and '"resources/icons/*"' in pyproject
    assert list((ROOT / "desktop_mem" / "resources" / "translations").glob("*.qm"))


def test_the_smoke_tests_first_steps_pass_from_the_source_install(
    tmp_path: Path, fake_ollama: Any
) -> None:
    """The packaged binary's smoke test (packaging/smoke_test.py) starts with what a
    new user does: the same steps, with this install's desktop-mem, so a change that
    breaks them fails here and not only in `make package`."""
    import importlib.util
    import os
    import sys

    spec = importlib.util.spec_from_file_location("smoke_test", ROOT / "packaging/smoke_test.py")
    assert spec is not None and spec.loader is not None
    smoke = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(smoke)
    program = [str(Path(sys.executable).parent / "desktop-mem")]
    base = [*program, "--home", str(tmp_path / "data"), "--ollama-host", fake_ollama.url,
            "--embed-model", "fake-embed"]  # fmt: skip
    env = {**os.environ, "HOME": str(tmp_path), "QT_QPA_PLATFORM": "offscreen",
           "DESKTOP_MEM_PASSPHRASE": "smoke test passphrase"}  # fmt: skip
    steps = smoke.user_steps(program, base)
    assert [name for name, *_ in steps][:3] == ["--version", "self-test", "memory add"]
    for name, args, expect, absent in steps:
        proc = subprocess.run(args, env=env, capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, f"{name}: {proc.stderr[-2000:]}"
        assert expect in proc.stdout, f"{name}: {proc.stdout[-2000:]}"
        assert not (absent and absent in proc.stdout), f"{name}: {proc.stdout[-2000:]}"
