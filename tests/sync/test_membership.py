"""The membership rules on their own (core/sync/membership.py): signed records in, who is
in the sync out, the same in any order. Every record here is really signed (Ed25519);
the attacks are those found against the sync of 0.4, where holding a key was enough."""

from __future__ import annotations

import hashlib
import itertools
import json
import random
from dataclasses import dataclass, field

from desktop_mem.core.sync import crypto
from desktop_mem.core.sync.membership import (
    RECOVERY,
    Anchor,
    Generation,
    Join,
    Member,
    carrier,
    evaluate,
)


@dataclass
class World:
    """Computers with real keys, and the records they sign."""

    keys: dict[str, crypto.DeviceKeys] = field(default_factory=dict)
    generations: list[Generation] = field(default_factory=list)
    joins: list[Join] = field(default_factory=list)
    authority: crypto.DeviceKeys = field(default_factory=crypto.DeviceKeys.generate)

    def computer(self, name: str) -> str:
        self.keys[name] = crypto.DeviceKeys.generate()
        return name

    def member(self, name: str) -> Member:
        pub = self.keys[name].public
        return Member(pub["agreement"], pub["signing"])

    def generation(
        self,
        writer: str,
        number: int,
        parents: list[Generation] | None,
        members: list[str],
        removed: set[str] = frozenset(),  # type: ignore[assignment]
        signer: str | None = None,
        posing: dict[str, str] | None = None,
    ) -> Generation:
        """`posing`: members named with another computer's keys (name: whose)."""
        body = {
            "writer": writer, "number": number, "members": sorted(members),
            "removed": sorted(removed), "parents": [p.digest for p in parents or []],
            "nonce": random.random(),
        }  # fmt: skip
        signed = json.dumps(body, sort_keys=True).encode()
        signature = self.keys[signer or writer].sign(signed)
        g = Generation(
            name=f"{number:06d}-{writer}.dmk",
            digest=hashlib.sha256(signed + signature).hexdigest(),
            number=number,
            writer=writer,
            key_id=hashlib.sha256(signed).hexdigest()[:16],
            parents=None if parents is None else tuple(p.digest for p in parents),
            members={m: self.member((posing or {}).get(m, m)) for m in members},
            removed=frozenset(removed),
            authority=self.authority.public["signing"],
            signed=signed,
            signature=signature,
        )
        self.generations.append(g)
        return g

    def join(self, device: str, voucher: str, parent: Generation) -> Join:
        body = {"device": device, "voucher": voucher, "parent": parent.digest}
        signed = json.dumps(body, sort_keys=True).encode()
        signer = self.authority if voucher == RECOVERY else self.keys[voucher]
        signature = signer.sign(signed)
        j = Join(
            name=f"join-{device}.dmj",
            digest=hashlib.sha256(signed + signature).hexdigest(),
            device=device,
            member=self.member(device),
            voucher=voucher,
            parent=parent.digest,
            via="recovery" if voucher == RECOVERY else "pair",
            offered_at=None,
            signed=signed,
            signature=signature,
        )
        self.joins.append(j)
        return j

    def evaluate(self, anchor: Anchor, shuffle: int | None = None):
        gens, joins = list(self.generations), list(self.joins)
        if shuffle is not None:
            rng = random.Random(shuffle)
            rng.shuffle(gens)
            rng.shuffle(joins)
        return evaluate(anchor, gens, joins, crypto.verify)


def _same_in_any_order(world: World, anchor: Anchor):
    first = world.evaluate(anchor)
    for seed in range(8):
        again = world.evaluate(anchor, shuffle=seed)
        assert set(again.members) == set(first.members)
        assert again.removed == first.removed
        assert again.settled == first.settled
        assert (again.write and again.write.digest) == (first.write and first.write.digest)
    return first


