"""Start the desktop application: one instance per profile, the language and theme,
the profile opened (ui/unlock.py asks for what its key needs), then the main window."""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtCore import QLibraryInfo, QLocale, QSettings, QSize, QTranslator
from PySide6.QtGui import QFontInfo, QIcon
from PySide6.QtNetwork import QLocalServer, QLocalSocket
from PySide6.QtWidgets import QApplication, QMessageBox

from desktop_mem.core import logs
from desktop_mem.core.config import Config
from desktop_mem.core.errors import DesktopMemError
from desktop_mem.core.keys.vault import Vault
from desktop_mem.core.service import Service
from desktop_mem.core.service import keys as backup
from desktop_mem.core.service.keys import change_key
from desktop_mem.ui import theme
from desktop_mem.ui.backup_ui import RecoveryCodeDialog, backup_summary
from desktop_mem.ui.context import SYSTEM, shown_language, system_language
from desktop_mem.ui.main_window import MainWindow
from desktop_mem.ui.passphrase_dialog import PassphraseDialog
from desktop_mem.ui.tasks import describe_exception
from desktop_mem.ui.unlock import off_gui_thread, open_profile, restore_with_prompts

RESOURCES = Path(__file__).resolve().parents[1] / "resources"  # inside the package, and the bundle
TRANSLATIONS = RESOURCES / "translations"
ICONS = RESOURCES / "icons"
APP_ID = "io.github.desktopmem.DesktopMem"  # the .desktop file, the AppStream id, the icon name
ICON_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)


def app_icon() -> QIcon:
    """The application icon, from the PNGs shipped in the package (no SVG plugin needed)."""
    icon = QIcon()
    for size in ICON_SIZES:
        path = ICONS / f"desktop-mem-{size}.png"
        if path.exists():
            icon.addFile(str(path), QSize(size, size))
    return icon


def prepare_application(app: QApplication) -> None:
    """Names, icon and desktop-file id: the same for the window and the self-test."""
    app.setApplicationName("desktop-mem")
    app.setOrganizationName("desktop-mem")
    app.setDesktopFileName(APP_ID)  # Wayland matches the window to the .desktop entry by it
    app.setWindowIcon(app_icon())
    # Han characters in Simplified Chinese forms: left to itself, fontconfig may pick the
    # Japanese member of a CJK family (Noto Sans CJK JP), whose forms differ for some.
    font = app.font()
    font.setFamilies([QFontInfo(font).family(), *SC_FONTS])  # the resolved one, not "Sans Serif"
    app.setFont(font)


SC_FONTS = ("Noto Sans CJK SC", "Source Han Sans SC", "PingFang SC", "Microsoft YaHei UI",
            "Microsoft YaHei", "WenQuanYi Micro Hei")  # fmt: skip


def app_settings(home: Path) -> QSettings:
    """Window state, language, theme and the Ollama address: no memory or message text.
    An ini file in the data folder, so each data folder (and each test) has its own."""
    return QSettings(str(home / "desktop-mem.ini"), QSettings.Format.IniFormat)


def install_language(app: QApplication, language: str) -> QTranslator | None:
    """Load desktop_mem/resources/translations/desktop_mem_<language>.qm. English has
    one too: it holds the singular and plural of every counted string ("1 memory",
    "2 memories")."""
    for old in app.findChildren(QTranslator):
        app.removeTranslator(old)
        old.deleteLater()
    language = language or "en"
    app.setProperty("desktop_mem_language", language)
    # Qt's own strings (Yes/No, OK/Cancel, Save, Close, Show Details…), from Qt's install
    qt = QTranslator(app)
    if language != "en" and qt.load(
        f"qtbase_{language}", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    ):
        app.installTranslator(qt)
    translator = QTranslator(app)
    if translator.load(str(TRANSLATIONS / f"desktop_mem_{language}.qm")):
        app.installTranslator(translator)
        QLocale.setDefault(QLocale(language))
        return translator
    return None


def default_language() -> str:
    return system_language()


def instance_name(config: Config) -> str:
    key = f"{config.home.resolve()}|{config.profile}".encode()
    return "desktop-mem-" + hashlib.blake2b(key, digest_size=8).hexdigest()


