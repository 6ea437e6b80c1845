"""What the apps registry and the key announce (core/events.py): each change once it is
committed, so a listener that reads the profile then sees it."""

from __future__ import annotations

from desktop_mem.core.events import AppsChanged, Event, KeyChanged, SettingChanged
from desktop_mem.core.profile import Profile
from desktop_mem.core.service import Service


def test_every_change_to_the_apps_is_announced_once_it_is_committed(profile: Profile) -> None:
    registry = profile.clients
    heard: list[tuple[Event, list[str]]] = []
    # what a listener reads when it hears: the change is already there
    profile.events.subscribe(lambda e: heard.append((e, [a.level for a in registry.all()])))
    app, key = registry.add("Claude Desktop")
    assert heard[-1] == (AppsChanged("added", (app.id,)), ["read"])
    registry.set_level("Claude Desktop", "write")
    assert heard[-1] == (AppsChanged("changed", (app.id,)), ["write"])
    caller = registry.authenticate(key, "claude-ai")
    registry.seen(caller)
    registry.log(caller, "search_memories", [])
    registry.clear_log("Claude Desktop")
    registry.renew("Claude Desktop")
    assert [e for e, _ in heard[-4:]] == [AppsChanged("changed", (app.id,))] * 4
    registry.set_unregistered_level("off")  # a setting: announced as one, and to the apps
    assert [e for e, _ in heard[-2:]] == [
        SettingChanged("mcp_unregistered_level"),
        AppsChanged("changed"),
    ]
    registry.remove("Claude Desktop")
    assert heard[-1] == (AppsChanged("removed", (app.id,)), [])
    assert len(heard) == 9
    registry.authenticate(key)  # reading announces nothing
    registry.all()
    assert len(heard) == 9


def test_a_new_recovery_code_is_announced_as_a_change_of_the_key(profile: Profile) -> None:
    service = Service(profile)
    heard: list[Event] = []
    profile.events.subscribe(heard.append)
    assert service.keys.mode == "keyring"  # a passphrase profile has no code to renew
    service.keys.renew_recovery_code()
    assert heard == [KeyChanged()]