def _three() -> tuple[World, Generation, Anchor]:
    """laptop set the sync up; desktop and the thief's laptop-to-be joined by pairing."""
    w = World()
    for name in ("laptop", "desktop", "stolen"):
        w.computer(name)
    g1 = w.generation("laptop", 1, [], ["laptop"])
    w.join("desktop", "laptop", g1)
    w.join("stolen", "laptop", g1)
    return w, g1, Anchor(frozenset({g1.digest}))


def test_a_computer_is_in_only_when_a_member_lets_it_in() -> None:
    w, g1, anchor = _three()
    w.computer("stranger")
    w.join("stranger", "stranger", g1)  # signed by itself
    m = _same_in_any_order(w, anchor)
    assert set(m.members) == {"laptop", "desktop", "stolen"}
    assert m.settled  # each of them holds the first key


def test_a_join_signed_with_someone_elses_key_is_not_taken() -> None:
    w, g1, anchor = _three()
    w.computer("stranger")
    j = w.join("stranger", "stranger", g1)
    w.joins.remove(j)
    forged = Join(**{**j.__dict__, "voucher": "laptop"})
    w.joins.append(forged)
    assert "stranger" not in w.evaluate(anchor).members


def test_a_removal_is_taken_and_the_removed_computer_is_out() -> None:
    w, g1, anchor = _three()
    g2 = w.generation("laptop", 2, [g1], ["laptop", "desktop"], removed={"stolen"})
    m = _same_in_any_order(w, anchor)
    assert set(m.members) == {"laptop", "desktop"} and m.removed == {"stolen"}
    assert m.write == g2 and m.settled


def test_the_thief_cannot_forge_its_way_back_with_a_new_id() -> None:
    """The attack on 0.4: with the desktop offline when the laptop removes it, the thief
    writes a key file of the same generation, signed by a new id of its own making that
    sorts first, naming that id a member. Not taken: its writer is no member."""
    w, g1, anchor = _three()
    w.generation("laptop", 2, [g1], ["laptop", "desktop"], removed={"stolen"})
    w.computer("0thief")
    w.generation("0thief", 2, [g1], ["0thief", "desktop", "laptop"])
    m = _same_in_any_order(w, anchor)
    assert "0thief" not in m.members and "stolen" not in m.members
    assert any("not in this sync" in why for _n, why in m.refused)


def test_the_thiefs_fork_under_its_old_id_lets_no_one_in() -> None:
    """Signed with the stolen computer's own key (a member of generation 1), made at
    the same time as its removal: it is taken (its removals count) but vouches for no
    one: the id it introduced is not in, and neither is anything that id signs."""
    w, g1, anchor = _three()
    w.generation("laptop", 2, [g1], ["laptop", "desktop"], removed={"stolen"})
    w.computer("mole")
    fork = w.generation("stolen", 2, [g1], ["stolen", "mole", "laptop", "desktop"])
    # the mole launders itself: a generation of its own on top of the fork
    w.generation("mole", 3, [fork], ["mole", "laptop", "desktop"])
    w.join("mole", "stolen", g1)  # and a join the thief backdates to generation 1
    w.computer("mole2")
    w.join("mole2", "mole", fork)
    m = _same_in_any_order(w, anchor)
    assert set(m.members) == {"laptop", "desktop"}
    assert not m.settled  # the fork is a head: the next generation builds over it


def test_a_removed_computers_list_cannot_give_an_honest_id_a_key_to_sign_with() -> None:
    """Found by the model checker (seed 8800, schedule 62 through the engine): the
    thief's key file, made at the same time as its removal, named the laptop with the
    thief's own keys; a key file "by the laptop" on top of it, signed with the thief's
    key, was taken there (the laptop's key is the thief's in what it builds on). Once
    the thief's list no longer vouched, that key file still did (the laptop is in,
    through the first generation) and took the desktop out. A generation counts only
    when its writer, as the membership stands, holds the key that signed it."""
    w, g1, anchor = _three()
    w.generation("laptop", 2, [g1], ["laptop", "desktop"], removed={"stolen"})
    fork = w.generation("stolen", 2, [g1], ["stolen", "laptop"], posing={"laptop": "stolen"})
    posed = w.generation("laptop", 3, [fork], ["laptop"], removed={"desktop"}, signer="stolen")
    m = _same_in_any_order(w, anchor)
    assert set(m.members) == {"laptop", "desktop"}
    assert m.removed == {"stolen"}
    assert posed.digest not in m.lawful


