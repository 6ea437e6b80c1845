"""Settings: the model server and models, memory, backups, apps, privacy, look."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from desktop_mem.core.models.catalog import unique
from desktop_mem.ui import focus
from desktop_mem.ui.context import LANGUAGES, SYSTEM, system_language


def _page(tabs: QTabWidget, title: str) -> QFormLayout:
    """A tab whose rows sit at the top at their own height: the spare height goes below
    them, not into gaps between the rows."""
    page = QWidget()
    column = QVBoxLayout(page)
    form = QFormLayout()
    form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
    column.addLayout(form)
    column.addStretch(1)
    tabs.addTab(page, title)
    return form


class SettingsDialog(QDialog):
    """Settings of the app (QSettings) and of the profile (encrypted, in the profile), on
    tabs: Model, Memory, Appearance, Privacy, and any pages the window adds (Backup)."""

    def __init__(
        self,
        values: dict[str, Any],
        models: list[str],
        parent: QWidget | None = None,
        pages: Sequence[tuple[str, QWidget]] = (),
        embedding_models: Sequence[str] = (),
    ) -> None:
        """`models`: the server's chat models, `embedding_models` its embedding models
        (each list offers only its own kind, each model once)."""
        super().__init__(parent)
        self.setWindowTitle(self.tr("Settings"))
        self.setMinimumWidth(540)  # the paragraphs read as such, in Chinese too
        layout = QVBoxLayout(self)
        self.tabs = QTabWidget()
        layout.addWidget(self.tabs, 1)

        form = _page(self.tabs, self.tr("Model"))
        self.host = QLineEdit(values["ollama_host"])
        form.addRow(self.tr("Ollama address"), self.host)
        self.chat_model = QComboBox()
        self.chat_model.setEditable(True)
        self.chat_model.addItems(unique(sorted({*models, values["chat_model"]})))
        self.chat_model.setCurrentText(values["chat_model"])
        form.addRow(self.tr("Chat model"), self.chat_model)
        self.embed_model = QComboBox()
        self.embed_model.setEditable(True)
        self.embed_model.addItems(unique(sorted({*embedding_models, values["embed_model"]})))
        self.embed_model.setCurrentText(values["embed_model"])
        for box in (self.chat_model, self.embed_model):
            box.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.embed_model.setToolTip(
            self.tr(
                "Changing it re-indexes every memory, message and document passage with the "
                "new model (with progress); a model not installed yet is downloaded first."
            )
        )
        form.addRow(self.tr("Embedding model"), self.embed_model)
        self.context = QSpinBox()
        self.context.setRange(1024, 131072)
        self.context.setSingleStep(1024)
        self.context.setValue(int(values["context_tokens"]))
        self.context.setSuffix(self.tr(" tokens"))
        form.addRow(self.tr("Context budget"), self.context)
        self.openai = QCheckBox(self.tr("Use an OpenAI-compatible server instead of Ollama"))
        self.openai.setChecked(bool(values["openai_enabled"]))
        form.addRow(self.tr("Other server"), self.openai)
        self.openai_url = QLineEdit(values["openai_base_url"] or "")
        self.openai_url.setPlaceholderText("http://127.0.0.1:1234/v1")
        form.addRow(self.tr("Server URL"), self.openai_url)
        self.openai_model = QLineEdit(values["openai_model"] or "")
        form.addRow(self.tr("Server model"), self.openai_model)
        self.openai_key = QLineEdit()
        self.openai_key.setEchoMode(QLineEdit.EchoMode.Password)
        self.openai_key.setPlaceholderText(
            self.tr("(unchanged)") if values.get("openai_api_key") else self.tr("none")
        )
        form.addRow(self.tr("API key"), self.openai_key)
        self.openai_notice = QLabel(
            self.tr(
                "With another server on, your messages and the memories retrieved for them are "
                "sent to that server. If it is not this computer, they leave your machine."
            )
        )
        self.openai_notice.setWordWrap(True)
        self.openai_notice.setObjectName("status")
        form.addRow("", self.openai_notice)
        self.openai.toggled.connect(self._openai_toggled)
        self._openai_toggled(self.openai.isChecked())

        form = _page(self.tabs, self.tr("Memory"))
        self.auto_memory = QCheckBox(self.tr("Learn memories from my chats automatically"))
        self.auto_memory.setChecked(bool(values["auto_memory"]))
        form.addRow(self.auto_memory)
        self.use_memory = QCheckBox(
            self.tr("Give the model my relevant memories and earlier messages")
        )
        self.use_memory.setChecked(bool(values["use_memory"]))
        form.addRow(self.use_memory)
        self.sleep_consolidation = QCheckBox(
            self.tr("Tidy my memories while the app is idle (every change can be undone)")
        )
        self.sleep_consolidation.setChecked(bool(values["sleep_consolidation"]))
        form.addRow(self.sleep_consolidation)
        self.about_you = QCheckBox(
            self.tr("Keep a short profile of me and give it in every chat (Memories › About you)")
        )
        self.about_you.setChecked(bool(values.get("about_you", True)))
        form.addRow(self.about_you)
        self.instructions = QPlainTextEdit(values.get("instructions") or "")
        self.instructions.setPlaceholderText(
            self.tr("About you and how you like answers, e.g. “I am a nurse; answer briefly.”")
        )
        self.instructions.setToolTip(
            self.tr("Given to the model with every message; never learned from.")
        )
        self.instructions.setMaximumHeight(90)
        self.instructions.setTabChangesFocus(True)  # Tab moves on; it never keeps the keyboard
        form.addRow(self.tr("About me"), self.instructions)

        form = _page(self.tabs, self.tr("Appearance"))
        self.language = QComboBox()
        # the default follows the system, and says which language that gives now
        self.language.addItem(
            self.tr("As the system (%1)").replace("%1", LANGUAGES[system_language()]), SYSTEM
        )
        for key, name in LANGUAGES.items():
            self.language.addItem(name, key)
        self.language.setCurrentIndex(max(0, self.language.findData(values["language"])))
        form.addRow(self.tr("Language"), self.language)
        self.theme = QComboBox()
        for key, label in (
            ("system", self.tr("System")),
            ("light", self.tr("Light")),
            ("dark", self.tr("Dark")),
        ):
            self.theme.addItem(label, key)
        self.theme.setCurrentIndex(max(0, self.theme.findData(values["theme"])))
        form.addRow(self.tr("Theme"), self.theme)

        form = _page(self.tabs, self.tr("Privacy"))
        folder = QHBoxLayout()
        self.folder = QLabel(values["data_folder"])
        self.folder.setWordWrap(True)
        self.folder.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        folder.addWidget(self.folder, 1)
        self.open_folder = QPushButton(self.tr("Open folder"))
        folder.addWidget(self.open_folder)
        form.addRow(self.tr("Data folder"), folder)
        self.key_request: str | None = None  # "keyring" or "passphrase": change the key
        key_row = QVBoxLayout()
        self.key_status = QLabel()
        self.key_status.setWordWrap(True)
        key_row.addWidget(self.key_status)
        self.rekey_button = QPushButton()
        self.rekey_button.setToolTip(
            self.tr("Re-encrypts everything with a new key; the old one stops working.")
        )
        self.switch_key_button = QPushButton()
        # one under the other, each as wide as its words: side by side, the dialog's
        # width cut "Keep the key in the system keyring instead" short
        for button in (self.rekey_button, self.switch_key_button):
            key_row.addWidget(button, 0, Qt.AlignmentFlag.AlignLeft)
        form.addRow(self.tr("Encryption"), key_row)
        self.key_mode = "keyring"
        self.show_key(str(values.get("key_mode")), bool(values.get("keyring_usable", True)))
        self.rekey_button.clicked.connect(lambda: self._request_key(self.key_mode))
        self.switch_key_button.clicked.connect(
            lambda: self._request_key("keyring" if self.key_mode == "passphrase" else "passphrase")
        )

        for title, page in pages:
            self.tabs.addTab(page, title)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        focus.chain(focus.in_order(self))  # the tabs, each tab's rows in order, the buttons

    def show_key(self, mode: str, keyring_usable: bool = True) -> None:
        """How the key is kept ("keyring" or "passphrase"), and the ways to change it."""
        keyring_mode = mode != "passphrase"
        self.key_mode = "keyring" if keyring_mode else "passphrase"
        self.key_status.setText(
            self.tr("Encrypted; the key is kept in the system keyring.")
            if keyring_mode
            else self.tr("Encrypted with your passphrase.")
        )
        self.rekey_button.setText(
            self.tr("Replace the key") if keyring_mode else self.tr("Change passphrase…")
        )
        self.switch_key_button.setText(
            self.tr("Use a passphrase instead…")
            if keyring_mode
            else self.tr("Keep the key in the system keyring instead")
        )
        usable = keyring_mode or keyring_usable  # else it would re-encrypt, then fail
        self.switch_key_button.setEnabled(usable)
        self.switch_key_button.setToolTip(
            "" if usable else self.tr("No system keyring is available on this computer.")
        )

    def _request_key(self, mode: str) -> None:
        """Save the other settings and close; the window then changes the key."""
        self.key_request = mode
        self.accept()

    def _openai_toggled(self, on: bool) -> None:
        for w in (self.openai_url, self.openai_model, self.openai_key, self.openai_notice):
            w.setEnabled(on)
        self.openai_notice.setVisible(on)

    def values(self) -> dict[str, Any]:
        out = {
            "ollama_host": self.host.text().strip(),
            "chat_model": self.chat_model.currentText().strip(),
            "embed_model": self.embed_model.currentText().strip(),
            "auto_memory": self.auto_memory.isChecked(),
            "use_memory": self.use_memory.isChecked(),
            "sleep_consolidation": self.sleep_consolidation.isChecked(),
            "about_you": self.about_you.isChecked(),
            "instructions": self.instructions.toPlainText().strip(),
            "context_tokens": self.context.value(),
            "openai_enabled": self.openai.isChecked(),
            "openai_base_url": self.openai_url.text().strip(),
            "openai_model": self.openai_model.text().strip(),
            "language": self.language.currentData(),
            "theme": self.theme.currentData(),
        }
        if self.openai_key.text():
            out["openai_api_key"] = self.openai_key.text()
        return out
