"""A deletion made on another computer reaches what this one knows about you: the line
citing the memory goes when the sync pass applies the deletion, before the next turn."""

from __future__ import annotations

from desktop_mem.core.memory.store import NewMemory
from tests.sync.conftest import Computers


def test_a_memory_deleted_on_the_other_computer_takes_its_lines_here(
    computers: Computers,
) -> None:
    laptop = computers.first("laptop")
    laptop.service.memories.add(NewMemory("I live in Hangzhou", kind="fact"))
    laptop.service.memories.add(NewMemory("I play the cello", kind="fact"))
    laptop.sync()
    desktop = computers.join("desktop", laptop.code)
    desktop.sync()
    laptop.service.about.rewrite()  # written here, from what this computer holds
    assert sorted(ln.text for ln in laptop.service.about.lines()) == [
        "I live in Hangzhou",
        "I play the cello",
    ]
    gone = [m.id for m in desktop.service.memories.list() if "Hangzhou" in m.text]
    desktop.service.memories.delete(gone)
    desktop.sync()
    laptop.sync()
    assert "I live in Hangzhou" not in laptop.texts()
    assert [ln.text for ln in laptop.service.about.lines()] == ["I play the cello"]
    laptop.service.about.rewrite()
    assert [ln.text for ln in laptop.service.about.lines()] == ["I play the cello"]
