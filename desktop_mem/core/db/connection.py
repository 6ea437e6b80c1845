"""The database connection as the code that writes inside a transaction sees it.

`Database.transaction()` yields a `sqlcipher3` connection, a C type with no annotations
for mypy to read; this names the part of it that statements use, so that a function
taking a connection says so (`conn: Connection`) rather than `Any`."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Protocol


class Cursor(Protocol):
    """What a statement returns: its rows (each a tuple of column values), and how many
    rows it changed."""

    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...


class Connection(Protocol):
    """An open connection to the profile's database (inside a caller's transaction)."""

    def execute(self, sql: str, parameters: Sequence[object] = ..., /) -> Cursor: ...

    def executemany(self, sql: str, parameters: Iterable[Sequence[object]], /) -> Cursor: ...


__all__ = ["Connection", "Cursor"]
