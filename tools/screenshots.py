"""Render the main states of the window to PNG files, headless, from a seeded demo
profile, so anyone can look at the product without a model:

    python tools/screenshots.py [--out resources/screenshots]   (or: make screenshots)
    python tools/screenshots.py --matrix /tmp/matrix   (every page and Settings tab in
        English and Chinese, light and dark, at 1280x800 and 800x600: to look at them all)
    python tools/screenshots.py --matrix /tmp/matrix --screens spaces   (the matrix of
        the spaces' screens only: the chat in a space, the memories and documents by
        space, Settings > Spaces and Apps, the spaces' dialogs)

The demo talks to the scripted fake Ollama server of the test suite (tests/fakes), so
the chat, the memories it learns and the chips under the answers are produced by the
real code paths. Chinese text needs a CJK font (Debian: fonts-noto-cjk).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SIZE = (1360, 820)


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--out", default=str(ROOT / "resources" / "screenshots"))
    ap.add_argument("--matrix", help="also render every screen in both languages, both "
                    "themes and both sizes into this folder")  # fmt: skip
    ap.add_argument("--screens", choices=("all", "spaces"), default="all",
                    help="with --matrix: every screen, or the spaces' screens only")  # fmt: skip
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    from PySide6.QtGui import QFontDatabase
    from PySide6.QtWidgets import QApplication

    from desktop_mem.core.config import Config
    from desktop_mem.core.memory.store import NewMemory
    from desktop_mem.core.profile import Profile
    from desktop_mem.core.service import Service
    from desktop_mem.ui import tasks, theme
    from desktop_mem.ui.app import app_settings, install_language, prepare_application
    from desktop_mem.ui.main_window import MainWindow
    from desktop_mem.ui.settings_dialog import SettingsDialog
    from tests.fakes.ollama_server import FakeOllama

    app = QApplication.instance() or QApplication(sys.argv)
    prepare_application(app)  # as the app starts: its font families, then English
    install_language(app, "en")  # with its plural forms
    if not any("CJK" in f or "WenQuanYi" in f for f in QFontDatabase.families()):
        print(
            "warning: no CJK font; Chinese shows as boxes (apt-get install fonts-noto-cjk)",
            file=sys.stderr,
        )

    def pump(until: float = 0.3, cond: object = None) -> None:
        end = time.time() + 15
        start = time.time()
        while time.time() < end:
            app.processEvents()
            done = cond() if callable(cond) else time.time() - start >= until
            if done and tasks.busy() == 0:
                break
            time.sleep(0.01)
        for _ in range(20):
            app.processEvents()

    def shoot(widget: object, name: str) -> None:
        pump(0.2)
        widget.grab().save(str(out / f"{name}.png"))  # type: ignore[attr-defined]
        print(out / f"{name}.png")

    from PySide6.QtWidgets import QMessageBox

    # the download offer for a missing model would wait for a click: decline it
    QMessageBox.question = lambda *a, **k: QMessageBox.StandardButton.No  # type: ignore[method-assign]
    fake = FakeOllama(chat_models=["qwen2.5:7b", "llama3.2:3b"]).start()
    with tempfile.TemporaryDirectory(prefix="desktop-mem-demo-") as tmp:
        home = Path(tmp)
        os.environ["DESKTOP_MEM_PASSPHRASE"] = "demo passphrase"
        config = Config.resolve(home=home, ollama_host=fake.url, embed_model="fake-embed")
        profile = Profile.open(config)
        theme.apply("light")

        window = MainWindow(Service(profile), app_settings(home))
        window.resize(*SIZE)
        window.show()
        pump(cond=lambda: window.context.server.online)
        shoot(window, "01-first-run")

        # a chat that teaches a memory, then one that uses it
        profile.memories.add_many(
            [
                NewMemory("我女儿叫小雨，今年五岁", kind="person", pinned=True),
                NewMemory("Allergic to peanuts", kind="fact", importance=0.9),
                NewMemory("我喜欢跑步，每周跑三次", kind="preference"),
                NewMemory("Works as a nurse at a hospital in Hangzhou", kind="fact"),
                NewMemory(
                    "下周去东京出差 (business trip to Tokyo)",
                    kind="event",
                    valid_until="2026-12-08",
                ),
                NewMemory("Prefers green tea over coffee", kind="preference"),
            ],
            actor="user",
        )
        fake.reply_json(
            {
                "memories": [
                    {
                        "text": "Lives in Hangzhou with a cat named Mochi",
                        "kind": "fact",
                        "importance": 0.7,
                    }
                ]
            }
        )
        fake.reply(
            "Mochi is a lovely name! Hangzhou is a great city for a cat: plenty of quiet lanes."
        )
        window.turns.send("I live in Hangzhou with my cat Mochi.")
        pump(cond=lambda: not window.context.chat.busy)
        pump(1.0)
        window.conversations.new_conversation()
        # what the model knows about you, written as the idle pass writes it (the fake
        # answers in the format the prompt asks for)
        window.context.app.about.rewrite()
        fake.reply(
            "Here is a peanut-free dinner for you and 小雨:\n\n"
            "1. **Steamed fish** with ginger\n2. Stir-fried greens\n3. Rice\n\n"
            "```python\nshopping = ['fish', 'ginger', 'bok choy', 'rice']\nprint(len(shopping))\n```",
            chunk_delay=0.0,
        )
        window.turns.send("Plan a dinner for my daughter and me tonight")
        pump(cond=lambda: not window.context.chat.busy)
        window.conversations.refresh()
        shoot(window, "02-chat-with-memory-chips")
        dinner = window.context.chat.session.conversation_id

        # the memory browser, a memory selected with its history and impact
        mem = next(m for m in profile.memories.list() if m.text.startswith("Works as a nurse"))
        profile.memories.edit(
            mem.id, text="Works as a nurse at the children's hospital in Hangzhou"
        )
        window.memories.refresh_memories()
        window.memories.show_memory(mem.id)
        window.show_page("memories")
        shoot(window, "03-memory-browser")
        new = window.browser.new_memory()  # "New memory" is a dialog of its own
        new.edit.setPlainText("我对花生过敏 (allergic to peanuts)")
        shoot(new, "13-new-memory")
        new.reject()
        window.show_page("chat")

        dialog = SettingsDialog(
            {
                **window.context.app.settings.all(),
                "ollama_host": config.ollama_host,
                "chat_model": "qwen2.5:7b",
                "embed_model": "bge-m3",
                "language": "en",
                "theme": "system",
                "data_folder": str(profile.db.path.parent),
            },
            window.context.server.models,
            window,
        )
        dialog.show()
        shoot(dialog, "04-settings")
        dialog.close()

        theme.apply("dark")
        install_language(app, "zh_CN")
        dark = MainWindow(Service(profile), app_settings(home))
        dark.resize(*SIZE)
        dark.show()
        pump(cond=lambda: dark.context.server.online)
        dark.conversations.open_conversation(window.context.chat.session.conversation_id)
        shoot(dark, "05-dark-chinese")
        dark.show_page("memories")
        shoot(dark, "07-memories-dark-chinese")
        dark.resize(1280, 800)
        shoot(dark, "09-memories-1280x800-chinese")
        dark.resize(800, 600)
        shoot(dark, "08-memories-800x600-chinese")
        dark.close()
        install_language(app, "en")
        theme.apply("light")

        # Regenerate keeps the earlier answer: "‹ 2/2 ›" on the new one
        fake.reply("A second idea, also peanut-free:\n\n1. **Tomato and egg** stir-fry\n2. Rice")
        window.turns.regenerate()
        pump(cond=lambda: not window.context.chat.busy)
        shoot(window, "14-answer-versions")

        # the chat's "forget …": each candidate with its own box, pinned ones unticked
        from desktop_mem.ui.forget_dialog import ForgetDialog

        pinned = [m for m in profile.memories.list() if m.pinned][:1]
        others = [m for m in profile.memories.list() if not m.pinned][:2]
        said = window.context.app.conversations.messages(
            window.context.chat.session.conversation_id
        )[:1]
        forget = ForgetDialog(others + pinned, said, window)
        forget.resize(640, 420)
        forget.show()
        shoot(forget, "10-forget-dialog")
        forget.close()

        # incognito: marked as a whole, nothing stored
        window.conversations.new_conversation(incognito=True)
        fake.reply("Nothing from this conversation is kept.")
        window.turns.send("Just between us: ideas for a surprise party")
        pump(cond=lambda: not window.context.chat.busy)
        shoot(window, "11-incognito")
        window.conversations.new_conversation()

        # the embedding model missing: said in the status bar, with a download link
        dim = fake.embed_models.pop("fake-embed")
        window.connection.check()
        pump(cond=lambda: window.context.server.embed_missing)
        shoot(window, "12-embedding-model-missing")
        fake.embed_models["fake-embed"] = dim

        if args.matrix:
            notes = home / "notes"
            notes.mkdir()
            (notes / "handbook.md").write_text(
                "# Staff handbook\n\n## Leave\n\nAnnual leave is twenty-five days a year.\n\n"
                "## 请假\n\n每年有二十五天年假。\n",
                "utf-8",
            )
            profile.documents.add(notes)
            window.close()
            if args.screens == "spaces":
                _spaces_matrix(Path(args.matrix), profile, home, pump)
                profile.close()
                fake.stop()
                return 0
            _matrix(Path(args.matrix), profile, home, pump, dinner)
            _spaces_matrix(Path(args.matrix), profile, home, pump)
            window = MainWindow(Service(profile), app_settings(home))
            window.resize(*SIZE)
            window.show()
            pump(cond=lambda: window.context.server.online)

        profile.set_ollama_host("http://127.0.0.1:9")
        window.connection.use_model(None)
        window.connection.check()
        pump(cond=lambda: window.centre.currentWidget() is window.offline)
        shoot(window, "06-ollama-missing")
        window.close()
        pump(0.5)
        profile.close()
    fake.stop()
    return 0


def _windows(
    app: Any, home: Path, service: Any, pump: Any, suffix: list[str]
) -> Iterator[tuple[str, tuple[int, int], Any]]:
    """A window on `service` in every look the matrix shoots, shown and connected:
    (language, size, the window), closed once the caller is done with it. The app's
    settings are saved with that language and theme, as Settings then shows them, and
    `suffix[0]` names the look in the pictures' file names."""
    from desktop_mem.ui import theme
    from desktop_mem.ui.app import app_settings, install_language
    from desktop_mem.ui.main_window import MainWindow

    for language in ("en", "zh_CN"):
        install_language(app, language)
        for look in ("light", "dark"):
            theme.apply(look)
            for w, h in ((1280, 800), (800, 600)):
                suffix[0] = f"-{language}-{look}-{w}x{h}"
                prefs = app_settings(home)
                prefs.setValue("ui/language", language)
                prefs.setValue("ui/theme", look)
                window = MainWindow(service(), prefs)
                window.resize(w, h)
                window.show()
                pump(cond=lambda window=window: window.context.server.online)
                yield language, (w, h), window
                window.close()


