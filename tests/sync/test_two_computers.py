"""Two computers, one memory: what one is told, the other knows."""

from __future__ import annotations

from pathlib import Path

from desktop_mem.core.memory.store import NewMemory
from tests.sync.conftest import Computers


def test_a_memory_added_on_one_computer_reaches_the_other(computers: Computers) -> None:
    laptop = computers.first("laptop")
    laptop.service.memories.add(NewMemory("I live in Hangzhou", kind="fact"))
    laptop.sync()
    desktop = computers.join("desktop", laptop.code)
    desktop.sync()
    assert desktop.texts() == ["I live in Hangzhou"]
    desktop.service.memories.add(NewMemory("我喜欢喝绿茶", kind="preference"))
    desktop.sync()
    laptop.sync()
    assert laptop.texts() == sorted(["I live in Hangzhou", "我喜欢喝绿茶"])


def _chat(c, text: str) -> int:
    session = c.service.chat()
    result = session.send(text)
    result.learned(30)
    cid = session.conversation_id
    session.close()
    return cid


def test_a_conversation_and_what_was_learned_from_it_reach_the_other(computers: Computers) -> None:
    laptop = computers.first("laptop")
    desktop = computers.join("desktop", laptop.code)
    computers.fake.reply_json(
        {"memories": [{"text": "Lives in Hangzhou with a cat named Mochi", "kind": "fact",
                       "importance": 0.7}]}
    )  # fmt: skip
    _chat(laptop, "I live in Hangzhou with my cat Mochi.")
    laptop.sync()
    desktop.sync()
    convs = desktop.service.conversations.list()
    assert len(convs) == 1
    msgs = desktop.service.conversations.messages(convs[0].id)
    assert [m.role for m in msgs] == ["user", "assistant"]
    assert msgs[0].content == "I live in Hangzhou with my cat Mochi."
    assert desktop.texts() == laptop.texts() == ["Lives in Hangzhou with a cat named Mochi"]
    # where a memory came from is the message on this computer too
    m = desktop.service.memories.list(limit=10)[0]
    origin = desktop.service.memories.origin(m)
    assert origin is not None and origin[0] == convs[0].id


def test_a_delete_reaches_every_computer(computers: Computers) -> None:
    laptop = computers.first("laptop")
    laptop.service.memories.add(NewMemory("My PIN hint is the cat's birthday", kind="fact"))
    laptop.service.memories.add(NewMemory("I play the cello", kind="fact"))
    cid = _chat(laptop, "My neighbour Ana keeps bees.")
    laptop.sync()
    desktop = computers.join("desktop", laptop.code)
    desktop.sync()
    assert "I play the cello" in desktop.texts()
    gone = [m.id for m in desktop.service.memories.list(limit=100) if "PIN" in m.text]
    desktop.service.memories.delete(gone)
    desktop_cid = desktop.service.conversations.list()[0].id
    desktop.service.conversations.delete(desktop_cid)
    desktop.sync()
    laptop.sync()
    assert not any("PIN" in t for t in laptop.texts())
    assert "I play the cello" in laptop.texts()
    assert laptop.service.conversations.list() == []
    assert cid not in [c.id for c in laptop.service.conversations.list()]


def test_a_delete_wins_over_an_edit_made_at_the_same_time(computers: Computers) -> None:
    laptop = computers.first("laptop")
    laptop.service.memories.add(NewMemory("I drive a red Fiat", kind="fact"))
    laptop.sync()
    desktop = computers.join("desktop", laptop.code)
    desktop.sync()
    lid = laptop.service.memories.list(limit=1)[0].id
    did = desktop.service.memories.list(limit=1)[0].id
    laptop.service.memories.edit(lid, text="I drive a blue Fiat")
    desktop.service.memories.delete([did])
    laptop.sync()
    desktop.sync()
    laptop.sync()
    assert laptop.texts() == [] and desktop.texts() == []


def test_edits_made_on_both_keep_the_newest_and_every_version(computers: Computers) -> None:
    laptop = computers.first("laptop")
    laptop.service.memories.add(NewMemory("I work at a bakery", kind="fact"))
    laptop.sync()
    desktop = computers.join("desktop", laptop.code)
    desktop.sync()
    lid = laptop.service.memories.list(limit=1)[0].id
    did = desktop.service.memories.list(limit=1)[0].id
    laptop.service.memories.edit(lid, text="I work at a bakery in Leeds")
    desktop.service.memories.edit(did, text="I work at a bookshop")
    laptop.sync()
    desktop.sync()
    laptop.sync()
    assert laptop.texts() == desktop.texts()
    assert len(laptop.texts()) == 1
    texts = {v.text for v in laptop.service.memories.history(lid)}
    assert {"I work at a bakery", "I work at a bakery in Leeds", "I work at a bookshop"} <= texts
    texts = {v.text for v in desktop.service.memories.history(did)}
    assert {"I work at a bakery", "I work at a bakery in Leeds", "I work at a bookshop"} <= texts
    # the one that lost is findable: a conflict was recorded on at least one side
    assert laptop.syncer.conflicts() or desktop.syncer.conflicts()


