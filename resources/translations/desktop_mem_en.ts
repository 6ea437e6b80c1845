<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="en">
<context>
    <name>AboutDialog</name>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/about_dialog.py" line="194" />
        <source>%n line(s), given in every chat.</source>
        <translation><numerusform>%n line, given in every chat.</numerusform><numerusform>%n lines, given in every chat.</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/about_dialog.py" line="294" />
        <source>Rewritten: %n line(s).</source>
        <translation><numerusform>Rewritten: %n line.</numerusform><numerusform>Rewritten: %n lines.</numerusform></translation>
    </message>
    </context>
<context>
    <name>AppsPage</name>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/apps_ui.py" line="432" />
        <source> (%n time(s) that day)</source>
        <translation><numerusform> (%n time that day)</numerusform><numerusform> (%n times that day)</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/apps_ui.py" line="438" />
        <source>The log keeps %n day(s); an app's calls of one kind on one memory in a day are one line.</source>
        <translation><numerusform>The log keeps %n day; an app's calls of one kind on one memory in a day are one line.</numerusform><numerusform>The log keeps %n days; an app's calls of one kind on one memory in a day are one line.</numerusform></translation>
    </message>
</context>
<context>
    <name>BackupWords</name>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/backup_ui.py" line="213" />
        <source>%n memory(s)</source>
        <translation><numerusform>%n memory</numerusform><numerusform>%n memories</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/backup_ui.py" line="214" />
        <source>%n conversation(s)</source>
        <translation><numerusform>%n conversation</numerusform><numerusform>%n conversations</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/backup_ui.py" line="215" />
        <source>%n document(s)</source>
        <translation><numerusform>%n document</numerusform><numerusform>%n documents</numerusform></translation>
    </message>
    </context>
<context>
    <name>ConnectionController</name>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/connection.py" line="284" />
        <source>Indexed: %n item(s) can now be found by meaning too.</source>
        <translation><numerusform>Indexed: %n item can now be found by meaning too.</numerusform><numerusform>Indexed: %n items can now be found by meaning too.</numerusform></translation>
    </message>
    </context>
<context>
    <name>ConversationListModel</name>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/item_models.py" line="370" />
        <source>%n message(s), last %1</source>
        <translation><numerusform>%n message, last %1</numerusform><numerusform>%n messages, last %1</numerusform></translation>
    </message>
    </context>
<context>
    <name>ConversationsController</name>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/conversations_controller.py" line="398" />
        <source>%n of them will no longer quote what was said in it.</source>
        <translation><numerusform>%n of them will no longer quote what was said in it.</numerusform><numerusform>%n of them will no longer quote what was said in it.</numerusform></translation>
    </message>
    </context>