def _matrix(out: Path, profile: Any, home: Path, pump: Any, conversation: int) -> None:
    """Every page, and each tab of Settings, in both languages, themes and sizes."""
    from PySide6.QtWidgets import QApplication

    from desktop_mem.core.service import Service
    from desktop_mem.ui import settings_dialog, theme
    from desktop_mem.ui.app import install_language
    from desktop_mem.ui.pairing_dialog import PairingCodeDialog

    out.mkdir(parents=True, exist_ok=True)
    app = QApplication.instance()

    only: list[str] = []  # a tab's name: only that one (Sync, once it is on)
    tag = ["-on"]  # what the Sync tab's shot is of: on, or a failed pass
    suffix = [""]
    settings_dialog.SettingsDialog.exec = _settings_exec(  # type: ignore[method-assign]
        out, pump, only, tag, suffix
    )
    memory = next(m for m in profile.memories.list() if m.text.startswith("Works as a nurse"))
    for language, (w, h), window in _windows(app, home, lambda: Service(profile), pump, suffix):
        window.conversations.open_conversation(conversation)
        _save(out, "chat" + suffix[0], window, pump)
        _focused(out, "chat-focus-chip" + suffix[0], window, pump,
                 window.chat.messages[-1].parts()[5])  # fmt: skip
        _focused(out, "chat-focus-rail" + suffix[0], window, pump,
                 window.rail_buttons["memories"])  # fmt: skip
        window.chat.edit_last_message()  # the editing state
        _save(out, "chat-editing" + suffix[0], window, pump)
        window.chat.cancel_edit()
        window.show_page("memories")
        window.memories.show_memory(memory.id)
        _save(out, "memories" + suffix[0], window, pump)
        _focused(out, "memories-focus-list" + suffix[0], window, pump, window.browser.list)
        _focused(out, "memories-focus-rail" + suffix[0], window, pump,
                 window.rail_buttons["memories"])  # fmt: skip
        _focused(out, "memories-focus-filter" + suffix[0], window, pump,
                 window.browser.pinned_only)  # fmt: skip
        about = window.show_about_you()  # Memories › About you, at the window's size
        about.resize(min(680, w - 40), min(540, h - 60))
        _save(out, "about-you" + suffix[0], about, pump)
        about.close()
        window.browser.all_matches.setChecked(True)
        window.browser.search.setText("zqxv wkrp")  # weak matches, with their scores
        pump(cond=lambda window=window: window.browser.sort.findData("best") >= 0)
        _save(out, "memories-weak" + suffix[0], window, pump)
        # a search: its matches and weak ones by the relevance shown, the words
        # matched marked, and the details of a memory it left out cleared
        query = "nurse in Hangzhou" if language == "en" else "女儿几岁"
        window.browser.search.setText(query)
        pump(cond=lambda window=window, q=query: window.browser.model.query == q)
        _save(out, "memories-search" + suffix[0], window, pump)
        window.browser.search.clear()
        window.browser.all_matches.setChecked(False)
        window.show_page("chat")  # the conversations found, the words marked
        window.conversation_panel.search.setText("Hangzhou" if language == "en" else "小雨")
        pump(cond=lambda window=window: bool(window.conversation_panel.model.query))
        _save(out, "chat-search" + suffix[0], window, pump)
        window.conversation_panel.search.clear()
        window.show_page("documents")
        _save(out, "documents" + suffix[0], window, pump)
        docs = window.documents_page  # a search: the passages found, words marked
        docs.search.setText("annual leave" if language == "en" else "年假")
        docs.search.returnPressed.emit()
        pump(cond=lambda docs=docs: docs.results.count() > 0)
        _save(out, "documents-search" + suffix[0], window, pump)
        docs.search.clear()
        window.show_page("chat")
        window.settings.open_settings()
        if (w, h) == (1280, 800):  # dialogs: their own size, once per look
            _dialogs(out, suffix[0], window, profile, conversation, pump)

    # Sync on: two computers through one folder, a memory made on the other one, and one
    # edited on both at once
    desktop = _synced(profile, home, pump)
    only.append("sync")
    for _language, (w, h), window in _windows(app, home, lambda: Service(profile), pump, suffix):
        pump(cond=lambda window=window: "desktop" in window.status_bar.sync_status.text())
        window.show_page("memories")
        tea = next(m for m in profile.memories.list() if m.origin_device)
        window.memories.show_memory(tea.id)
        _save(out, "memories-synced" + suffix[0], window, pump)
        # what a merge dropped, said once in the status bar after the pass
        window.show_page("chat")
        window.context.hub.status.emit(
            window.syncing.words.lost_after_pass([("memory_here", "desktop", 2)]), 30000
        )
        _save(out, "chat-sync-lost" + suffix[0], window, pump)
        # what a removed computer wrote after its removal, undone once the removal came
        window.context.hub.status.emit(
            window.syncing.words.lost_after_pass([("memory_removed", "old laptop", 3)]), 30000
        )
        _save(out, "chat-sync-undone" + suffix[0], window, pump)
        window.statusBar().clearMessage()
        # the memory edited on both computers at once: its card was marked until now
        both = window.context.app.sync.conflicts()[0][0]
        window.memories.show_memory(both)
        pump(cond=lambda window=window: window.browser.drawer.edited_on_both.isVisible())
        _save(out, "memories-edited-on-both" + suffix[0], window, pump)
        sync = window.context.app.sync
        pump(cond=lambda sync=sync: not sync.conflicts(unseen_only=True))  # looked at
        with profile.db.transaction() as conn:  # not looked at, for the next look's card
            conn.execute("UPDATE sync_conflicts SET seen = 0")
        window.show_page("chat")
        window.settings.open_settings()
        tag[0] = "-joined"  # the line after joining, with which recovery code opens it
        window.settings.open_settings()
        tag[0] = "-on"
        if (w, h) == (1280, 800):
            dialog = PairingCodeDialog("KKK1-XTJD-SEA3", window)
            dialog.show()
            _save(out, "dialog-pairing-code" + suffix[0], dialog, pump)
            dialog.close()
        else:  # what the status bar says when the folder is gone (a drive out)
            folder = home / "Sync"
            folder.rename(home / "Sync-away")
            window.syncing.run_pass()
            pump(cond=lambda window=window: bool(window.syncing.error))
            _save(out, "chat-sync-error" + suffix[0], window, pump)
            tag[0] = "-error"  # and Settings > Sync saying what happened
            window.settings.open_settings()
            tag[0] = "-on"
            (home / "Sync-away").rename(folder)
        # a file of desktop's damaged on the way: whose it is, and what happens next
        _damage_newest(home / "Sync", desktop, f"Sings in a choir ({w}x{h})")
        window.syncing.run_pass()
        pump(cond=lambda window=window: bool(window.syncing.error))
        _save(out, "chat-sync-damaged" + suffix[0], window, pump)
        tag[0] = "-damaged"  # and Settings > Sync
        window.settings.open_settings()
        tag[0] = "-on"
        desktop.sync.now()  # desktop mends its file
        window.syncing.run_pass()
        pump(cond=lambda window=window: not window.syncing.running)
    # the desktop taken out by the laptop: its Settings > Sync offers joining again
    Service(profile).sync.remove("desktop")
    with contextlib.suppress(Exception):  # it learns so at its next pass
        desktop.sync.now()
    tag[0] = "-removed"
    for _language, _size, window in _windows(app, home, lambda: desktop, pump, suffix):
        window.syncing.run_pass()
        pump(cond=lambda window=window: bool(window.syncing.error))
        window.settings.open_settings()
    tag[0] = "-on"
    only.clear()
    desktop.close()
    install_language(app, "en")
    theme.apply("light")


