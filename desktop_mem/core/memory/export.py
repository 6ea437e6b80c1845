"""Export memories: versioned JSON (every space's, each memory naming its space, with
its history) and Markdown, written atomically and privately. Reading such a file back,
or a list or CSV of memories, is core/memory/memories_file.py."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from desktop_mem.core.errors import DesktopMemError, InvalidInput
from desktop_mem.core.memory.spaces import EVERY
from desktop_mem.core.memory.store import KINDS, MemoryStore, now_iso

FORMAT_NAME = "desktop-mem/memories"
FORMAT_VERSION = 1

# -- export ---------------------------------------------------------------------------


def _space_names(store: MemoryStore) -> dict[int, str]:
    return {int(sid): str(name) for sid, name in store.db.query("SELECT id, name FROM spaces")}


def export_data(store: MemoryStore, profile: str = "") -> dict[str, Any]:
    """Every memory of every space, each with its history; one in a space names it
    ("space"), so that importing the file puts it back there."""
    memories = []
    names = _space_names(store)
    for m in sorted(store.list(scope=EVERY), key=lambda m: m.id):
        d: dict[str, Any] = {
            "id": m.id,
            "text": m.text,
            "kind": m.kind,
            "importance": m.importance,
            "pinned": m.pinned,
            "source": m.source,
            "created_at": m.created_at,
            "updated_at": m.updated_at,
            "valid_from": m.valid_from,
            "valid_until": m.valid_until,
            "context": m.context,
            "history": [
                {k: v for k, v in h.to_dict().items() if k in _HISTORY_FIELDS}
                for h in store.history(m.id)
            ],
        }
        if m.space is not None:
            d["space"] = names.get(m.space, "")
        memories.append(d)
    spaces = [
        {"name": str(name), "instruction": str(instruction), "apart": bool(apart)}
        for name, instruction, apart in store.db.query(
            "SELECT name, instruction, apart FROM spaces ORDER BY id"
        )
    ]
    return {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "exported_at": now_iso(),
        "profile": profile,
        "count": len(memories),
        "memories": memories,
        # each space as it was made: kept apart or not, and its own instruction
        **({"spaces": spaces} if spaces else {}),
    }


_HISTORY_FIELDS = (
    "version",
    "action",
    "actor",
    "text",
    "kind",
    "pinned",
    "valid_until",
    "changed_at",
)


def export_markdown(store: MemoryStore, profile: str = "") -> str:
    mems = sorted(store.list(scope=EVERY), key=lambda m: m.id)
    lines = [
        "# Memories",
        "",
        f'Exported from desktop-mem profile "{profile}" on {now_iso()[:10]}: {len(mems)} memories.',
    ]
    for kind in KINDS:
        group = [m for m in mems if m.kind == kind]
        if not group:
            continue
        lines += ["", f"## {kind.capitalize()}s" if kind != "person" else "## People", ""]
        for m in group:
            text = " ".join(m.text.split())
            tags = []
            if m.pinned:
                tags.append("[pinned]")
            if m.valid_until:
                tags.append(f"[until {m.valid_until}]")
            lines.append(f"- {text}" + (" " + " ".join(tags) if tags else ""))
    return "\n".join(lines) + "\n"


def write_export(store: MemoryStore, path: Path, fmt: str = "json", profile: str = "") -> int:
    """Write atomically (temp file beside the target, then rename). Returns the count."""
    if fmt == "json":
        data = export_data(store, profile)
        text = json.dumps(data, ensure_ascii=False, indent=2) + "\n"
        count = data["count"]
    elif fmt in ("md", "markdown"):
        text = export_markdown(store, profile)
        count = store.count()
    else:
        raise InvalidInput(f"'{fmt}' is not an export format: use json or md.")
    write_private(Path(path), text)
    return int(count)


def write_private(path: Path, text: str) -> None:
    """Every file the app writes for the user goes through here: mode 0600 (mkstemp),
    written beside the target and renamed over it (a crash leaves the old file or the
    new one, never half of one). A device or a pipe is written into, never replaced (a
    rename over /dev/stdout would swap the device node)."""
    parent = path.parent if str(path.parent) else Path(".")
    if path.exists() and not path.is_file():
        try:
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(text)
        except OSError as exc:
            raise DesktopMemError(
                f"Could not write {path} ({exc.strerror or exc}): choose another place."
            ) from None
        return
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=".desktop-mem-export-", dir=parent)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)
        raise DesktopMemError(
            f"Could not write {path} ({exc.strerror or exc}): choose another place."
        ) from None