def test_the_same_memory_added_on_both_is_kept_once(computers: Computers) -> None:
    laptop = computers.first("laptop")
    desktop = computers.join("desktop", laptop.code)
    laptop.service.memories.add(NewMemory("I am vegetarian", kind="fact"))
    desktop.service.memories.add(NewMemory("I am vegetarian", kind="fact"))
    laptop.sync()
    desktop.sync()
    laptop.sync()
    desktop.sync()
    assert laptop.texts() == ["I am vegetarian"] == desktop.texts()


def test_a_long_conversation_reads_in_the_same_order_on_the_other(computers: Computers) -> None:
    laptop = computers.first("laptop")
    store = laptop.profile.conversations
    conv = store.create("a long chat")
    said = [f"turn {n}: " + ("question" if n % 2 == 0 else "answer") for n in range(120)]
    store.add_messages(conv.id, [("user" if n % 2 == 0 else "assistant", t, None)
                                 for n, t in enumerate(said)])  # fmt: skip
    laptop.sync()
    desktop = computers.join("desktop", laptop.code)
    desktop.sync()
    cid = desktop.service.conversations.list()[0].id
    assert [m.content for m in desktop.service.conversations.messages(cid)] == said


def test_a_backup_restored_on_a_synced_computer_goes_on_as_a_new_computer(
    computers: Computers,
    tmp_path,
) -> None:
    """What the computer sent after the backup comes back to it from the folder; no
    file is written twice under one name; the other computer keeps everything."""
    from desktop_mem.core.db import backup

    laptop = computers.first("laptop")
    laptop.service.memories.add(NewMemory("before the backup"))
    laptop.sync()
    desktop = computers.join("desktop", laptop.code)
    desktop.sync()
    file = tmp_path / "laptop.dmbak"
    laptop.service.keys.backup(file)
    laptop.service.memories.add(NewMemory("after the backup"))
    laptop.sync()
    old_device = laptop.syncer.device
    laptop.close()
    computers.all.remove(laptop)
    report = backup.restore(
        file, home=laptop.home, code=laptop.code, vault=laptop.vault, replace=True
    )
    assert report.synced_through == str(computers.folder.resolve())
    again = computers.new("laptop")
    assert again.texts() == ["before the backup"]
    again.sync()
    assert again.syncer.device != old_device
    assert again.texts() == ["after the backup", "before the backup"]
    again.service.memories.add(NewMemory("after the restore"))
    again.sync()
    desktop.sync()
    assert desktop.texts() == ["after the backup", "after the restore", "before the backup"]


def test_what_arrives_is_indexed_by_meaning_with_this_computers_model(
    computers: Computers,
) -> None:
    laptop = computers.first("laptop")
    laptop.service.memories.add(NewMemory("I keep two hives of bees in the garden"))
    laptop.sync()
    desktop = computers.join("desktop", laptop.code)
    assert desktop.service.sync.now().applied.memories  # the window's and the CLI's pass
    assert desktop.texts() == ["I keep two hives of bees in the garden"]
    assert desktop.service.models.unindexed().total == 0
    vectors = desktop.profile.db.query("SELECT count(*) FROM memory_vectors")[0][0]
    assert vectors == 1


def test_what_arrived_while_the_server_failed_is_indexed_by_a_later_pass(
    computers: Computers,
) -> None:
    """A pass indexes what it brought, found by its ids; what an earlier pass brought
    and could not index (the model server failing) is indexed by the next pass that
    brings something, though that pass did not bring it."""
    laptop = computers.first("laptop")
    store = laptop.profile.conversations
    conv = store.create("bees")
    store.add_messages(conv.id, [("user", "how many hives should I keep", None),
                                 ("assistant", "two hives are a good start", None)])  # fmt: skip
    laptop.sync()
    desktop = computers.join("desktop", laptop.code)
    computers.fake.fail_next(500, times=1, paths=("/api/embed",))
    assert desktop.service.sync.now().applied.messages  # the messages, not their vectors
    assert desktop.service.models.unindexed().messages == 2
    laptop.service.memories.add(NewMemory("the bees swarmed in May"))
    laptop.sync()
    result = desktop.service.sync.now()
    assert result.applied.memories and not result.applied.messages
    assert desktop.service.models.unindexed().total == 0
    vectors = desktop.profile.db.query("SELECT count(*) FROM message_vectors")[0][0]
    assert vectors == 2