def _settings_exec(out: Path, pump: Any, only: list[str], tag: list[str], suffix: list[str]) -> Any:
    """SettingsDialog.exec that shoots each tab (of `only`'s names, when it names some)
    instead of waiting for a click: "settings-<n>", or "-sync", "-spaces", "-apps"."""
    from desktop_mem.ui.apps_ui import AppsPage
    from desktop_mem.ui.spaces_ui import SpacesPage
    from desktop_mem.ui.sync_ui import SyncPage

    def settings_exec(dialog: Any) -> int:
        dialog.show()
        for n in range(dialog.tabs.count()):
            page = dialog.tabs.widget(n)
            name = (
                "sync" if isinstance(page, SyncPage)
                else "spaces" if isinstance(page, SpacesPage)
                else "apps" if isinstance(page, AppsPage)
                else str(n)
            )  # fmt: skip
            if only and name not in only:
                continue
            dialog.tabs.setCurrentIndex(n)
            if tag[0] == "-joined" and isinstance(page, SyncPage):  # the line after joining
                page._joining = True
                page._done({"counts": {"memories": 12, "conversations": 3}, "recovery": "synced"})
                pump(cond=lambda page=page: page.status.text().count(" ") > 8)
            if isinstance(page, AppsPage | SpacesPage) and page.table.rowCount() > 1:
                page.table.selectRow(1)  # an app, a space: with what it may use, or is
            elif isinstance(page, AppsPage) and page.table.rowCount():
                page.table.selectRow(0)
            _save(out, f"settings-{name}" + (tag[0] if only else "") + suffix[0], dialog, pump)
        dialog.close()
        return 0

    return settings_exec


