"""Errors a user can hit. Each carries one sentence (what happened, what to do), the
command-line exit code (docs/commands.md lists them, generated from this module), and a
reason code: a stable name for the case (``disk_full``, ``reply_cut``…) that the window
maps to its own wording in its language, so rewording a sentence here never breaks a
translation."""

from __future__ import annotations

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_USAGE = 2
EXIT_LOCKED = 3
EXIT_MODEL = 4


class DesktopMemError(Exception):
    """Base class: str(error) is the sentence shown to the user."""

    exit_code = EXIT_ERROR
    reason = "error"

    def __init__(self, message: str = "", reason: str | None = None) -> None:
        super().__init__(message)
        if reason is not None:
            self.reason = reason


class UsageError(DesktopMemError):
    reason = "usage"
    exit_code = EXIT_USAGE


class NotFound(DesktopMemError):
    reason = "not_found"


class InvalidInput(DesktopMemError):
    reason = "invalid_input"


# -- keys and the encrypted file ------------------------------------------------


class LockedError(DesktopMemError):
    """The database cannot be opened: no key, a wrong key, or an unusable keyring."""

    reason = "locked"

    exit_code = EXIT_LOCKED


class KeyMissing(LockedError):
    reason = "key_missing"


class WrongKey(LockedError):
    reason = "wrong_key"


class KeyringUnavailable(LockedError):
    reason = "keyring_unavailable"


class KeyringLocked(KeyringUnavailable):
    """The keyring is there but locked: its unlock prompt was dismissed (or refused).
    Not the same as no keyring at all: trying again asks to unlock it again."""

    reason = "keyring_locked"


class DatabaseCorrupt(DesktopMemError):
    reason = "damaged"


class ProfileBusy(DesktopMemError):
    reason = "busy"


class SystemLibraryMissing(DesktopMemError):
    """The window cannot start: a system library Qt's xcb platform plugin needs is not
    installed (the message names it and its package)."""

    reason = "system_library_missing"


# -- the model server -----------------------------------------------------------


class ModelServerError(DesktopMemError):
    reason = "model_server"
    exit_code = EXIT_MODEL


class OllamaUnavailable(ModelServerError):
    reason = "ollama_unreachable"


class ModelMissing(ModelServerError):
    reason = "model_missing"

    def __init__(self, message: str, model: str = "") -> None:
        super().__init__(message)
        self.model = model


class ModelFailed(ModelServerError):
    """The server answered, but with an error or with something unusable."""

    reason = "model_failed"


class InvalidModelAnswer(ModelFailed):
    """The model's answer to a structured request was not valid, even after it was
    asked once more with what was wrong."""

    reason = "invalid_answer"


class DimensionMismatch(DesktopMemError):
    """The index was built with another embedding model or dimension."""

    reason = "dimension_mismatch"


# -- import ---------------------------------------------------------------------


class ImportRejected(InvalidInput):
    """An import file had bad rows; nothing was imported."""

    reason = "import_rejected"

    def __init__(self, message: str, problems: list[tuple[int, str]]) -> None:
        super().__init__(message)
        self.problems = problems


class ExportRejected(ImportRejected):
    """Another assistant's export that is not one, or cannot be read whole: nothing of
    it was imported. `file` names it and `case` says which, for the window to word:
    'unreadable' (`detail` says what is wrong where), 'not_export' (`detail` says what
    it is instead: 'pdf', 'picture', 'word', 'spreadsheet', 'web_page', 'zip',
    'empty', 'binary', 'table', 'memories_table', 'other_json', 'other'), 'password',
    'unsafe_zip', 'no_conversations', 'no_memories'."""

    reason = "export_rejected"
    # the file given cannot be used, whatever else is tried: like a usage error, the same
    # command with the same file fails the same way (a script can tell it from a fault)
    exit_code = EXIT_USAGE

    def __init__(self, message: str, file: str, case: str, detail: str = "") -> None:
        super().__init__(message, [(0, detail or case)])
        self.file, self.case, self.detail = file, case, detail


# -- sync -----------------------------------------------------------------------


class SyncError(DesktopMemError):
    """Syncing through the folder could not go on: the folder is missing or not
    writable, this computer was removed, the code is wrong."""

    reason = "sync"


class SyncRefused(SyncError):
    """A file in the sync folder was refused (changed, cut short, replayed, from
    another profile, or from a removed computer) and nothing of it was applied. The
    message is the reason alone ("it is cut short"): the caller names the file."""

    reason = "sync_refused"
