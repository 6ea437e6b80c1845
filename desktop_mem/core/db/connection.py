"""The database connection as the code that writes inside a transaction sees it
(Connection and Cursor, named in core/protocols.py so that the layers below the database
can name them too), and as the database layer holds it open (OpenConnection)."""

from __future__ import annotations

from typing import Protocol

from desktop_mem.core.protocols import Connection, Cursor, Params, Row


class OpenConnection(Connection, Protocol):
    """A connection this process opened (core/db/database.py: connect), to configure and
    close."""

    def close(self) -> None: ...

    def enable_load_extension(self, enabled: bool, /) -> None: ...

    def load_extension(self, path: str, /) -> None: ...


__all__ = ["Connection", "Cursor", "OpenConnection", "Params", "Row"]