def _spaces_seed(profile: Any) -> None:
    """Spaces in the demo profile: Work (with an instruction), a thesis kept apart and a
    client's project with a long Chinese name; memories, a conversation, the watched
    folder and an app in them, and a memory moved there and back (its history)."""
    from desktop_mem.core.memory.store import NewMemory
    from desktop_mem.core.service import Service

    service = Service(profile)
    if service.spaces.list():
        return
    work = service.spaces.create("Work", "Answer briefly, as a colleague on the ward would.").id
    thesis = service.spaces.create("Thesis", "Cite your sources.", apart=True).id
    service.spaces.create("客户 A 的数据迁移项目（第二期，含历史数据清洗）")
    nurse = next(m for m in service.memories.list() if m.text.startswith("Works as a nurse"))
    service.memories.move(nurse.id, work)
    service.memories.move(nurse.id, None)
    service.memories.move(nurse.id, work)
    service.memories.add(NewMemory("Shift planning meeting every Monday at 8", space=work), "user")
    service.memories.add(NewMemory("病房下个月换新的排班系统", kind="event", space=work), "user")
    service.memories.add(
        NewMemory("Thesis: sleep quality of nurses on rotating shifts", space=thesis), "user"
    )
    store = profile.conversations
    rota = store.create("Rota for December", space=work)
    store.add_message(rota.id, "user", "Who covers the night shift on the 24th?")
    store.add_message(rota.id, "assistant", "Li Wei swapped with you: you are on days.")
    outline = store.create("Chapter 2 outline", space=thesis)
    store.add_message(outline.id, "user", "Outline chapter 2 of my thesis")
    for folder in service.documents.folders():
        service.documents.move_folder(folder.path, work)
    service.apps.add("Cursor")
    service.apps.set_spaces("Cursor", {None, work})