<context>
    <name>DocumentsPage</name>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/documents_ui.py" line="310" />
        <source>%n document(s) moved to the shared space.</source>
        <translation><numerusform>%n document moved to the shared space.</numerusform><numerusform>%n documents moved to the shared space.</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/documents_ui.py" line="311" />
        <source>%n document(s) moved to the space %1.</source>
        <translation><numerusform>%n document moved to the space %1.</numerusform><numerusform>%n documents moved to the space %1.</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/documents_ui.py" line="355" />
        <source>%1 (%n document(s))</source>
        <translation><numerusform>%1 (%n document)</numerusform><numerusform>%1 (%n documents)</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/documents_ui.py" line="462" />
        <source>%n watched folder(s) could not be read (a drive not connected?): their documents are kept.</source>
        <translation><numerusform>%n watched folder could not be read (a drive not connected?): its documents are kept.</numerusform><numerusform>%n watched folders could not be read (a drive not connected?): their documents are kept.</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/documents_ui.py" line="471" />
        <source>%n passage(s) can be found by their words until the embedding model is there.</source>
        <translation><numerusform>%n passage can be found by its words until the embedding model is there.</numerusform><numerusform>%n passages can be found by their words until the embedding model is there.</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/documents_ui.py" line="487" />
        <source>%n of them are already in other spaces and stay there: Move to space moves them.</source>
        <translation><numerusform>%n of them is already in another space and stays there: Move to space moves it.</numerusform><numerusform>%n of them are already in other spaces and stay there: Move to space moves them.</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/documents_ui.py" line="548" />
        <source>No longer watching the folder; its %n document(s) stay.</source>
        <translation><numerusform>No longer watching the folder; its %n document stays.</numerusform><numerusform>No longer watching the folder; its %n documents stay.</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/documents_ui.py" line="551" />
        <source>No longer watching the folder; its %n document(s) are removed.</source>
        <translation><numerusform>No longer watching the folder; its %n document is removed.</numerusform><numerusform>No longer watching the folder; its %n documents are removed.</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/documents_ui.py" line="569" />
        <source>Remove %n document(s) and every passage of them from desktop-mem, for good? The files themselves are not touched.</source>
        <translation><numerusform>Remove %n document and every passage of it from desktop-mem, for good? The file itself is not touched.</numerusform><numerusform>Remove %n documents and every passage of them from desktop-mem, for good? The files themselves are not touched.</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/documents_ui.py" line="602" />
        <source>shaped %n answer(s)</source>
        <translation><numerusform>shaped %n answer</numerusform><numerusform>shaped %n answers</numerusform></translation>
    </message>
    </context>
<context>
    <name>ForgetDialog</name>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/forget_dialog.py" line="60" />
        <source>Memories (%n)</source>
        <translation><numerusform>Memories (%n)</numerusform><numerusform>Memories (%n)</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/forget_dialog.py" line="67" />
        <source>Earlier messages that mention it (%n)</source>
        <translation><numerusform>Earlier messages that mention it (%n)</numerusform><numerusform>Earlier messages that mention it (%n)</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/forget_dialog.py" line="76" />
        <source>%n more memory(s) or message(s) mention it: after these, say the same “forget …” again.</source>
        <translation><numerusform>%n more memory or message mentions it: after these, say the same “forget …” again.</numerusform><numerusform>%n more memories or messages mention it: after these, say the same “forget …” again.</numerusform></translation>
    </message>
    </context>
<context>
    <name>ForgetEverythingDialog</name>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/forget_dialog.py" line="190" />
        <source>This deletes all %n memory(s) of this profile for good, and the earlier messages that said them: every conversation goes too, unless you keep them below. Your documents stay.</source>
        <translation><numerusform>This deletes the %n memory of this profile for good, and the earlier messages that said it: every conversation goes too, unless you keep them below. Your documents stay.</numerusform><numerusform>This deletes all %n memories of this profile for good, and the earlier messages that said them: every conversation goes too, unless you keep them below. Your documents stay.</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/forget_dialog.py" line="206" />
        <source>Keep my %n conversation(s) to read (the assistant will no longer see them)</source>
        <translation><numerusform>Keep my %n conversation to read (the assistant will no longer see it)</numerusform><numerusform>Keep my %n conversations to read (the assistant will no longer see them)</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/forget_dialog.py" line="211" />
        <source>%n message(s) in all</source>
        <translation><numerusform>%n message in all</numerusform><numerusform>%n messages in all</numerusform></translation>
    </message>
