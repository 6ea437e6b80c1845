"""English plural forms of desktop-mem's interface.

The sources are English already, but a string with a count (`tr("%n memory(s)", "", n)`)
needs its singular and plural written out: "1 memory", "2 memories". Qt takes them from
a translation, so English gets one too, holding the counted strings only.
`python resources/translations/en.py` refreshes desktop_mem_en.ts (pyside6-lupdate),
keeps the counted strings, fills in these forms and compiles the .qm the app installs
for English. A string is counted when it holds %n: pyside6-lupdate marks only `tr(...,
n)` as counted, not `QCoreApplication.translate(context, text, "", n)`, which would
otherwise be shown as written ("7 memory(s)").
"""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
TS = HERE / "desktop_mem_en.ts"
QM = ROOT / "desktop_mem" / "resources" / "translations" / "desktop_mem_en.qm"  # ships

EN: dict[str, tuple[str, str]] = {
    "Memories (%n)": ("Memories (%n)", "Memories (%n)"),
    "Earlier messages that mention it (%n)": (
        "Earlier messages that mention it (%n)",
        "Earlier messages that mention it (%n)",
    ),
    "%n more memory(s) or message(s) mention it: after these, say the same “forget …” again.": (
        "%n more memory or message mentions it: after these, say the same “forget …” again.",
        "%n more memories or messages mention it: after these, say the same “forget …” again.",
    ),
    "%n memory(s) or message(s) still mention it: say the same “forget …” again to see them.": (
        "%n memory or message still mentions it: say the same “forget …” again to see it.",
        "%n memories or messages still mention it: say the same “forget …” again to see them.",
    ),
    "%n watched folder(s) could not be read (a drive not connected?): their documents are kept.": (
        "%n watched folder could not be read (a drive not connected?): its documents are kept.",
        "%n watched folders could not be read (a drive not connected?): their documents are kept.",
    ),
    " (%n time(s) that day)": (" (%n time that day)", " (%n times that day)"),
    "The log keeps %n day(s); an app's calls of one kind on one memory in a day are one line.": (
        "The log keeps %n day; an app's calls of one kind on one memory in a day are one line.",
        "The log keeps %n days; an app's calls of one kind on one memory in a day are one line.",
    ),
    " · %n message(s) not yet learned from": (
        " · %n message not yet learned from",
        " · %n messages not yet learned from",
    ),
    "%n message(s), last %1": ("%n message, last %1", "%n messages, last %1"),
    "%n of them will no longer quote what was said in it.": (
        "%n of them will no longer quote what was said in it.",
        "%n of them will no longer quote what was said in it.",
    ),
    "Deleted %n memory(s).": ("Deleted %n memory.", "Deleted %n memories."),
    "Kept the rest of %n memory(s).": (
        "Kept the rest of %n memory.",
        "Kept the rest of %n memories.",
    ),
    "Deleted %n memory(s)": ("Deleted %n memory", "Deleted %n memories"),
    " and %n message(s).": (" and %n message.", " and %n messages."),
    "Delete %n memory(s) for good, with their history?": (
        "Delete %n memory for good, with its history?",
        "Delete %n memories for good, with their history?",
    ),
    "They shaped %n answer(s).": ("They shaped %n answer.", "They shaped %n answers."),
    "It shaped %n answer(s).": ("It shaped %n answer.", "It shaped %n answers."),
    "This deletes all %n memory(s) of this profile for good, and the earlier messages that said them: every conversation goes too, unless you keep them below. Your documents stay.": (
        "This deletes the %n memory of this profile for good, and the earlier messages that said it: every conversation goes too, unless you keep them below. Your documents stay.",
        "This deletes all %n memories of this profile for good, and the earlier messages that said them: every conversation goes too, unless you keep them below. Your documents stay.",
    ),
    "%1 (%n document(s))": ("%1 (%n document)", "%1 (%n documents)"),
    "No longer watching the folder; its %n document(s) stay.": (
        "No longer watching the folder; its %n document stays.",
        "No longer watching the folder; its %n documents stay.",
    ),
    "No longer watching the folder; its %n document(s) are removed.": (
        "No longer watching the folder; its %n document is removed.",
        "No longer watching the folder; its %n documents are removed.",
    ),
    "Keep my %n conversation(s) to read (the assistant will no longer see them)": (
        "Keep my %n conversation to read (the assistant will no longer see it)",
        "Keep my %n conversations to read (the assistant will no longer see them)",
    ),
    "%n message(s) in all": ("%n message in all", "%n messages in all"),
    "Forgot %n memory(s); the conversations stay to read, but the assistant no longer sees them.": (
        "Forgot %n memory; the conversations stay to read, but the assistant no longer sees them.",
        "Forgot %n memories; the conversations stay to read, but the assistant no longer sees them.",
    ),
    "Forgot %n memory(s)": ("Forgot %n memory", "Forgot %n memories"),
    " and deleted %n message(s).": (" and deleted %n message.", " and deleted %n messages."),
    "%n earlier message(s) stay to read, but the assistant no longer sees them.": (
        "%n earlier message stays to read, but the assistant no longer sees it.",
        "%n earlier messages stay to read, but the assistant no longer sees them.",
    ),
    "Exported %n memory(s) to %1. That file is not encrypted.": (
        "Exported %n memory to %1. That file is not encrypted.",
        "Exported %n memories to %1. That file is not encrypted.",
    ),
    "Imported %n memory(s).": ("Imported %n memory.", "Imported %n memories."),
    "%n already known, skipped.": ("%n already known, skipped.", "%n already known, skipped."),
    "While you were away, %n memory(s) were tidied (merged or marked out of date); each "
    "memory's History can undo it.": (
        "While you were away, %n memory was tidied (merged or marked out of date); its "
        "History can undo it.",
        "While you were away, %n memories were tidied (merged or marked out of date); each "
        "memory's History can undo it.",
    ),
    "Consolidation: %n change(s).": ("Consolidation: %n change.", "Consolidation: %n changes."),
    "%n memory(s)": ("%n memory", "%n memories"),
    "shaped %n answer(s)": ("shaped %n answer", "shaped %n answers"),
    "Remove %n document(s) and every passage of them from desktop-mem, for good? The files themselves are not touched.": (
        "Remove %n document and every passage of it from desktop-mem, for good? The file itself is not touched.",
        "Remove %n documents and every passage of them from desktop-mem, for good? The files themselves are not touched.",
    ),
    "%n match(es)": ("%n match", "%n matches"),
    "Nothing was imported: %n line(s) have problems (see the details).": (
        "Nothing was imported: %n line has problems (see the details).",
        "Nothing was imported: %n lines have problems (see the details).",
    ),
    "%n weaker": ("%n weaker", "%n weaker"),
    "Deleted %n message(s).": ("Deleted %n message.", "Deleted %n messages."),
    "%n passage(s) can be found by their words until the embedding model is there.": (
        "%n passage can be found by its words until the embedding model is there.",
        "%n passages can be found by their words until the embedding model is there.",
    ),
    "%n conversation(s)": ("%n conversation", "%n conversations"),
    "%n document(s)": ("%n document", "%n documents"),
    "Indexed: %n item(s) can now be found by meaning too.": (
        "Indexed: %n item can now be found by meaning too.",
        "Indexed: %n items can now be found by meaning too.",
    ),
    "No relevant match; %n weaker one(s) below": (
        "No relevant match; %n weaker one below",
        "No relevant match; %n weaker ones below",
    ),
    "Re-indexed %n item(s) with %1.": (
        "Re-indexed %n item with %1.",
        "Re-indexed %n items with %1.",
    ),
    "● Connected · %n not indexed yet": (
        "● Connected · %n not indexed yet",
        "● Connected · %n not indexed yet",
    ),
    "%n min ago": ("%n min ago", "%n min ago"),
    "%n hour(s) ago": ("%n hour ago", "%n hours ago"),
    "%n file(s) in the sync folder are ignored: each was refused once for what it is (a link, a FIFO, too large, or not this profile's), and is not read again until it changes.": (
        "%n file in the sync folder is ignored: it was refused once for what it is (a link, a FIFO, too large, or not this profile's), and is not read again until it changes.",
        "%n files in the sync folder are ignored: each was refused once for what it is (a link, a FIFO, too large, or not this profile's), and is not read again until it changes.",
    ),
    "%n memory(s) were edited on two computers at once": (
        "%n memory was edited on two computers at once",
        "%n memories were edited on two computers at once",
    ),
    "%n memory(s) were edited on two computers at once: the other version is in its history (Settings > Sync lists them).": (
        "%n memory was edited on two computers at once: the other version is in its history (Settings > Sync lists them).",
        "%n memories were edited on two computers at once: the other version is in its history (Settings > Sync lists them).",
    ),
    "%n new conversation(s)": ("%n new conversation", "%n new conversations"),
    "%n message(s)": ("%n message", "%n messages"),
    "%n conversation(s) imported before: not added again": (
        "%n conversation imported before: not added again",
        "%n conversations imported before: not added again",
    ),
    "%n empty conversation(s): left out": (
        "%n empty conversation: left out",
        "%n empty conversations: left out",
    ),
    "%n saved memory(s): proposed for you to review": (
        "%n saved memory: proposed for you to review",
        "%n saved memories: proposed for you to review",
    ),
    "%n entry(s) in a form this app does not know: skipped": (
        "%n entry in a form this app does not know: skipped",
        "%n entries in a form this app does not know: skipped",
    ),
    "Imported %n conversation(s)": ("Imported %n conversation", "Imported %n conversations"),
    "Each of its %n project(s) goes to a space of its own.": (
        "Its project goes to a space of its own.",
        "Each of its %n projects goes to a space of its own.",
    ),
    "%n message(s).": ("%n message.", "%n messages."),
    "%n fact(s) about you found in your imported history.": (
        "%n fact about you found in your imported history.",
        "%n facts about you found in your imported history.",
    ),
    "%n of your imported message(s) not yet read for facts.": (
        "%n of your imported messages not yet read for facts.",
        "%n of your imported messages not yet read for facts.",
    ),
    "Accepted: %n new memory(s).": ("Accepted: %n new memory.", "Accepted: %n new memories."),
    "Rejected %n fact(s).": ("Rejected %n fact.", "Rejected %n facts."),
    "While you were away, %n fact(s) about you were found in your imported history: Memories › Review imported memories… to accept them.": (
        "While you were away, %n fact about you was found in your imported history: Memories › Review imported memories… to accept it.",
        "While you were away, %n facts about you were found in your imported history: Memories › Review imported memories… to accept them.",
    ),
    # h43: Claude projects imported
    "%n project(s): instructions proposed for review, documents kept with your conversations": (
        "%n project: instructions proposed for review, documents kept with your conversations",
        "%n projects: instructions proposed for review, documents kept with your conversations",
    ),
    "%n fact(s) about you found in your %1 history.": (
        "%n fact about you found in your %1 history.",
        "%n facts about you found in your %1 history.",
    ),
    # issue 51: the status says what the other computers have taken in
    "%1 has not yet received your last %n change(s) (since %2)": (
        "%1 has not yet received your last change (since %2)",
        "%1 has not yet received your last %n changes (since %2)",
    ),
    "%1 has not yet received your last %n change(s)": (
        "%1 has not yet received your last change",
        "%1 has not yet received your last %n changes",
    ),
    "has not yet received your last %n change(s) (since %1)": (
        "has not yet received your last change (since %1)",
        "has not yet received your last %n changes (since %1)",
    ),
    "has not yet received your last %n change(s)": (
        "has not yet received your last change",
        "has not yet received your last %n changes",
    ),
    # issue 51: what merges dropped
    "%n edit(s) made here were to memories deleted on %1": (
        "%n edit made here was to a memory deleted on %1",
        "%n edits made here were to memories deleted on %1",
    ),
    "%n edit(s) made on %1 were to memories deleted here": (
        "%n edit made on %1 was to a memory deleted here",
        "%n edits made on %1 were to memories deleted here",
    ),
    "%n message(s) written here were in conversations deleted on %1": (
        "%n message written here was in a conversation deleted on %1",
        "%n messages written here were in conversations deleted on %1",
    ),
    "%n memory change(s) written on %1 after it was removed were undone here": (
        "%n memory change written on %1 after it was removed was undone here",
        "%n memory changes written on %1 after it was removed were undone here",
    ),
    "%n message(s) written on %1 were in conversations deleted here": (
        "%n message written on %1 was in a conversation deleted here",
        "%n messages written on %1 were in conversations deleted here",
    ),
    "Settings > Sync keeps their text until you dismiss them.": (
        "Settings > Sync keeps its text until you dismiss it.",
        "Settings > Sync keeps their text until you dismiss them.",
    ),
    "%n line(s), given in every chat.": (
        "%n line, given in every chat.",
        "%n lines, given in every chat.",
    ),
    "Rewritten: %n line(s).": ("Rewritten: %n line.", "Rewritten: %n lines."),
    # issue 53: one import door, the review as facts are found
    "%n fact(s) you told it about yourself: proposed for you to review": (
        "%n fact you told it about yourself: proposed for you to review",
        "%n facts you told it about yourself: proposed for you to review",
    ),
    "%n fact(s) found in your imported conversations:": (
        "%n fact found in your imported conversations:",
        "%n facts found in your imported conversations:",
    ),
    "%n fact(s) about you found so far in your %1 history.": (
        "%n fact about you found so far in your %1 history.",
        "%n facts about you found so far in your %1 history.",
    ),
    "%n fact(s) about you found so far in your imported history.": (
        "%n fact about you found so far in your imported history.",
        "%n facts about you found so far in your imported history.",
    ),
    "Read %1 of %n message(s).": ("Read %1 of %n message.", "Read %1 of %n messages."),
    "Reject all %n fact(s) found in your imported history?": (
        "Reject the %n fact found in your imported history?",
        "Reject all %n facts found in your imported history?",
    ),
    "%n fact(s) wait for review again.": (
        "%n fact waits for review again.",
        "%n facts wait for review again.",
    ),
    # spaces (issue 55)
    "%n document(s) moved to the shared space.": (
        "%n document moved to the shared space.",
        "%n documents moved to the shared space.",
    ),
    "%n of them are already in other spaces and stay there: Move to space moves them.": (
        "%n of them is already in another space and stays there: Move to space moves it.",
        "%n of them are already in other spaces and stay there: Move to space moves them.",
    ),
    "%n document(s) moved to the space %1.": (
        "%n document moved to the space %1.",
        "%n documents moved to the space %1.",
    ),
    "Made %n memory(s) shared.": ("Made %n memory shared.", "Made %n memories shared."),
    "Moved %n memory(s) to %1.": ("Moved %n memory to %1.", "Moved %n memories to %1."),
}