def _spaces_matrix(out: Path, profile: Any, home: Path, pump: Any) -> None:
    """The spaces' screens in both languages, themes and sizes: the chat in a space
    (the list of every space's conversations, each named, the header and the status
    line), the list of one space, the memories of every space and of one, the Move to
    space menu, the documents with their spaces, Settings > Spaces and Apps, and the
    dialogs that make and delete a space."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from desktop_mem.core.service import Service
    from desktop_mem.ui import settings_dialog, theme
    from desktop_mem.ui.app import install_language
    from desktop_mem.ui.spaces import ALL
    from desktop_mem.ui.spaces_ui import SpaceDialog, SpacesPage

    out.mkdir(parents=True, exist_ok=True)
    app = QApplication.instance()
    _spaces_seed(profile)
    only = ["spaces", "apps"]
    suffix = [""]
    settings_dialog.SettingsDialog.exec = _settings_exec(  # type: ignore[method-assign]
        out, pump, only, [""], suffix
    )
    service = Service(profile)
    work = service.spaces.find("Work")
    rota = next(c for c in service.conversations.list() if c.title == "Rota for December")
    nurse = next(m for m in service.memories.list(scope=service.spaces.every())
                 if m.text.startswith("Works as a nurse"))  # fmt: skip
    for _language, (w, h), window in _windows(app, home, lambda: Service(profile), pump, suffix):
        window.context.space.choose(ALL)
        window.conversations.open_conversation(rota.id)
        _save(out, "spaces-chat" + suffix[0], window, pump)
        window.context.space.choose(work.id)
        window.conversations.new_conversation()
        _save(out, "spaces-chat-work" + suffix[0], window, pump)
        window.context.space.choose(ALL)
        window.show_page("memories")
        window.memories.show_memory(nurse.id)
        pump(cond=lambda window=window: window.browser.current is not None)
        _save(out, "spaces-memories" + suffix[0], window, pump)
        browser = window.browser
        menu = browser.move_menu  # the drawer's Move to space, open
        button = browser.drawer.move_button
        menu.popup(button.mapToGlobal(button.rect().bottomLeft()))
        pump(cond=menu.isVisible)
        _save(out, "spaces-move-menu" + suffix[0], menu, pump)
        menu.close()
        box = browser.space_filter
        box.setCurrentIndex(box.findData(str(work.id)))
        pump(cond=lambda window=window: window.browser.count.text() != "")
        _save(out, "spaces-memories-work" + suffix[0], window, pump)
        box.setCurrentIndex(0)
        window.show_page("documents")
        _save(out, "spaces-documents" + suffix[0], window, pump)
        _added_again(out, suffix[0], window, pump)
        window.show_page("chat")
        window.settings.open_settings()
        if (w, h) == (1280, 800):  # the dialogs: their own size, once per look
            page = SpacesPage(window.context, window)
            dialog = SpaceDialog(page.tr("New space"), window)
            dialog.name.setText("work")
            dialog.save = lambda name, _i, _a, page=page: _refused(page, name)
            dialog.show()
            dialog._save()
            _save(out, "dialog-space-new" + suffix[0], dialog, pump)
            dialog.close()
            page.refresh()
            page.select(work.id)
            seen: list[Any] = []

            def grab(seen: list[Any] = seen) -> None:
                box = QApplication.activeModalWidget()
                if box is None:
                    QTimer.singleShot(20, grab)
                    return
                _save(out, "dialog-space-delete" + suffix[0], box, pump)
                seen.append(box)
                box.reject()

            QTimer.singleShot(20, grab)
            page._ask_contents(work)
            page.stop()
            page.deleteLater()
            _import_in_space(out, suffix[0], window, work.id, pump)
    install_language(app, "en")
    theme.apply("light")


def _added_again(out: Path, suffix: str, window: Any, pump: Any) -> None:
    """A file of Work's watched folder added again in the shared space: it stays in
    Work, and the status line says so and how to move it."""
    page = window.documents_page
    folder = Path(window.context.app.documents.folders()[0].path)
    window.context.space.choose(None)
    said: list[str] = []
    page.status.connect(said.append)
    page.add([next(p for p in sorted(folder.iterdir()) if p.is_file())])
    pump(cond=lambda: bool(said) and not page.running)
    _save(out, "spaces-documents-stays" + suffix, window, pump)
    page.status.disconnect(said.append)
    from desktop_mem.ui.spaces import ALL

    window.context.space.choose(ALL)


def _import_in_space(out: Path, suffix: str, window: Any, space: int, pump: Any) -> None:
    """The import's question in a space: where the conversations and a project go."""
    import json
    import tempfile

    convs = json.loads((ROOT / "tests" / "data" / "imports" / "chatgpt_conversations.json")
                       .read_text("utf-8"))  # fmt: skip
    convs[2]["conversation_template_id"] = "g-p-67a1b2c3d4e5f60718293a4b5c6d7e8f"
    window.context.space.choose(space)
    with tempfile.TemporaryDirectory() as tmp:
        export = Path(tmp) / "conversations.json"
        export.write_text(json.dumps(convs), "utf-8")
        window.imports.confirm(export, window.context.app.imports.survey(export))
        _save(out, "dialog-import-space" + suffix, window.imports.box, pump)
        window.imports.box.close()