</context>
<context>
    <name>ImportController</name>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/import_dialog.py" line="85" />
        <source>%n new conversation(s)</source>
        <translation><numerusform>%n new conversation</numerusform><numerusform>%n new conversations</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/import_dialog.py" line="86" />
        <source>%n message(s)</source>
        <translation><numerusform>%n message</numerusform><numerusform>%n messages</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/import_dialog.py" line="94" />
        <source>%n conversation(s) imported before: not added again</source>
        <translation><numerusform>%n conversation imported before: not added again</numerusform><numerusform>%n conversations imported before: not added again</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/import_dialog.py" line="97" />
        <source>%n empty conversation(s): left out</source>
        <translation><numerusform>%n empty conversation: left out</numerusform><numerusform>%n empty conversations: left out</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/import_dialog.py" line="99" />
        <source>%n saved memory(s): proposed for you to review</source>
        <translation><numerusform>%n saved memory: proposed for you to review</numerusform><numerusform>%n saved memories: proposed for you to review</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/import_dialog.py" line="103" />
        <source>%n fact(s) you told it about yourself: proposed for you to review</source>
        <translation><numerusform>%n fact you told it about yourself: proposed for you to review</numerusform><numerusform>%n facts you told it about yourself: proposed for you to review</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/import_dialog.py" line="111" />
        <source>%n project(s): instructions proposed for review, documents kept with your conversations</source>
        <translation><numerusform>%n project: instructions proposed for review, documents kept with your conversations</numerusform><numerusform>%n projects: instructions proposed for review, documents kept with your conversations</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/import_dialog.py" line="119" />
        <source>%n entry(s) in a form this app does not know: skipped</source>
        <translation><numerusform>%n entry in a form this app does not know: skipped</numerusform><numerusform>%n entries in a form this app does not know: skipped</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/import_dialog.py" line="274" />
        <source>Each of its %n project(s) goes to a space of its own.</source>
        <translation><numerusform>Its project goes to a space of its own.</numerusform><numerusform>Each of its %n projects goes to a space of its own.</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/import_dialog.py" line="304" />
        <source>Imported %n conversation(s)</source>
        <translation><numerusform>Imported %n conversation</numerusform><numerusform>Imported %n conversations</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/import_dialog.py" line="305" />
        <source>%n message(s).</source>
        <translation><numerusform>%n message.</numerusform><numerusform>%n messages.</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/import_dialog.py" line="350" />
        <source>%n fact(s) found in your imported conversations:</source>
        <translation><numerusform>%n fact found in your imported conversations:</numerusform><numerusform>%n facts found in your imported conversations:</numerusform></translation>
    </message>
    </context>
<context>
    <name>MemoryBrowser</name>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/memory_browser.py" line="391" />
        <source>%n memory(s)</source>
        <translation><numerusform>%n memory</numerusform><numerusform>%n memories</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/memory_browser.py" line="394" />
        <location filename="../../desktop_mem/ui/memory_browser.py" line="397" />
        <source>%n match(es)</source>
        <translation><numerusform>%n match</numerusform><numerusform>%n matches</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/memory_browser.py" line="394" />
        <source>%n weaker</source>
        <translation><numerusform>%n weaker</numerusform><numerusform>%n weaker</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/memory_browser.py" line="399" />
        <source>No relevant match; %n weaker one(s) below</source>
        <translation><numerusform>No relevant match; %n weaker one below</numerusform><numerusform>No relevant match; %n weaker ones below</numerusform></translation>
    </message>
    </context>
