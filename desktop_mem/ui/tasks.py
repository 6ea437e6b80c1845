"""Work off the GUI thread, with results delivered back on it.

`run(fn, *args, done=..., failed=..., progress=...)` runs fn in Qt's global thread
pool. fn may accept a `report(done, total)` keyword for progress. `done` gets the
result and `failed` the error's one sentence, both on the GUI thread (queued
signals). A task object is kept alive until it has reported.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Callable, Hashable
from typing import TypeVar

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

from desktop_mem.core.errors import DesktopMemError

log = logging.getLogger("desktop_mem.ui")
_alive: set[Task] = set()
R = TypeVar("R")  # what a task's fn returns, and its `done` gets
Report = Callable[[int, int], None]  # a task's progress: report(done, total)


class _Signals(QObject):
    done = Signal(object)
    failed = Signal(str, object)
    # Python ints: a Qt int is 32 bits, and a download counts bytes (4.7 GB and more)
    progress = Signal(object, object)
    piece = Signal(str)


class Task(QRunnable):
    def __init__(self, fn: Callable[..., object], *args: object, **kwargs: object) -> None:
        super().__init__()
        self.setAutoDelete(False)
        self.fn, self.args, self.kwargs = fn, args, kwargs
        self.signals = _Signals()

    def run(self) -> None:
        try:
            kwargs = dict(self.kwargs)
            params = inspect.signature(self.fn).parameters
            if "report" in params:
                kwargs["report"] = self.signals.progress.emit
            if "on_piece" in params and "on_piece" not in kwargs:
                kwargs["on_piece"] = self.signals.piece.emit
            result = self.fn(*self.args, **kwargs)
        except DesktopMemError as exc:
            self.signals.failed.emit(str(exc), exc)
        except Exception as exc:
            log.exception("background task failed")
            self.signals.failed.emit(
                f"Something went wrong ({type(exc).__name__}); nothing was lost. Try again.", exc
            )
        else:
            self.signals.done.emit(result)


def run(
    fn: Callable[..., R],
    *args: object,
    done: Callable[[R], None] | None = None,
    failed: Callable[[str], None] | None = None,
    progress: Callable[[int, int], None] | None = None,
    piece: Callable[[str], None] | None = None,
    failed_with: Callable[[str, BaseException], None] | None = None,
    **kwargs: object,
) -> Task:
    """Every callback is connected before the task starts: a task that fails at once
    must still be heard. `failed_with` gets the worded sentence and the exception."""
    task = Task(fn, *args, **kwargs)
    _alive.add(task)

    def finish(*_: object) -> None:
        _alive.discard(task)

    if done:
        task.signals.done.connect(done)
    if failed:
        task.signals.failed.connect(lambda text, exc: failed(describe_exception(exc, text)))
    if failed_with:
        task.signals.failed.connect(
            lambda text, exc: failed_with(describe_exception(exc, text), exc)
        )
    if progress:
        task.signals.progress.connect(progress)
    if piece:
        task.signals.piece.connect(piece)
    task.signals.done.connect(finish)
    task.signals.failed.connect(finish)
    QThreadPool.globalInstance().start(task)
    return task


_expected: dict[Hashable, int] = {}


def expect(what: Hashable) -> None:
    """Work the core does in the background for the window (a turn's learning, its
    title) has started; the window hears of its end as the core's announcement, and
    says so with `arrived`. Counted in busy() until then."""
    _expected[what] = _expected.get(what, 0) + 1


def arrived(what: Hashable) -> None:
    left = _expected.get(what, 0) - 1
    if left > 0:
        _expected[what] = left
    else:
        _expected.pop(what, None)


def describe_exception(exc: BaseException, text: str) -> str:
    from desktop_mem.ui.errors import describe

    return describe(
        getattr(exc, "reason", "error"),
        text,
        model=getattr(exc, "model", ""),
        lines=len(getattr(exc, "problems", []) or []),
    )


def busy() -> int:
    """How many tasks are still running, and announcements awaited (for the status bar
    and for tests)."""
    return len(_alive) + sum(_expected.values())