def test_a_fork_that_removes_the_remover_takes_both_out_and_no_one_else() -> None:
    """The variant that named the laptop as removed: the desktop must not follow the
    thief's key. Both removals stand (a removal is never undone); the desktop stays in
    only if something not removed vouches for it."""
    w = World()
    for name in ("laptop", "desktop", "stolen"):
        w.computer(name)
    g1 = w.generation("laptop", 1, [], ["laptop"])
    w.join("desktop", RECOVERY, g1)  # joined with the recovery code
    w.join("stolen", "laptop", g1)
    anchor = Anchor(frozenset({g1.digest}))
    w.generation("laptop", 2, [g1], ["laptop", "desktop"], removed={"stolen"})
    w.generation("stolen", 2, [g1], ["stolen", "desktop"], removed={"laptop"})
    m = _same_in_any_order(w, anchor)
    assert m.removed == {"laptop", "stolen"}
    assert set(m.members) == {"desktop"}
    assert m.write is None or m.write.writer not in m.removed


def test_a_computer_that_removed_the_one_that_let_it_in_stays() -> None:
    """The laptop (which set the sync up and let the desktop in) is sold: the desktop
    removes it, and stays."""
    w, g1, anchor = _three()
    w.generation("desktop", 2, [g1], ["desktop", "stolen"], removed={"laptop"})
    m = _same_in_any_order(w, anchor)
    assert set(m.members) == {"desktop", "stolen"} and m.settled


def test_who_is_in_does_not_depend_on_how_far_back_the_anchor_goes() -> None:
    """The desktop removes the laptop that let it and the tablet in; the laptop joins
    again (the tablet lets it in) and removes the desktop. The second removal carries
    the laptop's without naming the desktop: it took the desktop out, so it knew of it,
    and the desktop's join (which the first removal kept) still counts for what came
    before. The tablet, which trusts only the first key file, sees the same members as
    a computer that trusts them all (it was told it was left out)."""
    w, g1, anchor = _three()
    w.computer("tablet")
    w.join("tablet", "laptop", g1)
    g2 = w.generation("desktop", 2, [g1], ["desktop", "stolen", "tablet"], removed={"laptop"})
    w.computer("laptop2")
    w.join("laptop2", "tablet", g2)
    g3 = w.generation("laptop2", 3, [g2], ["laptop2", "stolen", "tablet"],
                      removed={"laptop", "desktop"})  # fmt: skip
    for trusted in ({g1.digest}, {g1.digest, g2.digest}, {g1.digest, g2.digest, g3.digest}):
        m = _same_in_any_order(w, Anchor(frozenset(trusted)))
        assert set(m.members) == {"laptop2", "stolen", "tablet"}, len(trusted)
        assert m.removed == {"laptop", "desktop"} and m.settled


def test_one_let_in_just_before_a_removal_it_missed_stays_and_gets_the_key() -> None:
    """The tablet was let in by the laptop while the desktop, not having seen it,
    removed the stolen computer: the tablet stays in (the laptop vouches), and the sync
    is not settled until a new key is sealed to it too."""
    w, g1, anchor = _three()
    w.computer("tablet")
    w.join("tablet", "laptop", g1)
    g2 = w.generation("desktop", 2, [g1], ["laptop", "desktop"], removed={"stolen"})
    m = _same_in_any_order(w, anchor)
    assert set(m.members) == {"laptop", "desktop", "tablet"}
    assert not m.settled and m.write == g2
    g3 = w.generation("laptop", 3, [g2], ["laptop", "desktop", "tablet"], removed={"stolen"})
    m = _same_in_any_order(w, anchor)
    assert m.settled and m.write == g3


