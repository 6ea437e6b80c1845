"""Every change a merge drops is kept and said: a deletion still wins over an edit made
elsewhere, but an edit the deleting computer had not seen (or messages written in a
conversation it deleted) is kept with its text until the user dismisses it or keeps it
as a new memory; dismissed, its text is gone from every page of the file."""

from __future__ import annotations

import pytest

from desktop_mem.core.memory.store import NewMemory
from desktop_mem.core.sync import capture, lost
from tests.fakes.keyrings import stored_key
from tests.sqlcipher_pages import decrypted_pages
from tests.sync.conftest import Computer, Computers


def _pair(computers: Computers, *texts: str) -> tuple[Computer, Computer]:
    laptop = computers.first("laptop")
    for text in texts:
        laptop.service.memories.add(NewMemory(text, kind="preference"))
    laptop.sync()
    desktop = computers.join("desktop", laptop.code)
    desktop.sync()
    laptop.sync()
    return laptop, desktop


def _id(c: Computer, text: str) -> int:
    return next(m.id for m in c.service.memories.list(limit=1000) if m.text == text)


def _lost(c: Computer) -> list[tuple[str, str, str]]:
    names = c.syncer.origin_names()
    return sorted((x.kind, names.get(x.device, "?"), x.text) for x in c.service.sync.lost())


def test_an_edit_made_here_to_a_memory_deleted_elsewhere_is_kept(computers: Computers) -> None:
    laptop, desktop = _pair(computers, "I drive a red Fiat", "I play the cello")
    # offline from each other: the laptop edits what the desktop deletes
    laptop.service.memories.edit(_id(laptop, "I drive a red Fiat"), text="I drive a blue Fiat")
    desktop.service.memories.delete([_id(desktop, "I drive a red Fiat")])
    desktop.sync()
    result = laptop.sync()
    # the deletion wins, as before, on both
    assert laptop.texts() == ["I play the cello"]
    assert result.applied.lost == [(lost.MEMORY_HERE, desktop.syncer.device)]
    assert result.to_dict()["lost"] == 1
    assert _lost(laptop) == [(lost.MEMORY_HERE, "desktop", "I drive a blue Fiat")]
    (item,) = laptop.service.sync.lost()
    assert item.memory_kind == "preference"
    # the desktop hears of the edit it won over: the other way round
    result = desktop.sync()
    assert desktop.texts() == ["I play the cello"]
    assert _lost(desktop) == [(lost.MEMORY_THERE, "laptop", "I drive a blue Fiat")]
    # said once: passes after it add nothing
    for c in (laptop, desktop, laptop):
        assert c.sync().applied.lost == []
    assert len(laptop.service.sync.lost()) == len(desktop.service.sync.lost()) == 1
    info = laptop.service.sync.info()
    assert info["lost"] == [{"kind": lost.MEMORY_HERE, "device": desktop.syncer.device,
                             "computer": "desktop", "count": 1}]  # fmt: skip


def test_a_deletion_made_after_seeing_the_edit_drops_nothing(computers: Computers) -> None:
    laptop, desktop = _pair(computers, "I drive a red Fiat")
    laptop.service.memories.edit(_id(laptop, "I drive a red Fiat"), text="I drive a blue Fiat")
    laptop.sync()
    desktop.sync()  # the desktop has the edit, and deletes it knowingly
    desktop.service.memories.delete([_id(desktop, "I drive a blue Fiat")])
    desktop.sync()
    laptop.sync()
    desktop.sync()
    assert laptop.texts() == desktop.texts() == []
    assert laptop.service.sync.lost() == [] and desktop.service.sync.lost() == []


def test_an_edit_made_elsewhere_to_a_memory_deleted_here_is_kept(computers: Computers) -> None:
    laptop, desktop = _pair(computers, "I work at a bakery")
    laptop.service.memories.delete([_id(laptop, "I work at a bakery")])
    desktop.service.memories.edit(_id(desktop, "I work at a bakery"), text="I work at a bookshop")
    desktop.sync()
    result = laptop.sync()  # its deletion goes out first, then the desktop's edit arrives
    assert laptop.texts() == []
    assert result.applied.overridden == 1
    assert result.applied.lost == [(lost.MEMORY_THERE, desktop.syncer.device)]
    assert _lost(laptop) == [(lost.MEMORY_THERE, "desktop", "I work at a bookshop")]
    desktop.sync()
    assert desktop.texts() == []
    assert _lost(desktop) == [(lost.MEMORY_HERE, "laptop", "I work at a bookshop")]