class SingleInstance:
    """A local socket per profile: a second start asks the first to show its window."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.server: QLocalServer | None = None

    def already_running(self) -> bool:
        socket = QLocalSocket()
        socket.connectToServer(self.name)
        if socket.waitForConnected(300):
            socket.write(b"raise\n")
            socket.waitForBytesWritten(300)
            socket.disconnectFromServer()
            return True
        return False

    def listen(self, on_raise: Callable[[], object]) -> None:
        QLocalServer.removeServer(self.name)  # a stale socket left by a crash
        self.server = QLocalServer()
        self.server.listen(self.name)

        def accept() -> None:
            assert self.server is not None
            conn = self.server.nextPendingConnection()
            if conn is not None:
                conn.readyRead.connect(on_raise)
                conn.disconnected.connect(conn.deleteLater)

        self.server.newConnection.connect(accept)


def _wait_for_background_work(app: QApplication, seconds: float = 30.0) -> None:
    from PySide6.QtCore import QThread

    from desktop_mem.ui import tasks

    for _ in range(int(seconds * 40)):
        app.processEvents()
        if not tasks.busy():
            return
        QThread.msleep(25)


def build_config(argv: Sequence[str]) -> Config:
    """The configuration from the window's command line: the same global options as
    every command (one parser), then the Ollama address saved in the window."""
    import argparse

    from desktop_mem.core.config import global_options

    args, _ = global_options(argparse.ArgumentParser(prog="desktop-mem")).parse_known_args(
        list(argv)
    )
    config = Config.resolve(
        home=args.home,
        profile=args.profile,
        ollama_host=args.ollama_host,
        embed_model=args.embed_model,
    )
    return use_saved_host(config, explicit=bool(args.ollama_host))


def use_saved_host(config: Config, explicit: bool) -> Config:
    """The Ollama address chosen in Settings, unless --ollama-host gave one."""
    saved = app_settings(config.home).value("ollama/host")
    if saved and not explicit:
        config.ollama_host = str(saved)
    return config


class Application:
    """The running app: rebuilds its window when the language changes, and reopens the
    profile around a change of its key."""

    def __init__(
        self,
        app: QApplication,
        service: Service,
        settings: QSettings,
        vault: Vault | None = None,
    ) -> None:
        self.app = app
        self.service = service
        self.settings = settings
        self.vault = vault or Vault()
        self.window: MainWindow | None = None
        self.build_window()

    def change_key(self, mode: str, new_passphrase: str | None = None) -> bool:
        """Re-encrypt the profile under a new key (core/db/rekey.py): the profile is closed,
        copied under the new key, verified, switched, and opened again. On any failure
        the old file and key are untouched and the profile reopens with them."""
        window = self.window
        config = self.service.config
        if mode == "passphrase" and new_passphrase is None:
            dialog = PassphraseDialog(
                config.profile,
                create=True,
                parent=window,
                explanation=QApplication.translate(
                    "app",
                    "Choose a new passphrase for the profile “%1”. Everything is re-encrypted "
                    "with it; without it nobody, including you, can read your memories. There "
                    "is no way to recover it.",
                ).replace("%1", config.profile),
            )
            if dialog.exec() != PassphraseDialog.DialogCode.Accepted:
                return False
            new_passphrase = dialog.passphrase()
        if window is not None:
            if window.context.chat.busy:
                QMessageBox.information(
                    window,
                    QApplication.translate("app", "Change the key"),
                    QApplication.translate(
                        "app", "Wait for the answer to finish, then change the key."
                    ),
                )
                return False
            window.setEnabled(False)
            window.statusBar().showMessage(
                QApplication.translate("app", "Re-encrypting your memories…")
            )
            _wait_for_background_work(self.app)
            window.context.chat.close()
        old_passphrase = config.passphrase
        self.service.close()  # after the background work it runs has ended
        changed = True
        new_code: str | None = None
        try:
            report = off_gui_thread(
                change_key, config.home, config.profile, old_passphrase, mode, new_passphrase,
                self.vault,
            )  # fmt: skip
        except DesktopMemError as exc:
            changed = False
            QMessageBox.warning(
                window,
                QApplication.translate("app", "The key was not changed"),
                describe_exception(exc, str(exc)),
            )
        else:
            config.passphrase = new_passphrase if mode == "passphrase" else None
            new_code = report.recovery_code  # moved to the keyring: its first code
        try:
            self.service = off_gui_thread(Service.open, config, self.vault)
        except DesktopMemError as exc:  # e.g. the keyring stopped answering meanwhile
            QMessageBox.critical(
                window,
                QApplication.translate("app", "Cannot open your memories"),
                describe_exception(exc, str(exc)),
            )
            self.app.quit()
            return False
        self.build_window()
        if changed:  # committed: said on the profile opened again, to the window built on it
            self.service.keys.changed_while_closed("rekeyed")
        self._show_new_code(new_code)
        return changed

    def _show_new_code(self, code: str | None) -> None:
        if code:
            RecoveryCodeDialog(code, self.service.name, self.window).exec()

    def restore_backup(self, path: str) -> bool:
        """Put a backup in the place of the open profile (after a confirmation), then
        reopen it. On any failure the profile is untouched and reopens as it was."""
        window = self.window
        config = self.service.config
        try:
            summary = backup_summary(backup.read_header(Path(path))[0])
        except DesktopMemError as exc:
            QMessageBox.warning(
                window,
                QApplication.translate("app", "Restore a backup"),
                describe_exception(exc, str(exc)),
            )
            return False
        answer = QMessageBox.question(
            window,
            QApplication.translate("app", "Restore a backup"),
            QApplication.translate(
                "app",
                "Replace the memories and conversations of the profile “%1” with this backup "
                "(%2)? What the profile holds now is deleted.",
            )
            .replace("%1", config.profile)
            .replace("%2", summary),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,  # a reflexive Enter keeps what is there
        )
        if answer != QMessageBox.StandardButton.Yes:
            return False
        if window is not None:
            if window.context.chat.busy:
                return False
            window.setEnabled(False)
            _wait_for_background_work(self.app)
            window.context.chat.close()
        self.service.close()
        restored = restore_with_prompts(config, self.vault, path, window, replace=True)
        try:
            self.service = off_gui_thread(Service.open, config, self.vault)
        except DesktopMemError as exc:
            QMessageBox.critical(
                window,
                QApplication.translate("app", "Cannot open your memories"),
                describe_exception(exc, str(exc)),
            )
            self.app.quit()
            return False
        self.build_window()
        if restored:
            self.service.keys.changed_while_closed("restored")
        return restored

    def build_window(self) -> MainWindow:
        """A new window (another language, a reopened profile), where the old one was,
        on the same page and conversation."""
        old = self.window
        conversation = None
        geometry = None
        if old is not None:
            conversation = old.context.chat.conversation_id
            geometry = old.saveGeometry()
            old.close()  # saves its state: the new one opens on its page
            old.deleteLater()
        window = MainWindow(self.service, self.settings, geometry=geometry)
        hub = window.context.hub
        hub.language_requested.connect(self.set_language)
        hub.key_change_requested.connect(self.change_key)
        hub.restore_requested.connect(self.restore_backup)
        hub.theme_requested.connect(theme.apply)
        if conversation is not None:
            window.conversations.open_conversation(conversation)
        window.show()
        self.window = window
        return window

    def set_language(self, language: str) -> None:
        """`language`: a choice in Settings (SYSTEM: the system's)."""
        install_language(self.app, shown_language(language))
        self.build_window()

    def raise_window(self) -> None:
        if self.window is not None:
            self.window.showNormal()
            self.window.raise_()
            self.window.activateWindow()


def main(
    argv: Sequence[str] | None = None, vault: Vault | None = None, config: Config | None = None
) -> int:
    """The window. `config`: already resolved by the command line (else from argv)."""
    argv = list(sys.argv if argv is None else argv)
    running_app = QApplication.instance()
    app = running_app if isinstance(running_app, QApplication) else QApplication(argv)
    prepare_application(app)
    try:
        if config is None:
            config = build_config(argv[1:])
        else:
            use_saved_host(config, explicit=any(a.startswith("--ollama-host") for a in argv))
    except DesktopMemError as exc:
        print(f"desktop-mem: {exc}", file=sys.stderr)
        return exc.exit_code
    logs.configure(config.home)
    settings = app_settings(config.home)
    install_language(app, shown_language(str(settings.value("ui/language", SYSTEM))))
    theme.apply(str(settings.value("ui/theme", "system")))
    single = SingleInstance(instance_name(config))
    if single.already_running():
        return 0
    vault = vault or Vault()
    service = open_profile(config, vault)
    if service is None:
        return 3
    running = Application(app, service, settings, vault)
    running._show_new_code(service.keys.new_recovery_code_shown())
    single.listen(running.raise_window)
    try:
        return app.exec()
    finally:
        running.service.close()
