"""The core's one-sentence errors, in the interface's language.

The core writes its errors in English with the details of the case (the address, the
file, the line). In English the window shows them as they are; in another language it
shows the translated sentence for the kind of error, which says the same thing
without the details that cannot be translated ahead of time."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication


def translated_ui() -> bool:
    app = QCoreApplication.instance()
    return bool(app and app.property("desktop_mem_language") not in (None, "", "en"))


def describe(kind: str, text: str, model: str = "", lines: int = 0) -> str:
    """`kind` is the error's class name, `text` its English sentence."""
    if not translated_ui():
        return text
    if kind == "OllamaUnavailable":
        if "middle of the reply" in text:
            return QCoreApplication.translate(
                "errors",
                "The model server stopped answering in the middle of the reply: the partial answer is kept; check that it is running and retry.",
            )
        if "in time" in text:
            return QCoreApplication.translate(
                "errors",
                "The model server did not answer in time: check that it is not overloaded and try again.",
            )
        return QCoreApplication.translate(
            "errors",
            "Ollama is not reachable: start it (open the Ollama app, or run “ollama serve”) and try again.",
        )
    if kind == "ModelMissing":
        return QCoreApplication.translate(
            "errors",
            "The model %1 is not installed: download it (Settings, or “ollama pull %1”) and try again.",
        ).replace("%1", model or "?")
    if kind == "ModelFailed":
        if "middle of the reply" in text:
            return QCoreApplication.translate(
                "errors",
                "The model failed in the middle of the reply: the partial answer is kept; retry.",
            )
        return QCoreApplication.translate(
            "errors", "The model server reported an error: try again, or check its log."
        )
    if kind == "WrongKey":
        return QCoreApplication.translate(
            "errors", "That passphrase is not right. Nothing was changed; try again."
        )
    if kind in ("KeyringUnavailable", "KeyMissing"):
        return QCoreApplication.translate(
            "errors",
            "The system keyring cannot be used or does not hold the key: unlock it and try again.",
        )
    if kind == "ProfileBusy":
        return QCoreApplication.translate(
            "errors",
            "Another desktop-mem is writing to this profile: wait for it to finish and try again.",
        )
    if kind == "DatabaseCorrupt":
        return QCoreApplication.translate(
            "errors", "The database is damaged: restore it from a backup or an export."
        )
    if kind == "ImportRejected":
        return QCoreApplication.translate(
            "errors", "Nothing was imported: %n line(s) have problems (see the details).", "", lines
        )
    if kind == "DimensionMismatch":
        return QCoreApplication.translate(
            "errors",
            "Your memories are indexed with another embedding model: re-index them (Settings) or go back to it.",
        )
    if "is full" in text:
        return QCoreApplication.translate(
            "errors", "The disk is full: nothing was changed; free some space and try again."
        )
    return text
