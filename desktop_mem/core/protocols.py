"""What the modules below the database layer need of it, as Protocols: the settings, the
apps' registry and the model server's notes keep their rows in the profile's database
but may not import core/db (the layers), so they name what they use. The Database of
core/db/database.py is one."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager
from typing import Any, Protocol


class Meta(Protocol):
    """The profile's key-value notes (the `meta` table)."""

    def meta_get(self, key: str) -> str | None: ...

    def meta_set(self, key: str, value: str | None) -> None: ...

    def after_commit(
        self, fn: Callable[[tuple[int, ...]], None], ids: Iterable[int] = ()
    ) -> None: ...


class Rows(Meta, Protocol):
    """Reading rows, and writing them in one transaction."""

    def query(self, sql: str, params: Any = ()) -> list[Any]: ...

    def execute(self, sql: str, params: Any = ()) -> Any: ...

    def transaction(self) -> AbstractContextManager[Any]: ...

    def checkpoint(self) -> bool: ...