def _refused(page: Any, name: str) -> str:
    """What the page says when a space's name is refused (here: taken)."""
    from desktop_mem.core.errors import DesktopMemError

    try:
        page.spaces.create(name)
    except DesktopMemError as exc:
        from desktop_mem.ui import tasks

        return tasks.describe_exception(exc, str(exc))
    return ""


def _focused(out: Path, name: str, window: Any, pump: Any, widget: Any) -> None:
    """The window with the keyboard on `widget`: its focus ring."""
    window.activateWindow()
    widget.setFocus()
    pump(cond=widget.hasFocus)
    _save(out, name, window, pump)


def _damage_newest(folder: Path, desktop: Any, text: str) -> None:
    """Desktop writes a change file, which the engine then spoils (one byte, same size)."""
    from desktop_mem.core.memory.store import NewMemory

    desktop.memories.add(NewMemory(text, kind="preference"))
    desktop.sync.now()
    own = next(folder.glob("desktop-mem-*")) / desktop.sync.info()["device"]
    newest = sorted(own.glob("c-*.dmc"))[-1]
    data = bytearray(newest.read_bytes())
    data[len(data) // 2] ^= 0xFF
    newest.write_bytes(bytes(data))


def _synced(profile: Any, home: Path, pump: Any) -> Any:
    """Sync the demo profile through a folder with a second computer ("desktop"), which
    adds a memory; both edit another at once. Returns the second computer's service."""
    from desktop_mem.core.config import Config
    from desktop_mem.core.memory.store import NewMemory
    from desktop_mem.core.service import Service

    service = Service(profile)
    folder = home / "Sync"
    folder.mkdir()
    service.sync.set_up(folder, "laptop")
    code = service.sync.offer_pairing()  # the demo profile has a passphrase, no code
    config = Config.resolve(home=home / "desktop", ollama_host=profile.config.ollama_host,
                            embed_model="fake-embed")  # fmt: skip
    desktop = Service.open(config)
    desktop.sync.join(folder, code, "desktop")
    desktop.memories.add(NewMemory("Plays the guqin on Sundays", kind="preference"))
    nurse = next(m for m in service.memories.list() if m.text.startswith("Works as a nurse"))
    there = next(m for m in desktop.memories.list() if m.text == nurse.text)
    service.memories.edit(nurse.id, text="Works as a nurse at a hospital in Hangzhou, nights")
    desktop.memories.edit(there.id, text="Works as a head nurse at a hospital in Hangzhou")
    desktop.sync.now()
    service.sync.now()
    desktop.sync.now()
    service.sync.now()
    # two edits made on the laptop to memories the desktop deleted meanwhile: kept for the
    # user (Settings > Sync lists them)
    others = [
        m
        for m in service.memories.list()
        if m.id != nurse.id and not m.pinned and not m.origin_device
    ][:2]
    for m in others:
        service.memories.edit(m.id, text=m.text.rstrip(".") + ", as of this spring")
        desktop.memories.delete([next(x.id for x in desktop.memories.list() if x.text == m.text)])
    desktop.sync.now()
    service.sync.now()
    desktop.sync.now()
    # then the desktop's engine pauses: what the laptop writes next does not reach it
    service.memories.add(NewMemory("Takes the 7:40 train on weekdays", kind="fact"))
    service.memories.add(NewMemory("我在学做红烧肉", kind="note"))
    service.sync.now()
    return desktop


def _dialogs(out: Path, suffix: str, window: Any, profile: Any, conversation: int,
             pump: Any) -> None:  # fmt: skip
    from desktop_mem.ui.backup_ui import RecoveryCodeDialog
    from desktop_mem.ui.forget_dialog import ForgetDialog, ForgetEverythingDialog
    from desktop_mem.ui.passphrase_dialog import PassphraseDialog

    new = window.browser.new_memory()
    new.edit.setPlainText("我对花生过敏 (allergic to peanuts)")
    _save(out, "dialog-new-memory" + suffix, new, pump)
    new.reject()
    memories = profile.memories.list()
    said = window.context.app.conversations.messages(conversation)[:1]
    pinned = [m for m in memories if m.pinned][:1]
    forget = ForgetDialog([m for m in memories if not m.pinned][:2] + pinned, said, window)
    forget.resize(640, 420)
    forget.show()
    _save(out, "dialog-forget" + suffix, forget, pump)
    forget.close()
    for name, dialog in (
        ("dialog-passphrase", PassphraseDialog("default", create=True, parent=window)),
        ("dialog-recovery-code",
         RecoveryCodeDialog("ABCD-EFGH-JKLM-NPQR-STUV-WXYZ-2345-6789", "default", window)),
        ("dialog-forget-everything",  # the window's own, with the demo profile's counts
         ForgetEverythingDialog(len(memories), len(said), len(profile.conversations.list()),
                                window)),
    ):  # fmt: skip
        dialog.show()
        _save(out, name + suffix, dialog, pump)
        dialog.close()
    _import_dialogs(out, suffix, window, pump)


def _import_dialogs(out: Path, suffix: str, window: Any, pump: Any) -> None:
    """The import: what a ChatGPT export holds, then the review of the facts proposed (a
    pasted list's and mem0's, so the demo's conversations stay as they are) while the
    chat model reads and once it is done, with the Reject all question, the undo line
    and the editor of Edit and accept; a file of the wrong kind; the status bar's line."""
    import tempfile

    from tests import exports

    samples = ROOT / "tests" / "data" / "imports"
    app = window.context.app
    imports = window.imports
    with tempfile.TemporaryDirectory() as tmp:
        export = exports.chatgpt_split_zip(Path(tmp) / "chatgpt-export.zip", count=5)
        imports.confirm(export, app.imports.survey(export))
        _save(out, "dialog-import" + suffix, imports.box, pump)
        imports.box.close()
        wrong = Path(tmp) / "holiday photos.pdf"
        wrong.write_bytes(b"%PDF-1.7\n")
        imports.import_history(str(wrong))
        pump(cond=lambda: imports.box is not None and imports.box.isVisible())
        _save(out, "dialog-import-wrong-kind" + suffix, imports.box, pump)
        imports.box.close()
    app.imports.run(samples / "pasted_memories.txt")  # proposals only: imported once
    app.imports.run(samples / "mem0_export.json")
    imports.show_review()
    review = imports.review
    review._reading_changed(True)  # as while the chat model reads: the review's own slots
    review._read_progress(37, 120)
    imports.reading = True
    review.refresh()
    _save(out, "dialog-import-review-reading" + suffix, review, pump)
    imports.reading = False
    review._reading_changed(False)
    review.refresh()
    _save(out, "dialog-import-review" + suffix, review, pump)
    review.items.setCurrentRow(1)
    review.edit()
    _save(out, "dialog-import-edit" + suffix, review.editor, pump)
    review.editor.reject()
    review.ask_reject_all()
    _save(out, "dialog-import-reject-all" + suffix, review.confirm, pump)
    review.confirm.close()
    waiting = list(review.proposals)
    review.decide(False, [waiting[0].id])
    _save(out, "dialog-import-review-undo" + suffix, review, pump)
    review.undo()
    review.close()
    pump(cond=imports.found.isVisible)
    _save(out, "import-status-line" + suffix, window, pump)


def _save(out: Path, name: str, widget: Any, pump: Any) -> None:
    pump(0.2)
    widget.grab().save(str(out / f"{name}.png"))


if __name__ == "__main__":
    raise SystemExit(main())
