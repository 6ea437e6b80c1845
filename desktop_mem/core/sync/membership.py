"""Who is in a sync, decided from signed records alone: the rules, as pure functions.

A sync's membership is never granted by holding a key (a computer taken out of the sync
still holds every key it had). It is granted by signatures of members:

- A **join** record says that a computer (its public keys) joins, signed by the member
  that let it in (the computer that showed the pairing code) or by the profile's
  recovery authority (a signing key sealed to the recovery code: whoever holds the code
  may let a computer in). It names the generation whose key the computer was given.
- A **generation** record (a key file) seals a new sync key to the members its writer
  names, says which computers are removed (every removal its writer knew of: the list
  only grows) and which generations it builds on (its *parents*). It is taken only when
  signed by a member of what it builds on, whom it does not remove itself.

Generations form a graph: two computers that each make one without having seen the
other's make two *heads*. All of them count, and the result is the same whatever order
the files arrive in:

1. The computers removed are the union of every removal in every generation taken,
   but for one thing: a generation whose writer is removed (rule 2) removes only
   computers known when its writer was removed.
2. A generation whose writer is removed (by any generation, made before, after or at
   the same time) no longer vouches for anyone: its list of members does not count,
   and its key is never written with. A join signed by a removed computer does not
   count either. So whatever a removed computer introduced, before or after its
   removal, stays only if a computer that is not removed vouches for it: a generation
   written by a member that names it (the computer that removed it saw it and kept
   it), or a join signed by a member. A removed computer's own generations still add
   their removals to the union (a removal is never undone): the one thing it can still
   do is take others out along with itself (those that were in when it was removed:
   never one let in afterwards, nor one it names a member itself first), never get
   back in.
3. The members are those named by the newest generations whose writers are not
   removed (the *frontier*), and those a member or the recovery authority let in,
   less every removed computer.
4. The sync is *settled* when its heads are all lawful, agree on who is in and who is
   out, and every member holds the key of the one to write with (the lowest writer's):
   named in it, or let in with its key. Otherwise any member writes the next
   generation: every head as its parent, every member, every removal.

A computer trusts a starting point (its *anchor*) instead of checking it: the first
generation (the computer that set the sync up, or one joining with the recovery code),
the records a pairing offer carried (sealed under the code, so they come from a
member), or what it already held when these rules came (an update from 0.4).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

RECOVERY = "recovery"  # the voucher of a join signed with the recovery authority

Verify = Callable[[str, bytes, bytes], bool]  # (public signing key, signature, data)


@dataclass(frozen=True)
class Member:
    """A computer's public keys: X25519 (keys are sealed to it), Ed25519 (it signs)."""

    agreement: str
    signing: str

    def to_dict(self) -> dict[str, str]:
        return {"agreement": self.agreement, "signing": self.signing}


@dataclass(frozen=True)
class Generation:
    """A key file as signed: what it says, not the secrets it seals."""

    name: str  # its file name (for the sentence when it is not taken)
    digest: str  # of the whole file: an anchor names the records it trusts by it
    number: int
    writer: str
    key_id: str  # the public name of its key (files sealed with it say so)
    parents: tuple[str, ...] | None  # digests; None: written before parents existed
    members: Mapping[str, Member]
    removed: frozenset[str]
    authority: str | None  # the recovery authority's public signing key
    signed: bytes
    signature: bytes


@dataclass(frozen=True)
class Join:
    """A join record as signed."""

    name: str
    digest: str
    device: str
    member: Member
    voucher: str  # a member's id, or RECOVERY
    parent: str  # the digest of the generation whose key the computer was given
    via: str  # "pair", "recovery", or "key" (its earlier self: a restored backup)
    offered_at: int | None  # when the pairing code was shown (a person reads it)
    signed: bytes
    signature: bytes
    offer: str | None = None  # the pairing offer it was let in with (None: written before)
    # the ids it had before, when it joins again (signed by whoever lets it in): what
    # they carried, it carries
    former: tuple[str, ...] = ()


