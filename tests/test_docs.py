"""The documentation cannot drift from the code or point nowhere: the command
reference is what tools/cli_reference.py writes from the parsers now, and every
relative link in the README and docs/ names a file (and a heading) that exists, every
source file a page names in code is there, and the module map of development.md is
what tools/module_map.py writes from the docstrings now."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^(```|~~~)")


def _generator(name: str = "cli_reference") -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / f"tools/{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _prose(page: Path) -> list[str]:
    """The page's lines outside code blocks (a link in a code sample is not a link)."""
    lines, fenced = [], False
    for line in page.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line.strip()):
            fenced = not fenced
        elif not fenced:
            lines.append(line)
    return lines


def _anchors(page: Path) -> set[str]:
    """The anchors GitHub gives the page's headings: lower case, punctuation dropped,
    spaces as hyphens, repeats numbered."""
    seen: dict[str, int] = {}
    out = set()
    for line in _prose(page):
        if m := re.match(r"#{1,6} (.+)", line):
            slug = re.sub(r"[^\w\- ]", "", m.group(1).strip().lower()).replace(" ", "-")
            n = seen.get(slug, 0)
            seen[slug] = n + 1
            out.add(slug if n == 0 else f"{slug}-{n}")
    return out


def _relative_links(page: Path) -> list[str]:
    links = []
    for line in _prose(page):
        line = re.sub(r"`[^`]*`", "", line)  # code spans hold examples, not links
        links += [t for t in LINK.findall(line) if not re.match(r"[a-z]+:", t)]
    return links


def test_the_command_reference_is_what_the_generator_writes_from_the_parsers_now() -> None:
    written = (ROOT / "docs/commands.md").read_text(encoding="utf-8")
    assert written == _generator().render(), (
        "docs/commands.md differs from the parsers and exit codes it is generated from: "
        "run `.venv/bin/python tools/cli_reference.py` and commit the result."
    )


def test_the_command_reference_lists_every_command_and_every_exit_code() -> None:
    from desktop_mem.cli import GROUPS
    from desktop_mem.core import errors

    page = (ROOT / "docs/commands.md").read_text(encoding="utf-8")
    for command in GROUPS:
        assert f"### `desktop-mem {command}`" in page, command
    for code in (errors.EXIT_OK, errors.EXIT_ERROR, errors.EXIT_USAGE, errors.EXIT_LOCKED,
                 errors.EXIT_MODEL, 130, 141):  # fmt: skip
        assert re.search(rf"^\| {code} \| \w", page, re.M), code
    assert "`wrong_key`" in page and "`ollama_unreachable`" in page


def test_every_relative_link_in_the_readme_and_docs_points_to_a_file_that_exists() -> None:
    broken = []
    for page in PAGES:
        for target in _relative_links(page):
            path = target.split("#", 1)[0]
            if path and not (page.parent / path).exists():
                broken.append(f"{page.relative_to(ROOT)}: {target}")
    assert not broken, "links to missing files: " + ", ".join(broken)


def test_every_link_to_a_heading_names_one_that_exists() -> None:
    broken = []
    for page in PAGES:
        for target in _relative_links(page):
            path, _, anchor = target.partition("#")
            linked = (page.parent / path) if path else page
            checkable = anchor and linked.suffix == ".md" and linked.exists()
            if checkable and anchor not in _anchors(linked):
                broken.append(f"{page.relative_to(ROOT)}: {target}")
    assert not broken, "links to missing headings: " + ", ".join(broken)


def test_the_link_checker_finds_a_missing_file_and_a_missing_heading(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "# Title\n\n## Two words\n\nSee [there](missing.md), [here](#two-words), "
        "[not here](#nowhere), `[code](not-a-link.md)` and [web](https://example.org).\n"
        "```\n[in a block](also-not.md)\n```\n",
        encoding="utf-8",
    )
    assert _relative_links(page) == ["missing.md", "#two-words", "#nowhere"]
    assert _anchors(page) == {"title", "two-words"}


def test_the_readme_gives_the_two_commands_in_its_first_40_lines() -> None:
    head = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()[:40]
    assert any(line.startswith("make run") for line in head)
    assert any(line.startswith("make test") for line in head)


SOURCE_PATH = re.compile(
    r"`((?:desktop_mem/|core/|ui/|cli/|tests/|tools/|benchmarks/)[\w/]*(?:\w\.py|/))`"
)


def test_every_source_file_a_page_names_exists() -> None:
    """A page that says where something lives (`core/search/hybrid.py`) names a file or
    folder that is there, so moving code cannot leave the pages pointing at nothing."""
    missing = []
    for page in PAGES:
        if page.name == "CHANGELOG.md":
            continue  # a release note names the files of its release
        for name in SOURCE_PATH.findall(page.read_text(encoding="utf-8")):
            candidates = [ROOT / name, ROOT / "desktop_mem" / name]
            if not any(c.exists() for c in candidates):
                missing.append(f"{page.name}: {name}")
    assert not missing, missing


def test_the_check_would_see_a_moved_file() -> None:
    text = "in `core/store/db.py` and `core/db/`, not the MCP method `tools/list`"
    assert SOURCE_PATH.findall(text) == ["core/store/db.py", "core/db/"]
    assert not (ROOT / "desktop_mem" / "core/store/db.py").exists()


def test_the_module_map_is_what_the_generator_writes_now() -> None:
    mapper = _generator("module_map")
    page = (ROOT / "docs" / "development.md").read_text(encoding="utf-8")
    assert mapper.render() in page, (
        "the module map is out of date: run .venv/bin/python tools/module_map.py"
    )


def test_the_layout_names_every_folder_of_the_package() -> None:
    """The Layout tree in development.md names each folder of desktop_mem."""
    page = (ROOT / "docs" / "development.md").read_text(encoding="utf-8")
    layout = page.split("## Layout", 1)[1].split("## ", 1)[0]
    folders = {
        p.name
        for p in (ROOT / "desktop_mem").rglob("*")
        if p.is_dir() and (p / "__init__.py").exists()
    }
    absent = sorted(f for f in folders if f"{f}/" not in layout)
    assert not absent, absent
