<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="en">
<context>
    <name>ConnectionController</name>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/connection.py" line="118" />
        <source>%n memory(s) can now be found by meaning too.</source>
        <translation><numerusform>%n memory can now be found by meaning too.</numerusform><numerusform>%n memories can now be found by meaning too.</numerusform></translation>
    </message>
</context>
<context>
    <name>ConversationListModel</name>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/models.py" line="320" />
        <source>%n message(s), last %1</source>
        <translation><numerusform>%n message, last %1</numerusform><numerusform>%n messages, last %1</numerusform></translation>
    </message>
</context>
<context>
    <name>ConversationsController</name>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/conversations_controller.py" line="181" />
        <source>%n of them will no longer quote what was said in it.</source>
        <translation><numerusform>%n of them will no longer quote what was said in it.</numerusform><numerusform>%n of them will no longer quote what was said in it.</numerusform></translation>
    </message>
</context>
<context>
    <name>DocumentsPage</name>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/documents_ui.py" line="144" />
        <source>%1 (%n document(s))</source>
        <translation><numerusform>%1 (%n document)</numerusform><numerusform>%1 (%n documents)</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/documents_ui.py" line="273" />
        <source>No longer watching the folder; its %n document(s) stay.</source>
        <translation><numerusform>No longer watching the folder; its %n document stays.</numerusform><numerusform>No longer watching the folder; its %n documents stay.</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/documents_ui.py" line="276" />
        <source>No longer watching the folder; its %n document(s) are removed.</source>
        <translation><numerusform>No longer watching the folder; its %n document is removed.</numerusform><numerusform>No longer watching the folder; its %n documents are removed.</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/documents_ui.py" line="294" />
        <source>Remove %n document(s) and every passage of them from desktop-mem, for good? The files themselves are not touched.</source>
        <translation><numerusform>Remove %n document and every passage of it from desktop-mem, for good? The file itself is not touched.</numerusform><numerusform>Remove %n documents and every passage of them from desktop-mem, for good? The files themselves are not touched.</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/documents_ui.py" line="321" />
        <source>shaped %n answer(s)</source>
        <translation><numerusform>shaped %n answer</numerusform><numerusform>shaped %n answers</numerusform></translation>
    </message>
</context>
<context>
    <name>ForgetEverythingDialog</name>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/forget_dialog.py" line="134" />
        <source>Keep my %n conversation(s) to read (the assistant will no longer see them)</source>
        <translation><numerusform>Keep my %n conversation to read (the assistant will no longer see it)</numerusform><numerusform>Keep my %n conversations to read (the assistant will no longer see them)</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/forget_dialog.py" line="139" />
        <source>%n message(s) in all</source>
        <translation><numerusform>%n message in all</numerusform><numerusform>%n messages in all</numerusform></translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/main_window.py" line="477" />
        <source> · %n message(s) not yet learned from</source>
        <translation><numerusform> · %n message not yet learned from</numerusform><numerusform> · %n messages not yet learned from</numerusform></translation>
    </message>
</context>
<context>
    <name>MemoryBrowser</name>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/memory_browser.py" line="346" />
        <source>%n memory(s)</source>
        <translation><numerusform>%n memory</numerusform><numerusform>%n memories</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/memory_browser.py" line="348" />
        <source>%n match(es)</source>
        <translation><numerusform>%n match</numerusform><numerusform>%n matches</numerusform></translation>
    </message>
</context>
<context>
    <name>MemoryController</name>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/memory_controller.py" line="188" />
        <source>Delete %n memory(s) for good, with their history?</source>
        <translation><numerusform>Delete %n memory for good, with its history?</numerusform><numerusform>Delete %n memories for good, with their history?</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/memory_controller.py" line="190" />
        <source>They shaped %n answer(s).</source>
        <translation><numerusform>They shaped %n answer.</numerusform><numerusform>They shaped %n answers.</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/memory_controller.py" line="230" />
        <source>Forgot %n memory(s); the conversations stay to read, but the assistant no longer sees them.</source>
        <translation><numerusform>Forgot %n memory; the conversations stay to read, but the assistant no longer sees them.</numerusform><numerusform>Forgot %n memories; the conversations stay to read, but the assistant no longer sees them.</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/memory_controller.py" line="236" />
        <source>Forgot %n memory(s)</source>
        <translation><numerusform>Forgot %n memory</numerusform><numerusform>Forgot %n memories</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/memory_controller.py" line="237" />
        <source> and deleted %n message(s).</source>
        <translation><numerusform> and deleted %n message.</numerusform><numerusform> and deleted %n messages.</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/memory_controller.py" line="306" />
        <source>Exported %n memory(s) to %1. That file is not encrypted.</source>
        <translation><numerusform>Exported %n memory to %1. That file is not encrypted.</numerusform><numerusform>Exported %n memories to %1. That file is not encrypted.</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/memory_controller.py" line="349" />
        <source>Imported %n memory(s).</source>
        <translation><numerusform>Imported %n memory.</numerusform><numerusform>Imported %n memories.</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/memory_controller.py" line="351" />
        <source>%n already known, skipped.</source>
        <translation><numerusform>%n already known, skipped.</numerusform><numerusform>%n already known, skipped.</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/memory_controller.py" line="372" />
        <source>While you were away, %n memory(s) were tidied (merged or marked out of date); each memory's History can undo it.</source>
        <translation><numerusform>While you were away, %n memory was tidied (merged or marked out of date); its History can undo it.</numerusform><numerusform>While you were away, %n memories were tidied (merged or marked out of date); each memory's History can undo it.</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/memory_controller.py" line="384" />
        <source>Consolidation: %n change(s).</source>
        <translation><numerusform>Consolidation: %n change.</numerusform><numerusform>Consolidation: %n changes.</numerusform></translation>
    </message>
</context>
<context>
    <name>SettingsController</name>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/settings_controller.py" line="147" />
        <source>Re-indexed %n memory(s).</source>
        <translation><numerusform>Re-indexed %n memory.</numerusform><numerusform>Re-indexed %n memories.</numerusform></translation>
    </message>
</context>
<context>
    <name>TurnController</name>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/turns.py" line="284" />
        <source>Deleted %n memory(s)</source>
        <translation><numerusform>Deleted %n memory</numerusform><numerusform>Deleted %n memories</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/turns.py" line="285" />
        <source> and %n message(s).</source>
        <translation><numerusform> and %n message.</numerusform><numerusform> and %n messages.</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/turns.py" line="289" />
        <source>%n earlier message(s) stay to read, but the assistant no longer sees them.</source>
        <translation><numerusform>%n earlier message stays to read, but the assistant no longer sees it.</numerusform><numerusform>%n earlier messages stay to read, but the assistant no longer sees them.</numerusform></translation>
    </message>
</context>
</TS>