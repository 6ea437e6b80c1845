"""What the modules below the database layer need of it, as Protocols: the settings, the
apps' registry and the model server's notes keep their rows in the profile's database
but may not import core/db (the layers), so they name what they use. The Database of
core/db/database.py is one.

The connection a transaction yields is a `sqlcipher3` connection, a C type with no
annotations for mypy to read; Connection and Cursor name the part of it statements use,
so that a function taking a connection says so (`conn: Connection`). A row is a tuple of
the columns' values, whatever the SQL selected: its items stay untyped."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol

Row = tuple[Any, ...]  # a row of a result: its columns' values, as the SQL selected them
Params = Sequence[object]  # a statement's values, one for each "?"


class Cursor(Protocol):
    """What a statement returns: its rows, and how many rows it changed."""

    @property
    def rowcount(self) -> int: ...

    @property
    def lastrowid(self) -> int:  # read after an INSERT
        ...

    def fetchone(self) -> Any:  # a Row, or None past the last one
        ...

    def fetchall(self) -> list[Row]: ...

    def fetchmany(self, size: int = ..., /) -> list[Row]: ...

    def __iter__(self) -> Iterator[Row]: ...


class Connection(Protocol):
    """An open connection to the profile's database (inside a caller's transaction)."""

    def execute(self, sql: str, parameters: Params = ..., /) -> Cursor: ...

    def executemany(self, sql: str, parameters: Iterable[Params], /) -> Cursor: ...


class Meta(Protocol):
    """The profile's key-value notes (the `meta` table)."""

    def meta_get(self, key: str) -> str | None: ...

    def meta_set(self, key: str, value: str | None) -> None: ...

    def after_commit(
        self, fn: Callable[[tuple[int, ...]], None], ids: Iterable[int] = ()
    ) -> None: ...


class Rows(Meta, Protocol):
    """Reading rows, and writing them in one transaction."""

    def query(self, sql: str, params: Params = ()) -> list[Any]:  # rows
        ...

    def execute(self, sql: str, params: Params = ()) -> Cursor: ...

    def transaction(self) -> AbstractContextManager[Connection]: ...

    def checkpoint(self) -> bool: ...
