"""Errors a user can hit. Each carries one sentence (what happened, what to do)
and the command-line exit code documented in the README."""

from __future__ import annotations

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_USAGE = 2
EXIT_LOCKED = 3
EXIT_MODEL = 4


class DesktopMemError(Exception):
    """Base class: str(error) is the sentence shown to the user."""

    exit_code = EXIT_ERROR


class UsageError(DesktopMemError):
    exit_code = EXIT_USAGE


class NotFound(DesktopMemError):
    pass


class InvalidInput(DesktopMemError):
    pass


# -- keys and the encrypted file ------------------------------------------------


class LockedError(DesktopMemError):
    """The database cannot be opened: no key, a wrong key, or an unusable keyring."""

    exit_code = EXIT_LOCKED


class KeyMissing(LockedError):
    pass


class WrongKey(LockedError):
    pass


class KeyringUnavailable(LockedError):
    pass


class DatabaseCorrupt(DesktopMemError):
    pass


class ProfileBusy(DesktopMemError):
    pass


# -- the model server -----------------------------------------------------------


class ModelServerError(DesktopMemError):
    exit_code = EXIT_MODEL


class OllamaUnavailable(ModelServerError):
    pass


class ModelMissing(ModelServerError):
    def __init__(self, message: str, model: str = "") -> None:
        super().__init__(message)
        self.model = model


class ModelFailed(ModelServerError):
    """The server answered, but with an error or with something unusable."""


class DimensionMismatch(DesktopMemError):
    """The index was built with another embedding model or dimension."""


# -- import ---------------------------------------------------------------------


class ImportRejected(InvalidInput):
    """An import file had bad rows; nothing was imported."""

    def __init__(self, message: str, problems: list[tuple[int, str]]) -> None:
        super().__init__(message)
        self.problems = problems
