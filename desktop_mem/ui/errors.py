"""The core's one-sentence errors, in the interface's language.

The core writes its errors in English with the details of the case (the address, the
file, the line) and gives each a reason code (core/errors.py). In English the window
shows the sentence as it is; in another language it shows the translated sentence for
the reason code, which says the same thing without the details that cannot be
translated ahead of time. Rewording a core sentence never breaks a translation."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication


def translated_ui() -> bool:
    app = QCoreApplication.instance()
    return bool(app and app.property("desktop_mem_language") not in (None, "", "en"))


def _wording(reason: str, model: str, lines: int) -> str | None:
    """The sentence for a reason code in the interface's language, or None."""
    words = {
        "reply_cut": lambda: QCoreApplication.translate(
            "errors",
            "The model server stopped answering in the middle of the reply: the partial answer is kept; check that it is running and retry.",
        ),
        "ollama_timeout": lambda: QCoreApplication.translate(
            "errors",
            "The model server did not answer in time: check that it is not overloaded and try again.",
        ),
        "ollama_unreachable": lambda: QCoreApplication.translate(
            "errors",
            "Ollama is not reachable: start it (open the Ollama app; on Linux, start its service) and try again.",
        ),
        "server_unreachable": lambda: QCoreApplication.translate(
            "errors",
            "The model server is not reachable: check its address in Settings and your connection.",
        ),
        "model_missing": lambda: QCoreApplication.translate(
            "errors",
            "The model %1 is not installed in Ollama: download it when desktop-mem offers to, or choose another model in Settings.",
        ).replace("%1", model or "?"),
        "model_failed_midway": lambda: QCoreApplication.translate(
            "errors",
            "The model failed in the middle of the reply: the partial answer is kept; retry.",
        ),
        "model_failed": lambda: QCoreApplication.translate(
            "errors", "The model server reported an error: try again, or check its log."
        ),
        "wrong_key": lambda: QCoreApplication.translate(
            "errors", "That passphrase is not right. Nothing was changed; try again."
        ),
        "wrong_code": lambda: QCoreApplication.translate(
            "errors", "That recovery code does not open this profile: check it and try again."
        ),
        "key_missing": lambda: QCoreApplication.translate(
            "errors",
            "The system keyring cannot be used or does not hold the key: unlock it and try again.",
        ),
        "keyring_unavailable": lambda: QCoreApplication.translate(
            "errors",
            "The system keyring cannot be used or does not hold the key: unlock it and try again.",
        ),
        "keyring_locked": lambda: QCoreApplication.translate(
            "errors",
            "The system keyring is locked: its unlock prompt was closed. Try again, and unlock it when it asks.",
        ),
        "busy": lambda: QCoreApplication.translate(
            "errors",
            "Another desktop-mem is writing to this profile: wait for it to finish and try again.",
        ),
        "damaged": lambda: QCoreApplication.translate(
            "errors", "The database is damaged: restore it from a backup or an export."
        ),
        "import_rejected": lambda: QCoreApplication.translate(
            "errors", "Nothing was imported: %n line(s) have problems (see the details).", "", lines
        ),
        "dimension_mismatch": lambda: QCoreApplication.translate(
            "errors",
            "Your memories are indexed with another embedding model: re-index them (Settings) or go back to it.",
        ),
        "memory_gone": lambda: QCoreApplication.translate(
            "errors", "That memory no longer exists: it was deleted. Nothing was changed."
        ),
        "about_gone": lambda: QCoreApplication.translate(
            "errors",
            "That line is no longer there: a memory it came from was forgotten, or it was removed.",
        ),
        "about_empty": lambda: QCoreApplication.translate(
            "errors", "A line cannot be empty: remove it instead."
        ),
        "about_long": lambda: QCoreApplication.translate(
            "errors", "That line is too long: keep it to one short sentence."
        ),
        "about_off": lambda: QCoreApplication.translate(
            "errors", "What the model knows about you is turned off: turn it on first."
        ),
        "invalid_answer": lambda: QCoreApplication.translate(
            "errors",
            "The model did not answer in the form asked for, so nothing was changed: try again, or choose another model in Settings.",
        ),
        "conversation_gone": lambda: QCoreApplication.translate(
            "errors", "That conversation no longer exists: it was deleted."
        ),
        "no_version": lambda: QCoreApplication.translate(
            "errors", "That version of the memory no longer exists. Nothing was changed."
        ),
        "remote_unconfigured": lambda: QCoreApplication.translate(
            "errors",
            "The OpenAI-compatible server is on but its URL or model is not set: fill them in Settings, or turn it off there.",
        ),
        "no_embed_model": lambda: QCoreApplication.translate(
            "errors", "No embedding model is chosen: choose one in Settings."
        ),
        "client_unknown": lambda: QCoreApplication.translate(
            "errors", "That app is not registered in desktop-mem: connect it in Settings > Apps."
        ),
        "folder_unknown": lambda: QCoreApplication.translate(
            "errors", "That folder is no longer watched: the list of folders was out of date."
        ),
        "not_settled": lambda: QCoreApplication.translate(
            "errors",
            "This profile was copied or moved here and the system keyring did not answer, so "
            "its key was not changed: unlock the keyring, restart desktop-mem and try again.",
        ),
        "client_not_allowed": lambda: QCoreApplication.translate(
            "errors", "That app is not allowed to do this: change it in Settings > Apps."
        ),
        "mcp_passphrase": lambda: QCoreApplication.translate(
            "errors",
            "A profile protected by a passphrase cannot be served to other apps: keep its key in the system keyring (Settings > Privacy).",
        ),
        "document_gone": lambda: QCoreApplication.translate(
            "errors", "That document is no longer in desktop-mem: it was removed."
        ),
        "document_refused": lambda: QCoreApplication.translate(
            "errors",
            "That file was not added: desktop-mem reads Markdown, text, PDF, Word and HTML files that are not damaged, encrypted or too large.",
        ),
        "disk_full": lambda: QCoreApplication.translate(
            "errors", "The disk is full: nothing was changed; free some space and try again."
        ),
        "read_only": lambda: QCoreApplication.translate(
            "errors",
            "This profile's folder cannot be written (a read-only disk, or another user's folder): it can be read, but nothing was changed.",
        ),
        "not_backup": lambda: QCoreApplication.translate(
            "errors", "That file is not a backup made by desktop-mem: nothing was changed."
        ),
        "no_profile": lambda: QCoreApplication.translate(
            "errors", "There is no such profile in this data folder: nothing was changed."
        ),
        "sync_folder_missing": lambda: QCoreApplication.translate(
            "errors",
            "The sync folder is not there (a drive not connected, or the folder moved or deleted): connect the drive or put the folder back. Nothing is lost meanwhile; this computer syncs again once it is there.",
        ),
        "sync_folder_readonly": lambda: QCoreApplication.translate(
            "errors", "desktop-mem cannot write in that folder: choose a folder you can write to."
        ),
        "sync_not_found": lambda: QCoreApplication.translate(
            "errors",
            "There is no synced desktop-mem profile in that folder: choose the folder the other computer syncs through, and wait until the engine has brought it here.",
        ),
        "sync_not_empty": lambda: QCoreApplication.translate(
            "errors",
            "Only a new, empty profile can join a synced one (this one holds memories or conversations): join into a new profile.",
        ),
        "sync_no_offer": lambda: QCoreApplication.translate(
            "errors",
            "There is no pairing offer in this folder that is still valid: show a new pairing code on the computer that syncs the profile (it lasts an hour), wait for the folder to reach this computer, and try again.",
        ),
        "sync_no_recovery": lambda: QCoreApplication.translate(
            "errors",
            "This synced profile has no recovery code (it is protected by a passphrase): join with a pairing code shown on a computer that syncs it.",
        ),
        "sync_recovery_blocked": lambda: QCoreApplication.translate(
            "errors",
            "Your recovery code is right, but the newest key file in this sync folder does not let it in (damaged, or written by a computer removed since): join with a pairing code shown on one of your computers, or try again once they have synced.",
        ),
        "sync_removed": lambda: QCoreApplication.translate(
            "errors",
            "This computer was removed from the sync by another one: what it holds stays here, but it no longer syncs. To sync it again, show a pairing code on one of your other computers and enter it in Settings > Sync, under Join again.",
        ),
        "sync_left_out": lambda: QCoreApplication.translate(
            "errors",
            "This computer is no longer in the sync: the computer that let it in was removed before the others knew of this one. What it holds stays here. To sync it again, show a pairing code on one of your other computers and enter it in Settings > Sync, under Join again.",
        ),
        "sync_contested": lambda: QCoreApplication.translate(
            "errors",
            "The sync folder now holds a second start of this synced profile that the recovery code opens: someone who can write the folder planted one, and this computer, which joined with the recovery code, cannot tell which is yours. It writes nothing to the folder while both are there. To go on now, show a pairing code on one of your other computers and enter it in Settings > Sync, under Join again. What it holds stays here.",
        ),
        "sync_code_used": lambda: QCoreApplication.translate(
            "errors",
            "The pairing code this computer joined with was used by another computer first, so this one was not let in: show a new pairing code on one of your other computers and enter it in Settings > Sync, under Join again.",
        ),
        "sync_code_expired": lambda: QCoreApplication.translate(
            "errors",
            "The pairing code this computer joined with expired before the computer that showed it could let this one in: show a new pairing code there, keep both computers on, and enter it in Settings > Sync, under Join again.",
        ),
        "sync_ambiguous": lambda: QCoreApplication.translate(
            "errors",
            "This sync folder holds more than one start of this synced profile that your recovery code opens: one of them was planted by someone else. Join with a pairing code shown on one of your computers instead.",
        ),
        "sync_no_key": lambda: QCoreApplication.translate(
            "errors",
            "This computer has not been given the newest sync key yet: try again after the next sync, or show the pairing code on another of your computers.",
        ),
        "sync_folder_link": lambda: QCoreApplication.translate(
            "errors",
            "The sync folder, or the keys folder inside it, was replaced by a symbolic link or by something that is not a folder: desktop-mem never reads or writes through it. Put the real folder in its place, or move this computer to another folder (Settings > Sync > Move to another folder…), then sync again.",
        ),
        "sync_busy": lambda: QCoreApplication.translate(
            "errors",
            "Another window or command is syncing this profile right now: try again in a moment.",
        ),
        "sync_on": lambda: QCoreApplication.translate(
            "errors", "This profile already syncs: turn sync off first."
        ),
        "sync_off": lambda: QCoreApplication.translate("errors", "This profile is not synced."),
        "memory_not_found": lambda: QCoreApplication.translate(
            "errors", "That memory no longer exists: it was deleted. Nothing was changed."
        ),
        "space_contents": lambda: QCoreApplication.translate(
            "errors",
            "Choose whether to move the space's contents to the shared space or to delete them.",
        ),
        "space_name_taken": lambda: QCoreApplication.translate(
            "errors", "There is already a space with that name: choose another name."
        ),
        "space_name_empty": lambda: QCoreApplication.translate(
            "errors", "A space needs a name: type one."
        ),
        "space_name_long": lambda: QCoreApplication.translate(
            "errors", "That name is too long: a space's name is at most 60 characters."
        ),
        "space_name_reserved": lambda: QCoreApplication.translate(
            "errors", "That is the name of the shared space: choose another name."
        ),
        "space_instruction_long": lambda: QCoreApplication.translate(
            "errors", "That instruction is too long: keep it under 2,000 characters."
        ),
        "space_not_empty": lambda: QCoreApplication.translate(
            "errors",
            "That space still holds memories, conversations or documents: move them to the "
            "shared space or delete them first.",
        ),
        "space_not_found": lambda: QCoreApplication.translate(
            "errors",
            "That space no longer exists: it was deleted, here or on another computer. Nothing "
            "was changed.",
        ),
        "document_in_folder": lambda: QCoreApplication.translate(
            "errors",
            "That document is in a watched folder: move the folder instead (beside Watched "
            "folders).",
        ),
    }
    make = words.get(reason)
    return make() if make else None


# Reasons whose core sentence is written for the command line (it names a command or an
# environment variable): the window always uses its own wording for them, in English too.
WINDOW_WORDED = {
    "ollama_unreachable",
    "model_missing",
    "no_profile",
    "memory_gone",
    "about_gone",
    "conversation_gone",
    "no_version",
    "remote_unconfigured",
    "no_embed_model",
    "dimension_mismatch",
    "key_missing",
    "keyring_unavailable",
    "keyring_locked",
    "client_unknown",
    "mcp_passphrase",
    "document_gone",
    "folder_unknown",
    "not_settled",
    "sync_folder_missing",  # the core says "choose the folder again": not in the window
    "sync_removed",  # the core names the command that joins again
    "sync_left_out",
    "sync_contested",
    "sync_code_used",  # the window's own "Join again"
    "sync_code_expired",
    "sync_folder_link",  # the core names the command that moves
    "space_not_found",  # the core names the command that lists them
    "document_in_folder",  # the window's own place to move a folder
}


def describe(reason: str, text: str, model: str = "", lines: int = 0) -> str:
    """`reason` is the error's reason code, `text` its English sentence."""
    if not translated_ui() and reason not in WINDOW_WORDED:
        return text
    return _wording(reason, model, lines) or text