<context>
    <name>MemoryController</name>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/memory_controller.py" line="112" />
        <source>Made %n memory(s) shared.</source>
        <translation><numerusform>Made %n memory shared.</numerusform><numerusform>Made %n memories shared.</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/memory_controller.py" line="114" />
        <source>Moved %n memory(s) to %1.</source>
        <translation><numerusform>Moved %n memory to %1.</numerusform><numerusform>Moved %n memories to %1.</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/memory_controller.py" line="387" />
        <source>Delete %n memory(s) for good, with their history?</source>
        <translation><numerusform>Delete %n memory for good, with its history?</numerusform><numerusform>Delete %n memories for good, with their history?</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/memory_controller.py" line="390" />
        <source>It shaped %n answer(s).</source>
        <translation><numerusform>It shaped %n answer.</numerusform><numerusform>It shaped %n answers.</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/memory_controller.py" line="392" />
        <source>They shaped %n answer(s).</source>
        <translation><numerusform>They shaped %n answer.</numerusform><numerusform>They shaped %n answers.</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/memory_controller.py" line="409" />
        <source>Deleted %n memory(s).</source>
        <translation><numerusform>Deleted %n memory.</numerusform><numerusform>Deleted %n memories.</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/memory_controller.py" line="437" />
        <source>Forgot %n memory(s); the conversations stay to read, but the assistant no longer sees them.</source>
        <translation><numerusform>Forgot %n memory; the conversations stay to read, but the assistant no longer sees them.</numerusform><numerusform>Forgot %n memories; the conversations stay to read, but the assistant no longer sees them.</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/memory_controller.py" line="443" />
        <source>Forgot %n memory(s)</source>
        <translation><numerusform>Forgot %n memory</numerusform><numerusform>Forgot %n memories</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/memory_controller.py" line="444" />
        <source> and deleted %n message(s).</source>
        <translation><numerusform> and deleted %n message.</numerusform><numerusform> and deleted %n messages.</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/memory_controller.py" line="501" />
        <source>Exported %n memory(s) to %1. That file is not encrypted.</source>
        <translation><numerusform>Exported %n memory to %1. That file is not encrypted.</numerusform><numerusform>Exported %n memories to %1. That file is not encrypted.</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/memory_controller.py" line="544" />
        <source>Imported %n memory(s).</source>
        <translation><numerusform>Imported %n memory.</numerusform><numerusform>Imported %n memories.</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/memory_controller.py" line="546" />
        <source>%n already known, skipped.</source>
        <translation><numerusform>%n already known, skipped.</numerusform><numerusform>%n already known, skipped.</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/memory_controller.py" line="559" />
        <source>While you were away, %n memory(s) were tidied (merged or marked out of date); each memory's History can undo it.</source>
        <translation><numerusform>While you were away, %n memory was tidied (merged or marked out of date); its History can undo it.</numerusform><numerusform>While you were away, %n memories were tidied (merged or marked out of date); each memory's History can undo it.</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/memory_controller.py" line="569" />
        <source>Consolidation: %n change(s).</source>
        <translation><numerusform>Consolidation: %n change.</numerusform><numerusform>Consolidation: %n changes.</numerusform></translation>
    </message>
</context>
<context>
    <name>ReviewDialog</name>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/review_dialog.py" line="229" />
        <source>%n fact(s) about you found so far in your %1 history.</source>
        <translation><numerusform>%n fact about you found so far in your %1 history.</numerusform><numerusform>%n facts about you found so far in your %1 history.</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/review_dialog.py" line="231" />
        <source>%n fact(s) about you found so far in your imported history.</source>
        <translation><numerusform>%n fact about you found so far in your imported history.</numerusform><numerusform>%n facts about you found so far in your imported history.</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/review_dialog.py" line="235" />
        <source>%n fact(s) about you found in your %1 history.</source>
        <translation><numerusform>%n fact about you found in your %1 history.</numerusform><numerusform>%n facts about you found in your %1 history.</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/review_dialog.py" line="237" />
        <source>%n fact(s) about you found in your imported history.</source>
        <translation><numerusform>%n fact about you found in your imported history.</numerusform><numerusform>%n facts about you found in your imported history.</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/review_dialog.py" line="257" />
        <source>Read %1 of %n message(s).</source>
        <translation><numerusform>Read %1 of %n message.</numerusform><numerusform>Read %1 of %n messages.</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/review_dialog.py" line="265" />
        <source>%n of your imported message(s) not yet read for facts.</source>
        <translation><numerusform>%n of your imported messages not yet read for facts.</numerusform><numerusform>%n of your imported messages not yet read for facts.</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/review_dialog.py" line="317" />
        <source>Accepted: %n new memory(s).</source>
        <translation><numerusform>Accepted: %n new memory.</numerusform><numerusform>Accepted: %n new memories.</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/review_dialog.py" line="333" />
        <source>Reject all %n fact(s) found in your imported history?</source>
        <translation><numerusform>Reject the %n fact found in your imported history?</numerusform><numerusform>Reject all %n facts found in your imported history?</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/review_dialog.py" line="358" />
        <source>Rejected %n fact(s).</source>
        <translation><numerusform>Rejected %n fact.</numerusform><numerusform>Rejected %n facts.</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/review_dialog.py" line="368" />
        <source>%n fact(s) wait for review again.</source>
        <translation><numerusform>%n fact waits for review again.</numerusform><numerusform>%n facts wait for review again.</numerusform></translation>
    </message>