def fill(ts: Path = TS) -> list[str]:
    """Write the forms into the .ts; returns the counted sources without forms here."""
    tree = ET.parse(ts)
    missing = []
    for context in tree.getroot().iter("context"):
        for m in context.findall("message"):
            if m.get("numerus") != "yes" and "%n" not in (m.findtext("source") or ""):
                context.remove(m)  # English needs no translation of an uncounted string
    for context in list(tree.getroot().iter("context")):
        if not context.findall("message"):
            tree.getroot().remove(context)
    for m in tree.getroot().iter("message"):
        m.set("numerus", "yes")
        src = m.findtext("source") or ""
        forms = EN.get(src)
        if forms is None:
            missing.append(src)
            continue
        tr = m.find("translation")
        if tr is None:
            tr = ET.SubElement(m, "translation")
        tr.attrib.pop("type", None)
        tr.text = None
        for child in list(tr):
            tr.remove(child)
        for form in forms:
            ET.SubElement(tr, "numerusform").text = form
    tree.write(ts, encoding="utf-8", xml_declaration=True)
    return missing


def main() -> int:
    bin_dir = Path(sys.executable).parent
    ui = sorted(str(p) for p in (ROOT / "desktop_mem" / "ui").glob("*.py"))
    subprocess.run(
        [str(bin_dir / "pyside6-lupdate"), *ui, "-no-obsolete",
         "-target-language", "en", "-ts", str(TS)],
        check=True,
    )  # fmt: skip
    missing = fill()
    subprocess.run([str(bin_dir / "pyside6-lrelease"), str(TS), "-qm", str(QM)], check=True)
    for src in missing:
        print(f"no English plural forms: {src!r}", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    raise SystemExit(main())
