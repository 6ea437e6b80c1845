"""Export (JSON, Markdown) and all-or-nothing import (JSON, Markdown/text, CSV)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from desktop_mem.core.errors import ImportRejected, InvalidInput
from desktop_mem.core.memory.export import FORMAT_NAME, write_export
from desktop_mem.core.memory.memories_file import import_file
from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.profile import Profile


@pytest.fixture
def seeded(profile: Profile) -> Profile:
    s = profile.memories
    s.add(NewMemory("I live in Hangzhou", kind="fact"))
    s.add(NewMemory("我喜欢喝绿茶", kind="preference", pinned=True))
    s.add(NewMemory("Exam on 2026-12-15", kind="plan", valid_until="2026-12-15"))
    s.edit(1, text="I live in Shanghai")
    return profile


def test_json_export_schema(seeded: Profile, tmp_path: Path) -> None:
    out = tmp_path / "mem.json"
    assert write_export(seeded.memories, out, "json", "default") == 3
    data = json.loads(out.read_text("utf-8"))
    assert data["format"] == FORMAT_NAME and data["version"] == 1 and data["count"] == 3
    first = data["memories"][0]
    assert first["text"] == "I live in Shanghai"
    assert [h["text"] for h in first["history"]] == ["I live in Hangzhou", "I live in Shanghai"]
    assert {
        "id",
        "kind",
        "importance",
        "pinned",
        "source",
        "created_at",
        "updated_at",
        "valid_from",
        "valid_until",
    } <= first.keys()
    assert "我喜欢喝绿茶" in out.read_text("utf-8")  # readable, not \u-escaped


def test_json_round_trip_into_a_fresh_profile(
    seeded: Profile, tmp_path: Path, config, vault
) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "mem.json"
    write_export(seeded.memories, out, "json")
    config.profile = "other"
    with Profile.open(config, vault) as other:
        report = import_file(other.memories, out)
        assert report.imported == 3 and report.duplicates == 0
        mems = {m.text: m for m in other.memories.list()}
        assert mems["我喜欢喝绿茶"].pinned and mems["我喜欢喝绿茶"].kind == "preference"
        assert mems["Exam on 2026-12-15"].valid_until == "2026-12-15"
        assert all(m.source == "import" for m in mems.values())
        assert other.memories.history(mems["I live in Shanghai"].id)[0].actor == "import"
        # importing again adds nothing
        assert import_file(other.memories, out).duplicates == 3
        assert other.memories.count() == 3


def test_markdown_round_trip(seeded: Profile, tmp_path: Path) -> None:
    out = tmp_path / "mem.md"
    write_export(seeded.memories, out, "md")
    text = out.read_text("utf-8")
    assert "## Preferences" in text and "- 我喜欢喝绿茶 [pinned]" in text
    seeded.memories.forget_all()
    report = import_file(seeded.memories, out)
    assert report.imported == 3
    tea = seeded.memories.list(text="绿茶")[0]
    assert tea.pinned and tea.kind == "preference"
    assert seeded.memories.list(kind="plan")[0].valid_until == "2026-12-15"


def test_markdown_and_text_lists(profile: Profile, tmp_path: Path) -> None:
    f = tmp_path / "notes.md"
    f.write_text(
        "# My notes\n\nSome intro line that is a memory too\n\n## Preferences\n"
        "- likes jazz\n* 不吃香菜\n1. window seat on planes\n- [x] done item\n\n```\ncode is skipped\n```\n---\n",
        "utf-8",
    )
    report = import_file(profile.memories, f)
    assert report.imported == 5
    kinds = {m.text: m.kind for m in profile.memories.list()}
    assert (
        kinds["不吃香菜"] == "preference"
        and kinds["Some intro line that is a memory too"] == "fact"
    )
    assert "done item" in kinds


def test_csv_with_header(profile: Profile, tmp_path: Path) -> None:
    f = tmp_path / "seed.csv"
    f.write_text(
        'Memory,Type,Pinned,Date\n"I have two kids, Ana and Ben",person,yes,2024-03-01\n'
        '"multi\nline note",note,,\n我住在北京,fact,no,2023-01-01T10:00:00+08:00\n',
        "utf-8",
    )
    report = import_file(profile.memories, f)
    assert report.imported == 3
    kids = profile.memories.list(text="two kids")[0]
    assert kids.kind == "person" and kids.pinned and kids.created_at == "2024-03-01"
    assert profile.memories.list(text="北京")[0].created_at == "2023-01-01T02:00:00Z"


def test_bad_rows_are_reported_by_line_and_nothing_is_imported(
    profile: Profile, tmp_path: Path
) -> None:
    f = tmp_path / "bad.csv"
    f.write_text(
        "text,kind,importance\nfine,fact,0.5\n,fact,0.5\nalso fine,weird,0.5\nok,fact,7\n", "utf-8"
    )
    with pytest.raises(ImportRejected) as err:
        import_file(profile.memories, f)
    assert [line for line, _ in err.value.problems] == [3, 4, 5]
    assert "line 3" in str(err.value) and "nothing was" in str(err.value)
    assert profile.memories.count() == 0


def test_json_bad_items_report_their_lines(profile: Profile, tmp_path: Path) -> None:
    f = tmp_path / "bad.json"
    f.write_text(
        '{\n  "format": "desktop-mem/memories",\n  "version": 1,\n  "memories": [\n'
        '    {"text": "good"},\n    {"text": ""},\n    42,\n    "a plain string is fine"\n  ]\n}\n',
        "utf-8",
    )
    with pytest.raises(ImportRejected) as err:
        import_file(profile.memories, f)
    assert [line for line, _ in err.value.problems] == [6, 7]
    assert profile.memories.count() == 0


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b'{"memories": [ {"text": "x"} ', "not valid JSON"),
        (b"\xff\xfe\xfa\x00garbage\xc3\x28", "UTF-8"),
        (b"caf\xe9 au lait", r"not UTF-8 text \(line 1\): save it as UTF-8"),
        ("text\n我喜欢喝乌龙茶\n".encode("gbk"), "looks like GBK/GB18030"),
        (b"text\nhello\x00world\n", "NUL"),
        (b'{"format": "something-else", "memories": []}', "not a desktop-mem"),
        (b'{"format": "desktop-mem/memories", "version": 99, "memories": []}', "version"),
        (b"text,kind\n", "no memories"),
        (b"a,b\n1,2\n", "'text' column"),
    ],
)
def test_unreadable_files_are_one_clear_error(
    profile: Profile, tmp_path: Path, content: bytes, message: str
) -> None:
    f = tmp_path / ("in.csv" if content.startswith((b"text", b"a,b")) else "in.json")
    f.write_bytes(content)
    with pytest.raises(InvalidInput, match=message):
        import_file(profile.memories, f)
    assert profile.memories.count() == 0


def test_missing_file_and_folder(profile: Profile, tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match="no file"):
        import_file(profile.memories, tmp_path / "nope.json")
    with pytest.raises(InvalidInput, match="folder"):
        import_file(profile.memories, tmp_path)


def test_utf16_file_with_bom(profile: Profile, tmp_path: Path) -> None:
    f = tmp_path / "notes.txt"
    f.write_bytes("- 我喜欢猫\n- I like cats\n".encode("utf-16"))
    assert import_file(profile.memories, f).imported == 2


def test_export_to_unwritable_place_is_a_clear_error(seeded: Profile, tmp_path: Path) -> None:
    from desktop_mem.core.errors import DesktopMemError

    with pytest.raises(DesktopMemError, match="Could not write"):
        write_export(seeded.memories, tmp_path / "no" / "such" / "dir" / "x.json")


def test_context_survives_export_and_import(profile: Profile, tmp_path: Path) -> None:
    profile.memories.add(
        NewMemory("Running farther to de-stress", context="What got you into running?")
    )
    out = tmp_path / "m.json"
    write_export(profile.memories, out)
    assert (
        json.loads(out.read_text("utf-8"))["memories"][0]["context"] == "What got you into running?"
    )
    profile.memories.forget_all()
    import_file(profile.memories, out)
    assert profile.memories.list()[0].context == "What got you into running?"
    csv_file = tmp_path / "c.csv"
    csv_file.write_text("text,context\nLikes jazz,Asked about music\n", "utf-8")
    import_file(profile.memories, csv_file)
    assert profile.memories.list(text="jazz")[0].context == "Asked about music"


def test_import_refuses_devices_pipes_and_huge_files_before_reading(
    profile: Profile, tmp_path: Path
) -> None:
    import os

    from desktop_mem.core.errors import InvalidInput
    from desktop_mem.core.memory.memories_file import import_file

    with pytest.raises(InvalidInput, match="not a regular file"):
        import_file(profile.memories, Path("/dev/zero"))
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)  # no writer: reading it would wait for ever
    with pytest.raises(InvalidInput, match="not a regular file"):
        import_file(profile.memories, fifo)
    sparse = tmp_path / "sparse.json"
    with open(sparse, "wb") as fh:
        fh.truncate(2 * 1024**3)  # 2 GB of nothing, no disk used
    with pytest.raises(InvalidInput, match="limited to 64 MB"):
        import_file(profile.memories, sparse)
    with pytest.raises(InvalidInput, match="is a folder"):
        import_file(profile.memories, tmp_path)
    assert profile.memories.count() == 0
