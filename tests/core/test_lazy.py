"""The lazy numpy stand-in is safe to use from two threads at its first use."""

from __future__ import annotations

import builtins
import sys
import threading
from pathlib import Path

import pytest

from desktop_mem.core.lazy import _Later


def test_a_second_thread_never_sees_the_module_half_imported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A module whose import stops half way until the test lets it go on.
    (tmp_path / "slowmod_lazy_test.py").write_text(
        "import builtins\n"
        "first = 1\n"
        "builtins._lazy_started.set()\n"
        "builtins._lazy_gate.wait()\n"
        "value = 42\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    started, gate = threading.Event(), threading.Event()
    monkeypatch.setattr(builtins, "_lazy_started", started, raising=False)
    monkeypatch.setattr(builtins, "_lazy_gate", gate, raising=False)
    later = _Later("slowmod_lazy_test")
    got: dict[str, object] = {}

    def use(who: str) -> None:
        try:
            got[who] = later.value
        except AttributeError as exc:
            got[who] = exc

    a = threading.Thread(target=use, args=("a",))
    a.start()
    assert started.wait(60), "the import never started"
    b = threading.Thread(target=use, args=("b",))
    b.start()
    gate.set()
    a.join(60)
    b.join(60)
    sys.modules.pop("slowmod_lazy_test", None)
    assert got == {"a": 42, "b": 42}
    assert later.first == 1 and "slowmod_lazy_test" in repr(later)