def test_a_deletion_from_an_older_version_is_not_reported(
    computers: Computers, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A deletion record without the stamp of what it deleted (written before deletions
    said so) cannot tell a seen edit from an unseen one: nothing is reported for it."""
    laptop, desktop = _pair(computers, "I drive a red Fiat")
    laptop.service.memories.edit(_id(laptop, "I drive a red Fiat"), text="I drive a blue Fiat")
    desktop.service.memories.delete([_id(desktop, "I drive a red Fiat")])
    with monkeypatch.context() as m:
        m.setattr(capture, "_deleted_what", lambda _prev: None)  # the older writer
        desktop.sync()
    assert laptop.sync().applied.lost == []
    assert laptop.texts() == [] and laptop.service.sync.lost() == []


def _conversation(c: Computer, said: list[tuple[str, str]]) -> int:
    store = c.profile.conversations
    conv = store.create("weekend plans")
    store.add_messages(conv.id, [(role, text, None) for role, text in said])
    return conv.id


def test_messages_written_in_a_conversation_deleted_elsewhere_are_kept(
    computers: Computers,
) -> None:
    laptop, desktop = _pair(computers)
    _conversation(laptop, [("user", "Shall we hike on Saturday?"), ("assistant", "Yes!")])
    laptop.sync()
    desktop.sync()
    cid = desktop.service.conversations.list()[0].id
    laptop.service.conversations.delete(laptop.service.conversations.list()[0].id)
    # the desktop, not knowing, goes on with the chat
    desktop.profile.conversations.add_messages(
        cid, [("user", "Pack the blue tent", None), ("assistant", "Noted: the blue tent.", None)]
    )
    laptop.sync()
    result = desktop.sync()  # its messages go out, then the deletion arrives
    assert desktop.service.conversations.list() == []
    assert sorted(result.applied.lost) == [(lost.MESSAGE_HERE, laptop.syncer.device)] * 2
    assert _lost(desktop) == [
        (lost.MESSAGE_HERE, "laptop", "Noted: the blue tent."),
        (lost.MESSAGE_HERE, "laptop", "Pack the blue tent"),
    ]  # not the messages the laptop had seen
    assert {x.role for x in desktop.service.sync.lost()} == {"user", "assistant"}
    laptop.sync()
    assert laptop.service.conversations.list() == []
    assert _lost(laptop) == [
        (lost.MESSAGE_THERE, "desktop", "Noted: the blue tent."),
        (lost.MESSAGE_THERE, "desktop", "Pack the blue tent"),
    ]


def test_kept_as_a_new_memory_or_dismissed_and_gone_from_every_page(
    computers: Computers,
) -> None:
    canary = "Quokkazanzibar lives under the Fiat"
    laptop, desktop = _pair(computers, "I drive a red Fiat", "I grow tomatoes")
    laptop.service.memories.edit(_id(laptop, "I drive a red Fiat"), text=canary)
    laptop.service.memories.edit(_id(laptop, "I grow tomatoes"), text="I grow cherry tomatoes")
    desktop.service.memories.delete(
        [_id(desktop, "I drive a red Fiat"), _id(desktop, "I grow tomatoes")]
    )
    desktop.sync()
    laptop.sync()
    items = {x.text: x.id for x in laptop.service.sync.lost()}
    assert set(items) == {canary, "I grow cherry tomatoes"}

    # kept: a new memory, which syncs like any other
    new_id = laptop.service.sync.keep_lost(items["I grow cherry tomatoes"])
    kept = laptop.service.memories.get(new_id)
    assert (kept.text, kept.kind) == ("I grow cherry tomatoes", "preference")
    laptop.sync()
    desktop.sync()
    assert "I grow cherry tomatoes" in desktop.texts()

    # dismissed: its text leaves every page of the file, the WAL too
    path = laptop.profile.db.path
    key = stored_key(computers.keyring, path)
    needle = b"Quokkazanzibar"
    assert any(needle in p for p in decrypted_pages(path, secret_hex=key))
    assert laptop.service.sync.dismiss_lost([items[canary]]) == 1
    assert laptop.service.sync.lost() == []
    assert not any(needle in p for p in decrypted_pages(path, secret_hex=key))


def test_forget_everything_purges_what_merges_dropped(computers: Computers) -> None:
    canary = "Quokkazanzibar hides the spare key"
    laptop, desktop = _pair(computers, "I keep a spare key")
    laptop.service.memories.edit(_id(laptop, "I keep a spare key"), text=canary)
    desktop.service.memories.delete([_id(desktop, "I keep a spare key")])
    desktop.sync()
    laptop.sync()
    assert [x.text for x in laptop.service.sync.lost()] == [canary]
    laptop.service.forget_everything()
    assert laptop.service.sync.lost() == []
    path = laptop.profile.db.path
    key = stored_key(computers.keyring, path)
    assert not any(b"Quokkazanzibar" in p for p in decrypted_pages(path, secret_hex=key))