</context>
<context>
    <name>SettingsController</name>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/settings_controller.py" line="290" />
        <source>Re-indexed %n item(s) with %1.</source>
        <translation><numerusform>Re-indexed %n item with %1.</numerusform><numerusform>Re-indexed %n items with %1.</numerusform></translation>
    </message>
    </context>
<context>
    <name>SpacesPage</name>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/spaces_ui.py" line="420" />
        <source>%n memory(s)</source>
        <translation><numerusform>%n memory</numerusform><numerusform>%n memories</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/spaces_ui.py" line="421" />
        <source>%n conversation(s)</source>
        <translation><numerusform>%n conversation</numerusform><numerusform>%n conversations</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/spaces_ui.py" line="422" />
        <source>%n document(s)</source>
        <translation><numerusform>%n document</numerusform><numerusform>%n documents</numerusform></translation>
    </message>
    </context>
<context>
    <name>StatusBar</name>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/status_bar.py" line="114" />
        <source>● Connected · %n not indexed yet</source>
        <translation><numerusform>● Connected · %n not indexed yet</numerusform><numerusform>● Connected · %n not indexed yet</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/status_bar.py" line="138" />
        <source> · %n message(s) not yet learned from</source>
        <translation><numerusform> · %n message not yet learned from</numerusform><numerusform> · %n messages not yet learned from</numerusform></translation>
    </message>
    </context>
<context>
    <name>SyncPage</name>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/sync_ui.py" line="145" />
        <source>%n memory(s)</source>
        <translation><numerusform>%n memory</numerusform><numerusform>%n memories</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/sync_ui.py" line="147" />
        <source>%n conversation(s)</source>
        <translation><numerusform>%n conversation</numerusform><numerusform>%n conversations</numerusform></translation>
    </message>
    </context>