def test_the_first_remover_carries_what_the_removed_computer_wrote() -> None:
    """Whose files say what a removed computer wrote that stands: the writer of the
    first generation that removed it, the same on every computer, in any order; when
    that writer was removed too, whoever carries it; no one when they removed each
    other."""
    w, g1, anchor = _three()
    w.computer("phone")
    w.join("phone", "laptop", g1)
    # the laptop and the desktop take the thief out at the same time
    a = w.generation("laptop", 2, [g1], ["laptop", "desktop", "phone"], removed={"stolen"})
    b = w.generation("desktop", 2, [g1], ["laptop", "desktop", "phone"], removed={"stolen"})
    later = w.generation("phone", 3, [a, b], ["desktop", "phone"], removed={"stolen", "laptop"})
    for seed in range(4):
        m = w.evaluate(anchor, shuffle=seed)
        gens = list(m.generations.values())
        assert carrier(reversed(gens), m.removed, "desktop") is None  # not removed
        assert carrier(gens, m.removed, "laptop") == "phone"
        # two removals at the same number: the lower writer id is first
        assert carrier(gens, m.removed, "stolen") == "desktop"
    # once the desktop is taken out too, the phone carries what the desktop carried
    w.generation("phone", 4, [later], ["phone"], removed={"stolen", "laptop", "desktop"})
    m = w.evaluate(anchor)
    assert carrier(m.generations.values(), m.removed, "stolen") == "phone"
    # two that removed each other: no one still in carries either
    w2 = World()
    for name in ("laptop", "desktop", "stolen"):
        w2.computer(name)
    h1 = w2.generation("laptop", 1, [], ["laptop"])
    w2.join("desktop", RECOVERY, h1)
    w2.join("stolen", "laptop", h1)
    w2.generation("laptop", 2, [h1], ["laptop", "desktop"], removed={"stolen"})
    w2.generation("stolen", 2, [h1], ["stolen", "desktop"], removed={"laptop"})
    m = w2.evaluate(Anchor(frozenset({h1.digest})))
    assert carrier(m.generations.values(), m.removed, "stolen") is None


def test_two_removals_at_once_are_merged_and_then_settle() -> None:
    w, g1, anchor = _three()
    w.computer("phone")
    w.join("phone", "laptop", g1)
    a = w.generation("laptop", 2, [g1], ["laptop", "desktop", "phone"], removed={"stolen"})
    b = w.generation("desktop", 2, [g1], ["laptop", "desktop", "stolen"], removed={"phone"})
    m = _same_in_any_order(w, anchor)
    assert set(m.members) == {"laptop", "desktop"} and not m.settled
    # both write the merge at once: the same content, so it settles on the lower writer
    both = {"stolen", "phone"}
    m1 = w.generation("laptop", 3, [a, b], ["laptop", "desktop"], removed=both)
    m2 = w.generation("desktop", 3, [a, b], ["laptop", "desktop"], removed=both)
    m = _same_in_any_order(w, anchor)
    assert m.settled and m.write == min(m1, m2, key=lambda g: g.writer)


def test_a_generation_that_forgets_a_removal_is_not_taken() -> None:
    w, g1, anchor = _three()
    g2 = w.generation("laptop", 2, [g1], ["laptop", "desktop"], removed={"stolen"})
    w.generation("desktop", 3, [g2], ["laptop", "desktop", "stolen"])
    m = w.evaluate(anchor)
    assert "stolen" not in m.members
    assert any("removed" in why for _n, why in m.refused)