def test_a_clock_an_hour_ahead_neither_wins_nor_loses_by_it(
    computers: Computers,
    monkeypatch,
) -> None:
    """The desktop's clock is an hour ahead: its edit is dated later, but the laptop's
    edit made after seeing it is the newer one, and wins; then the reverse."""
    from datetime import UTC, datetime, timedelta

    from desktop_mem.core.memory import records, store

    laptop = computers.first("laptop")
    laptop.service.memories.add(NewMemory("My bike is red"))
    laptop.sync()
    desktop = computers.join("desktop", laptop.code)
    desktop.sync()
    ahead = (datetime.now(UTC) + timedelta(hours=1)).isoformat(timespec="seconds")
    with monkeypatch.context() as m:
        m.setattr(records, "now_iso", lambda: ahead)
        m.setattr(store, "now_iso", lambda: ahead)
        did = desktop.service.memories.list(limit=1)[0].id
        desktop.service.memories.edit(did, text="My bike is blue")
        desktop.sync()
    laptop.sync()
    assert laptop.texts() == ["My bike is blue"]
    lid = laptop.service.memories.list(limit=1)[0].id
    laptop.service.memories.edit(lid, text="My bike is green")  # later, by an earlier clock
    laptop.sync()
    desktop.sync()
    assert desktop.texts() == laptop.texts() == ["My bike is green"]
    assert not laptop.syncer.conflicts() and not desktop.syncer.conflicts()


def test_an_imported_conversation_keeps_where_it_came_from_on_the_other(
    computers: Computers,
) -> None:
    data = Path(__file__).resolve().parents[1] / "data" / "imports"
    laptop = computers.first("laptop")
    desktop = computers.join("desktop", laptop.code)
    done, _ = laptop.service.imports.run(data / "chatgpt_conversations.json", propose=False)
    assert done.conversations == 3
    laptop.sync()
    desktop.sync()

    def seen(c):
        return {(v.title, v.source, v.created_at) for v in c.service.conversations.list()}

    assert seen(desktop) == seen(laptop)
    assert "from ChatGPT, 2024-03-02" in {s for _t, s, _c in seen(desktop)}
    # the same export imported on the other computer adds nothing: it knows them
    again, _ = desktop.service.imports.run(data / "chatgpt_export.zip", propose=False)
    assert (again.conversations, again.already) == (0, 3)


def test_one_export_imported_on_both_computers_while_apart(computers: Computers) -> None:
    data = Path(__file__).resolve().parents[1] / "data" / "imports"
    laptop = computers.first("laptop")
    desktop = computers.join("desktop", laptop.code)
    laptop.service.imports.run(data / "chatgpt_conversations.json", propose=False)
    desktop.service.imports.run(data / "chatgpt_export.zip", propose=False)
    laptop.sync()
    desktop.sync()
    laptop.sync()
    # both copies stand on both (nothing refused); each labelled where it came from
    for c in (laptop, desktop):
        convs = c.service.conversations.list()
        assert len(convs) == 6
        assert all(v.source and v.source.startswith("from ChatGPT") for v in convs)


def test_a_memory_added_on_both_computers_stays_once_the_lower_uid_on_each(
    computers: Computers,
) -> None:
    """Row ids are given in arrival order, so they differ between computers: the one kept
    is the lower uid, the same everywhere (keeping the lower id would keep one here and
    the other there, and each computer's deletion would remove both)."""
    laptop = computers.first("laptop")
    laptop.sync()
    desktop = computers.join("desktop", laptop.code)
    desktop.sync()

    def uids(c) -> list[str]:
        return [r[0] for r in c.profile.db.query("SELECT uid FROM memories")]

    laptop.service.memories.add(NewMemory("I play the cello", kind="fact"))
    desktop.service.memories.add(NewMemory("I play the cello", kind="fact"))
    lower = min(uids(laptop) + uids(desktop))
    for c in (laptop, desktop, laptop, desktop):
        c.sync()
    assert uids(laptop) == uids(desktop) == [lower]
    assert laptop.texts() == desktop.texts() == ["I play the cello"]


def test_a_memory_of_no_importance_stays_so_on_the_other(computers: Computers) -> None:
    """Importance 0 is a value the user chose, not a missing one: it arrives as 0, in
    the memory and in its history (it once arrived as the default, 0.5)."""
    laptop = computers.first("laptop")
    mem = laptop.service.memories.add(NewMemory("I once owned a red bicycle", importance=0.0))
    laptop.service.memories.edit(mem.memory.id, text="I once owned a blue bicycle")
    laptop.sync()
    desktop = computers.join("desktop", laptop.code)
    desktop.sync()
    [there] = desktop.service.memories.list()
    assert there.importance == 0.0
    assert {v.importance for v in desktop.service.memories.history(there.id)} == {0.0}