@dataclass(frozen=True)
class Anchor:
    """What a computer trusts without checking it against anything older: generation
    records by digest (taken as they are, whoever wrote them), and members and
    removals that count as if a trusted generation named them (what an update from
    0.4 already trusted)."""

    trusted: frozenset[str]
    members: Mapping[str, Member] = field(default_factory=dict)
    removed: frozenset[str] = frozenset()

    def to_dict(self) -> dict[str, object]:
        return {
            "trusted": sorted(self.trusted),
            "members": {d: m.to_dict() for d, m in sorted(self.members.items())},
            "removed": sorted(self.removed),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Anchor:
        members = data.get("members")
        return cls(
            frozenset(str(k) for k in _list(data.get("trusted"))),
            {
                str(d): Member(str(m.get("agreement", "")), str(m.get("signing", "")))
                for d, m in (members.items() if isinstance(members, Mapping) else ())
                if isinstance(m, Mapping)
            },
            frozenset(str(d) for d in _list(data.get("removed"))),
        )


def _list(value: object) -> list[object]:
    return list(value) if isinstance(value, list | tuple) else []


@dataclass
class View:
    """The membership that a set of generations (closed under their parents) makes."""

    members: dict[str, Member]
    removed: frozenset[str]
    lawful: set[str]  # digests of generations whose writer is not removed
    frontier: list[str]  # the lawful generations no other lawful one builds on
    joins: dict[str, Join]  # the joins that made members, by the computer let in


@dataclass
class Membership:
    """What the signed records say, as of now."""

    members: dict[str, Member]
    removed: frozenset[str]
    generations: dict[str, Generation]  # taken, by digest
    frontier: list[Generation]  # the newest lawful ones (lowest writer first)
    heads: list[Generation]  # taken ones nothing builds on: the next one's parents
    joins: dict[str, Join]  # how the members no frontier generation names were let in
    refused: list[tuple[str, str]]  # (file name, why) for records not taken
    waiting: list[str]  # file names whose parents have not arrived
    lawful: set[str] = field(default_factory=set)
    given: dict[str, set[str]] = field(default_factory=dict)  # digest -> who got its key
    # every join that let a computer in somewhere in the history (kept: a generation
    # taken may stand on it long after a later one names that computer)
    used: dict[str, Join] = field(default_factory=dict)
    settled: bool = False
    write: Generation | None = None  # the generation whose key members write with

    @property
    def number(self) -> int:
        return max((g.number for g in self.generations.values()), default=0)

    @property
    def authority(self) -> str | None:
        """The recovery authority a join may be signed with now."""
        return next((g.authority for g in self.frontier if g.authority), None)

    def holds(self, device: str, generation: Generation) -> bool:
        """Whether a computer was given this generation's key: named in it, or let in
        with it."""
        if device in generation.members:
            return True
        join = self.joins.get(device)
        return join is not None and join.parent == generation.digest

    def joined_with(self, device: str) -> Join | None:
        return self.joins.get(device)


def evaluate(
    anchor: Anchor,
    generations: Iterable[Generation],
    joins: Iterable[Join],
    verify: Verify,
) -> Membership:
    """The membership the records make, from what `anchor` trusts. Pure: the same
    records give the same answer in any order, on every computer.

    A generation is *taken* when its writer is a member of what it builds on (counting
    only what still vouches in the light of the removals it knew), its signature is
    its writer's, and it keeps every removal it knew of; each removal in a generation
    taken is final (one by a generation whose writer was removed, only of a computer
    known when it was). The answer is the membership of everything taken, in the light of
    every removal: a generation whose writer was removed by one that does not build on
    it vouches for no one, nor does anything that was a member only through it; a join
    signed by a computer that a generation removed without keeping the one it let in
    (named among those in, or taken out along with it) counts for nothing."""
    ordered = sorted(generations, key=lambda g: (g.number, g.writer, g.digest))
    join_list = sorted(joins, key=lambda j: (j.device, j.digest))
    graph = _Graph(anchor, join_list, verify, raw=_Graph(anchor, join_list, verify))
    refused: list[tuple[str, str]] = []
    waiting: list[str] = []
    # what is older than everything the anchor trusts is history it stands for
    floor = min((g.number for g in ordered if g.digest in anchor.trusted), default=0)
    for g in ordered:
        if g.digest in graph.taken:
            continue  # the same file twice (read from the folder and kept here)
        trusted = g.digest in anchor.trusted
        if not trusted and g.number < floor:
            continue
        parents = g.parents
        if parents is None:  # written before parents: it builds on the generation before
            parents = tuple(graph.by_number.get(g.number - 1, ()))
        if any(p not in graph.taken for p in parents) or (not parents and not trusted):
            if trusted:
                parents = ()  # it builds on what is older than what this computer trusts
            elif g.number <= 1 or g.parents == ():
                refused.append((g.name, "it starts another sync than the one this computer is in"))
                continue
            else:
                waiting.append(g.name)  # what it builds on has not arrived (or was refused)
                continue
        if any(graph.taken[p].number >= g.number for p in parents):
            refused.append((g.name, "it builds on a generation that is not older than it"))
            continue
        seen = frozenset().union(*(graph.ancestors[p] | {p} for p in parents))
        if not trusted:
            why = _why_not(g, graph.view(seen), verify)
            if why is not None:
                refused.append((g.name, why))
                continue
        graph.take(g, seen, trusted)
    everything = frozenset(graph.taken)
    now = graph.view(everything)
    built_on = set().union(*(graph.ancestors[k] for k in everything))
    taken = graph.taken
    result = Membership(
        members=now.members,
        removed=now.removed,
        generations=dict(taken),
        frontier=sorted((taken[k] for k in now.frontier), key=_order),
        heads=sorted((taken[k] for k in everything if k not in built_on), key=_order),
        joins=now.joins,
        refused=refused,
        waiting=waiting,
        lawful=now.lawful,
        given={
            k: set(g.members) | {j.device for j in join_list if j.parent == k}
            for k, g in taken.items()
        },
    )
    for views in (graph._views, graph.raw._views if graph.raw is not None else {}):
        for v in views.values():
            result.used.update({j.digest: j for j in v.joins.values()})
    result.write, result.settled = _settle(result)
    return result


class _Graph:
    """The generations taken so far, and the membership any part of them makes.

    A view is asked of a set of generations (closed under their parents) *in the light
    of* a context: the generations whose removals are known. A generation still vouches
    (its list of members counts) unless the context holds a removal of its writer that
    does not build on it (made at the same time, or after), and unless its writer was
    a member only through something that no longer vouches. To check a new generation
    the context is what it builds on (what its writer knew); for the final answer, it
    is everything taken.

    A generation whose writer was removed by one that did not know of it removes only
    computers known when its writer was first removed: in or out in what that first
    removal builds on, as its writer saw it then, or named in it. So a removed
    computer's key files take out, along with itself, only the computers that were
    there when it was removed: not one let in afterwards, nor one it names a member in
    a key file of its own first; and its own removal stands whatever it removes. What
    the first removal saw is asked of the graph that counts every removal (`raw`), so
    that the answer never depends on itself."""

    def __init__(
        self, anchor: Anchor, joins: list[Join], verify: Verify, raw: _Graph | None = None
    ) -> None:
        self.anchor = anchor
        self.joins = joins
        self.verify = verify
        self.raw = raw
        self.taken: dict[str, Generation] = raw.taken if raw is not None else {}
        self.trusted: set[str] = raw.trusted if raw is not None else set()
        self.ancestors: dict[str, frozenset[str]] = raw.ancestors if raw is not None else {}
        self.by_number: dict[int, list[str]] = raw.by_number if raw is not None else {}
        self._views: dict[tuple[frozenset[str], frozenset[str]], View] = {}
        self._vouches: dict[tuple[str, frozenset[str]], bool] = {}
        self._removed: dict[tuple[str, frozenset[str]], frozenset[str]] = {}
        self._vouched: dict[tuple[str, frozenset[str]], frozenset[str]] = {}

    def take(self, g: Generation, seen: frozenset[str], trusted: bool) -> None:
        self.taken[g.digest] = g
        self.ancestors[g.digest] = seen
        self.by_number.setdefault(g.number, []).append(g.digest)
        if trusted:
            self.trusted.add(g.digest)

    def removed_by(self, r: str, context: frozenset[str]) -> frozenset[str]:
        """The removals of generation `r` that count in the light of `context`. One it
        carries from what it builds on counts as it counts there (a writer keeps every
        removal it knew of, the removed computer's own among them when it had not heard
        of its removal). Its own: all, unless its writer was removed by a generation
        that did not know of it; then only of computers known when its writer was first
        removed (in or out in what the first removal builds on, as its writer saw it
        then, or named in it; each first removal when there were several at once)."""
        g = self.taken[r]
        if self.raw is None:
            return g.removed
        if (r, context) not in self._removed:
            before = self.ancestors[r]
            carried = {
                d for d in g.removed
                if any(d in self.taken[j].removed for j in before)
            }  # fmt: skip
            kept = {
                d for d in carried
                if any(d in self.removed_by(j, context) for j in before)
            }  # fmt: skip
            own = g.removed - carried
            removers = [
                k for k in sorted(context)
                if g.writer in self.taken[k].removed and r not in self.ancestors[k]
            ]  # fmt: skip
            if not removers and not self.raw.vouches(r, context):
                # its writer not removed, but no longer in: let in by a computer removed
                # since (an id the thief let in with a join it backdated): what counts is
                # what was known when that one was removed
                vouchers = {j.voucher for j in self.joins if j.device == g.writer}
                removers = [
                    k for k in sorted(context) if vouchers & self.taken[k].removed
                ]  # fmt: skip
                if not removers:
                    own = frozenset()  # in through nothing that stands: none counts
            known: set[str] | None = None
            for k in removers:
                if any(j in self.ancestors[k] for j in removers):
                    continue  # a removal that only carries an earlier one
                base = self.ancestors[k]
                seen = self.raw.view(base, base)  # as the remover saw it when it wrote
                known = (known or set()) | set(seen.members) | seen.removed
                known |= set(self.taken[k].members) | self.taken[k].removed
            if known is not None:
                own &= known
            self._removed[(r, context)] = frozenset(own | kept)
        return self._removed[(r, context)]

    def removals(self, device: str, context: frozenset[str]) -> list[str]:
        return [r for r in sorted(context) if device in self.removed_by(r, context)]

    def vouches(self, k: str, context: frozenset[str]) -> bool:
        if (k, context) not in self._vouches:
            g = self.taken[k]
            if any(k not in self.ancestors[r] for r in self.removals(g.writer, context)):
                answer = False  # its writer's removal did not know of it
            elif k in self.trusted:
                answer = True
            else:  # its writer a member there, counting only what still vouches, with
                # the key that signed it: not one only a list that no longer vouches gave
                # it (a removed computer's key file naming an honest id with its own key,
                # then signing as that id on top of it)
                writer = self.view(self.ancestors[k], context).members.get(g.writer)
                answer = writer is not None and self.verify(writer.signing, g.signature, g.signed)
            self._vouches[(k, context)] = answer
        return self._vouches[(k, context)]

    def vouched(self, k: str, context: frozenset[str]) -> frozenset[str]:
        """The computers generation `k`'s list vouches for: all it names but those that
        what it builds on names only in the lists of generations that no longer vouch (a
        removed computer's own key files), or that a list vouching there named without
        vouching for them (carried on from such a key file), and those it introduces (no
        list it builds on names them) that no join counting there let in: a list naming
        an id is not a join signed for it. One let in by a join that counts, or vouched
        for by a list that still vouches, is judged as ever."""
        if (k, context) not in self._vouched:
            g = self.taken[k]
            base = self.ancestors[k]
            named: set[str] = set()
            good = set(self.anchor.members)
            for j in sorted(base):
                named.update(self.taken[j].members)
                if self.vouches(j, context):
                    good |= self.vouched(j, context)
            # let in by a join that counts in the light of `context` (its voucher in, or
            # removed by a generation that kept the one it let in): not one the thief
            # signed after its removal, however dated, that a computer which missed the
            # removal took and then named in a list of its own
            good |= set(self.view(base, context).joins)
            if k not in self.trusted:  # (what a computer trusts is taken as it is)
                named |= set(g.members)
            refused = named - good - {g.writer}
            self._vouched[(k, context)] = frozenset(g.members) - refused
        return self._vouched[(k, context)]

    def void_join(self, join: Join, context: frozenset[str]) -> bool:
        """A join whose voucher was removed by a generation that did not keep the
        computer it let in (the removal did not know of it). One whose removal of that
        computer counts knew of it too: a later removal carrying the voucher's along
        with the computer's own does not void what the first removal kept (whether the
        computer's earlier key files vouch must not depend on how far back a computer's
        anchor goes)."""
        return any(
            join.device not in self.taken[r].members
            and join.device not in self.removed_by(r, context)
            for r in self.removals(join.voucher, context)
        )

    def view(self, nodes: frozenset[str], context: frozenset[str] | None = None) -> View:
        context = nodes if context is None else context
        if (nodes, context) not in self._views:
            self._views[(nodes, context)] = self._view(nodes, context)
        return self._views[(nodes, context)]

    def _view(self, nodes: frozenset[str], context: frozenset[str]) -> View:
        """Rules 1 to 3 over a set of generations closed under their parents."""
        taken = self.taken
        gone = frozenset(self.anchor.removed.union(*(self.removed_by(k, context) for k in nodes)))
        lawful = {k for k in nodes if self.vouches(k, context)}
        frontier = sorted(k for k in lawful if not any(k in self.ancestors[j] for j in lawful))
        members: dict[str, Member] = {}
        for device, keys in sorted(self.anchor.members.items()):
            if device not in gone:
                members[device] = keys
        # the lowest writer's list first: a computer named twice keeps the keys it says.
        # A list does not vouch for a computer that what it builds on names only in a
        # removed computer's own key files: one that missed a removal and built on the
        # removed computer's key file does not vouch for the ids that key file named
        for k in sorted(frontier, key=lambda k: _order(taken[k])):
            vouched = self.vouched(k, context)
            for device, keys in sorted(taken[k].members.items()):
                if device not in gone and device in vouched:
                    members.setdefault(device, keys)
        authorities = {taken[k].authority for k in frontier} - {None}
        made: dict[str, Join] = {}
        grew = True
        while grew:  # a computer let in by one that was let in itself
            grew = False
            for join in self.joins:
                if join.device in members or join.device in gone or join.parent not in nodes:
                    continue
                if join.voucher != RECOVERY and self.void_join(join, context):
                    continue
                signer = _signer(join, taken, members, gone, authorities)
                if signer is None or not self.verify(signer, join.signature, join.signed):
                    continue
                members[join.device] = join.member
                made[join.device] = join
                grew = True
        return View(members, gone, lawful, frontier, made)


def carrier(
    generations: Iterable[Generation],
    removed: frozenset[str],
    device: str,
    successors: Mapping[str, str] | None = None,
) -> str | None:
    """The computer whose files say what a computer taken out of the sync (`device`)
    wrote that stands: the writer of the first generation that removed it (the lowest
    number, then the lowest writer id: the same on every computer), which carries its
    records from then on; when that writer was taken out too, the id it joined again
    with (`successors`: it still holds what it held, and knows how far it had read),
    else the one that carries that writer's. None when no generation taken removes it
    (a removal from before generations named their removals).

    What a removed computer writes after its removal is never applied where the removal
    is known; but a computer that had not taken the removal in yet (its key file kept
    from it, or late) takes it in as from a member. The first remover had read the
    removed computer only up to its removal, so its files hold exactly what stands: the
    others drop any record of the removed computer that those files do not hold.

    When the chain comes back to a computer it passed (the removed computer took out,
    along with itself, the one that removed it: they removed one another), no one still
    in carries them that way: the computer that first removed `device` does, under the
    id it joined again with (`successors`: a former id to the member whose join names
    it), since it holds what it held; else no one."""
    taken = list(generations)
    seen = {device}
    current = device
    while True:
        first = min(
            (g for g in taken if current in g.removed),
            key=lambda g: (g.number, g.writer),
            default=None,
        )
        if first is None:
            return None
        if first.writer not in removed:
            return first.writer
        again = (successors or {}).get(first.writer)
        if again is not None and again not in removed:
            # taken out itself, and in again under a new id: it holds what it held when
            # it removed `current` (how far it had read it), which whoever took it out
            # did not know, and may have read further (the first remover in a loop of
            # removals was asked this at the first step: none is left to ask)
            return again
        if first.writer in seen:
            return None
        seen.add(first.writer)
        current = first.writer


def _order(g: Generation) -> tuple[str, str]:
    return (g.writer, g.digest)


def _why_not(g: Generation, before: View, verify: Verify) -> str | None:
    """Why a generation is not taken, given the membership it builds on; None if it is."""
    if g.writer in g.removed:
        return "it removes its own writer"
    writer = before.members.get(g.writer)
    if writer is None or g.writer in before.removed:
        return "it is written by a computer that is not in this sync"
    if not verify(writer.signing, g.signature, g.signed):
        return "its signature is not its writer's"
    if not before.removed <= g.removed:
        # a member writes on top of what it read: every removal it knew of stays
        return "it brings back a computer that was removed"
    return None


def _signer(
    join: Join,
    taken: Mapping[str, Generation],
    members: Mapping[str, Member],
    gone: frozenset[str],
    authorities: set[str | None],
) -> str | None:
    """The public key a join must be signed with, if its voucher may let anyone in."""
    if join.voucher == RECOVERY:
        named = taken[join.parent].authority
        # the authority of the generation it joined with, and still the current one (a
        # recovery code replaced since lets no one in any more)
        return named if named is not None and named in authorities else None
    if join.voucher == join.device or join.voucher in gone:
        return None
    voucher = members.get(join.voucher)
    return voucher.signing if voucher is not None else None


def _settle(result: Membership) -> tuple[Generation | None, bool]:
    """Rule 4: the generation to write with, and whether no new one is needed."""
    # never a key a removed computer was given, nor one sealed to a computer that is not
    # in (named by a list that does not vouch for it): what is written with it, it reads
    usable = [
        g for g in result.frontier
        if not result.given.get(g.digest, set()) & result.removed
        and set(g.members) <= set(result.members)
    ]  # fmt: skip
    if not usable:
        return None, False
    write = usable[0]
    if any(h.digest not in result.lawful for h in result.heads):
        return write, False  # a head whose writer was removed: build on it, write anew
    contents = {(frozenset(h.members) - result.removed, h.removed) for h in result.heads}
    if len(contents) != 1:
        return write, False  # made apart: different members or removals
    if any(not result.holds(d, write) for d in result.members):
        return write, False  # a member that was not given its key
    return write, True


__all__ = [
    "RECOVERY",
    "Anchor",
    "Generation",
    "Join",
    "Member",
    "Membership",
    "View",
    "carrier",
    "evaluate",
]