def test_a_join_by_a_removed_computer_made_before_its_removal_stays_if_kept() -> None:
    """The stolen computer had let the tablet in, and the laptop knew the tablet when it
    removed the stolen one (it names it): the tablet stays. A join the stolen computer
    signs that the removal did not know of does not."""
    w, g1, anchor = _three()
    w.computer("tablet")
    w.join("tablet", "stolen", g1)
    w.generation("laptop", 2, [g1], ["laptop", "desktop", "tablet"], removed={"stolen"})
    w.computer("later")
    w.join("later", "stolen", g1)
    m = _same_in_any_order(w, anchor)
    assert set(m.members) == {"laptop", "desktop", "tablet"}


def test_the_recovery_authority_lets_in_only_while_it_is_the_current_one() -> None:
    w, g1, anchor = _three()
    w.computer("new")
    w.join("new", RECOVERY, g1)
    assert "new" in w.evaluate(anchor).members
    old = w.authority
    w.authority = crypto.DeviceKeys.generate()  # the recovery code was replaced
    w.generation("laptop", 2, [g1], ["laptop", "desktop", "stolen", "new"])
    w.computer("late")
    w.authority = old
    w.join("late", RECOVERY, g1)  # someone with the old code, backdated
    m = w.evaluate(anchor)
    assert "late" not in m.members and "new" in m.members


def test_an_update_from_0_4_trusts_what_it_held() -> None:
    """Key files written before parents existed (0.4) are trusted as held, with the
    members met since; what comes after follows the rules."""
    w = World()
    for name in ("laptop", "desktop", "tablet"):
        w.computer(name)
    g1 = w.generation("laptop", 1, None, ["laptop", "desktop"])
    g2 = w.generation("desktop", 2, None, ["laptop", "desktop"])
    anchor = Anchor(frozenset({g1.digest, g2.digest}), {"tablet": w.member("tablet")})
    m = w.evaluate(anchor)
    assert set(m.members) == {"laptop", "desktop", "tablet"} and not m.settled
    g3 = w.generation("tablet", 3, [g2], ["laptop", "desktop", "tablet"])
    m = w.evaluate(anchor)
    assert m.settled and m.write == g3
    # a 0.4 key file from a computer that is no member is not taken
    w.computer("stranger")
    w.generation("stranger", 3, None, ["stranger"])
    assert "stranger" not in w.evaluate(anchor).members


def test_random_histories_never_let_a_removed_computer_or_its_ids_back() -> None:
    """Random honest removals and joins, and a thief acting after its removal with
    every trick above, in any order: the thief and whatever it introduced are never
    members, and every computer's view is the same."""
    for seed in range(60):
        rng = random.Random(seed)
        w = World()
        honest = [w.computer(f"h{i}") for i in range(3)]
        thief = w.computer("t")
        g1 = w.generation("h0", 1, [], ["h0"])
        anchor = Anchor(frozenset({g1.digest}))
        for h in honest[1:] + [thief]:
            w.join(h, "h0", g1)
        w.generation("h1", 2, [g1], honest, removed={thief})
        minted = itertools.count()
        for _step in range(rng.randrange(3, 9)):
            roll = rng.random()
            if roll < 0.4:  # the thief: a fork, a new id, a join, a laundering
                mole = w.computer(f"m{next(minted)}")
                base = rng.choice(w.generations)
                fork = w.generation(thief, base.number + 1, [base], [thief, mole, *honest],
                                    removed=set(rng.sample(honest, rng.randrange(0, 2))))  # fmt: skip
                w.join(mole, thief, rng.choice([g1, fork]))
                w.generation(mole, fork.number + 1, [fork], [mole, *honest])
            else:  # an honest merge over whatever is there
                m = w.evaluate(anchor)
                if m.settled:
                    continue
                number = max(g.number for g in m.heads) + 1
                writer = rng.choice(sorted(set(m.members) & set(honest)) or honest)
                if writer in m.removed:
                    continue
                w.generation(writer, number, m.heads, sorted(m.members), removed=set(m.removed))
        m = _same_in_any_order(w, anchor)
        assert thief not in m.members, seed
        assert not any(d.startswith("m") for d in m.members), (seed, m.members)
        assert set(m.members) <= set(honest)