<context>
    <name>SyncWords</name>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/sync_words.py" line="37" />
        <source>%n min ago</source>
        <translation><numerusform>%n min ago</numerusform><numerusform>%n min ago</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/sync_words.py" line="39" />
        <source>%n hour(s) ago</source>
        <translation><numerusform>%n hour ago</numerusform><numerusform>%n hours ago</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/sync_words.py" line="76" />
        <source>%1 has not yet received your last %n change(s) (since %2)</source>
        <translation><numerusform>%1 has not yet received your last change (since %2)</numerusform><numerusform>%1 has not yet received your last %n changes (since %2)</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/sync_words.py" line="78" />
        <source>%1 has not yet received your last %n change(s)</source>
        <translation><numerusform>%1 has not yet received your last change</numerusform><numerusform>%1 has not yet received your last %n changes</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/sync_words.py" line="121" />
        <source>has not yet received your last %n change(s) (since %1)</source>
        <translation><numerusform>has not yet received your last change (since %1)</numerusform><numerusform>has not yet received your last %n changes (since %1)</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/sync_words.py" line="124" />
        <source>has not yet received your last %n change(s)</source>
        <translation><numerusform>has not yet received your last change</numerusform><numerusform>has not yet received your last %n changes</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/sync_words.py" line="131" />
        <source>%n memory(s) were edited on two computers at once</source>
        <translation><numerusform>%n memory was edited on two computers at once</numerusform><numerusform>%n memories were edited on two computers at once</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/sync_words.py" line="136" />
        <source>%n memory(s) were edited on two computers at once: the other version is in its history (Settings &gt; Sync lists them).</source>
        <translation><numerusform>%n memory was edited on two computers at once: the other version is in its history (Settings &gt; Sync lists them).</numerusform><numerusform>%n memories were edited on two computers at once: the other version is in its history (Settings &gt; Sync lists them).</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/sync_words.py" line="175" />
        <source>%n file(s) in the sync folder are ignored: each was refused once for what it is (a link, a FIFO, too large, or not this profile's), and is not read again until it changes.</source>
        <translation><numerusform>%n file in the sync folder is ignored: it was refused once for what it is (a link, a FIFO, too large, or not this profile's), and is not read again until it changes.</numerusform><numerusform>%n files in the sync folder are ignored: each was refused once for what it is (a link, a FIFO, too large, or not this profile's), and is not read again until it changes.</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/sync_words.py" line="186" />
        <source>%n edit(s) made here were to memories deleted on %1</source>
        <translation><numerusform>%n edit made here was to a memory deleted on %1</numerusform><numerusform>%n edits made here were to memories deleted on %1</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/sync_words.py" line="188" />
        <source>%n edit(s) made on %1 were to memories deleted here</source>
        <translation><numerusform>%n edit made on %1 was to a memory deleted here</numerusform><numerusform>%n edits made on %1 were to memories deleted here</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/sync_words.py" line="190" />
        <source>%n message(s) written here were in conversations deleted on %1</source>
        <translation><numerusform>%n message written here was in a conversation deleted on %1</numerusform><numerusform>%n messages written here were in conversations deleted on %1</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/sync_words.py" line="193" />
        <source>%n memory change(s) written on %1 after it was removed were undone here</source>
        <translation><numerusform>%n memory change written on %1 after it was removed was undone here</numerusform><numerusform>%n memory changes written on %1 after it was removed were undone here</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/sync_words.py" line="196" />
        <source>%n message(s) written on %1 were in conversations deleted here</source>
        <translation><numerusform>%n message written on %1 was in a conversation deleted here</numerusform><numerusform>%n messages written on %1 were in conversations deleted here</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/sync_words.py" line="218" />
        <source>Settings &gt; Sync keeps their text until you dismiss them.</source>
        <translation><numerusform>Settings &gt; Sync keeps its text until you dismiss it.</numerusform><numerusform>Settings &gt; Sync keeps their text until you dismiss them.</numerusform></translation>
    </message>
    </context>
<context>
    <name>TurnController</name>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/turns.py" line="433" />
        <source>Deleted %n memory(s)</source>
        <translation><numerusform>Deleted %n memory</numerusform><numerusform>Deleted %n memories</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/turns.py" line="433" />
        <source> and %n message(s).</source>
        <translation><numerusform> and %n message.</numerusform><numerusform> and %n messages.</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/turns.py" line="436" />
        <source>Deleted %n memory(s).</source>
        <translation><numerusform>Deleted %n memory.</numerusform><numerusform>Deleted %n memories.</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/turns.py" line="438" />
        <source>Deleted %n message(s).</source>
        <translation><numerusform>Deleted %n message.</numerusform><numerusform>Deleted %n messages.</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/turns.py" line="442" />
        <source>Kept the rest of %n memory(s).</source>
        <translation><numerusform>Kept the rest of %n memory.</numerusform><numerusform>Kept the rest of %n memories.</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/turns.py" line="446" />
        <source>%n earlier message(s) stay to read, but the assistant no longer sees them.</source>
        <translation><numerusform>%n earlier message stays to read, but the assistant no longer sees it.</numerusform><numerusform>%n earlier messages stay to read, but the assistant no longer sees them.</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/turns.py" line="455" />
        <source>%n memory(s) or message(s) still mention it: say the same “forget …” again to see them.</source>
        <translation><numerusform>%n memory or message still mentions it: say the same “forget …” again to see it.</numerusform><numerusform>%n memories or messages still mention it: say the same “forget …” again to see them.</numerusform></translation>
    </message>
    </context>
<context>
    <name>errors</name>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/errors.py" line="74" />
        <source>Nothing was imported: %n line(s) have problems (see the details).</source>
        <translation><numerusform>Nothing was imported: %n line has problems (see the details).</numerusform><numerusform>Nothing was imported: %n lines have problems (see the details).</numerusform></translation>
    </message>
    </context>
</TS>