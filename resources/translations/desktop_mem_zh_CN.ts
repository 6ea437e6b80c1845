<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
<context>
    <name>AppsPage</name>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="37" />
        <source>Paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="38" />
        <source>Read</source>
        <translation>只读</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="39" />
        <source>Read and write</source>
        <translation>读写</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="40" />
        <source>Read, write and delete</source>
        <translation>读写和删除</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="48" />
        <source>searched</source>
        <translation>搜索</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="49" />
        <source>listed</source>
        <translation>列出</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="50" />
        <source>read the pinned memories</source>
        <translation>读取置顶记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="51" />
        <source>wrote</source>
        <translation>写入</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="52" />
        <source>deleted</source>
        <translation>删除</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="55" />
        <source>refused: %1</source>
        <translation>已拒绝：%1</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="74" />
        <source>AI apps on this computer (Claude Desktop, Cursor, VS Code, LM Studio…) can use your memory over MCP. Connect an app here: it gets a key that only its configuration holds, and may only do what you choose; a change applies at once.</source>
        <translation>这台电脑上的 AI 应用（Claude Desktop、Cursor、VS Code、LM Studio…）可以通过 MCP 使用你的记忆。在这里连接应用：它会得到一把只保存在它自己配置里的密钥，并且只能做你允许的事；更改立即生效。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="92" />
        <source>No app is connected yet.</source>
        <translation>还没有连接任何应用。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="96" />
        <source>Connect an app…</source>
        <translation>连接应用…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="98" />
        <source>New key…</source>
        <translation>新密钥…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="100" />
        <source>Remove…</source>
        <translation>移除…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="110" />
        <source>Apps without a key may</source>
        <translation>没有密钥的应用可以</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="113" />
        <source>Nothing</source>
        <translation>什么都不做</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="83" />
        <source>App</source>
        <translation>应用</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="83" />
        <source>May</source>
        <translation>权限</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="83" />
        <source>Last use</source>
        <translation>上次使用</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="83" />
        <source>Reads / writes</source>
        <translation>读取 / 写入</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="103" />
        <source>Clear this app's log</source>
        <translation>清除此应用的记录</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="133" />
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="150" />
        <source>Connects as “%1”</source>
        <translation>连接时自称“%1”</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="161" />
        <source>needs a new key</source>
        <translation>需要新密钥</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="165" />
        <source>not yet</source>
        <translation>尚未使用</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="189" />
        <source>Connect an app</source>
        <translation>连接应用</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="190" />
        <source>A name for the app (for you: the app is known by its key):</source>
        <translation>给这个应用起个名字（只是给你看的：应用靠它的密钥被识别）：</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="211" />
        <source>New key</source>
        <translation>新密钥</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="213" />
        <source>Give %1 a new key? Its old key stops working at once: paste the new configuration into the app.</source>
        <translation>给 %1 一把新密钥？旧密钥会立即失效：请把新的配置粘贴到该应用中。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="231" />
        <source>Remove app</source>
        <translation>移除应用</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="233" />
        <source>Remove %1? Its key stops working at once and its log is deleted; the memories it wrote stay.</source>
        <translation>移除 %1？它的密钥会立即失效，它的记录也会删除；它写入的记忆会保留。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="248" />
        <source>Connect an app to see the configuration to paste into it.</source>
        <translation>连接一个应用后，这里会显示要粘贴到它里面的配置。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="255" />
        <source>Paste this into %1's MCP configuration. It holds the app's key: keep it as private as a password. It is shown only now (a new key can be made later).</source>
        <translation>把这段粘贴到 %1 的 MCP 配置中。它包含该应用的密钥：请像密码一样保密。它只显示这一次（以后可以生成新密钥）。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="272" />
        <source> memory %1</source>
        <translation> 记忆 %1</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="275" />
        <source>Nothing recorded.</source>
        <translation>没有记录。</translation>
    </message>
</context>
<context>
    <name>BackupPage</name>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="248" />
        <source>A backup is encrypted like your memories. Put the folder in Syncthing, Dropbox or iCloud Drive to carry your memories to another computer: only encrypted data is synced.</source>
        <translation>备份和你的记忆一样是加密的。把备份文件夹放进 Syncthing、Dropbox 或 iCloud 云盘，就能把记忆带到另一台电脑：同步的只有加密数据。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="258" />
        <source>No folder chosen</source>
        <translation>未选择文件夹</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="259" />
        <source>Choose…</source>
        <translation>选择…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="263" />
        <location filename="../../desktop_mem/ui/backup_ui.py" line="308" />
        <source>Backup folder</source>
        <translation>备份文件夹</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="264" />
        <source>Back up every day</source>
        <translation>每天备份</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="271" />
        <source>Backups to keep</source>
        <translation>保留的备份数</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="274" />
        <source>Back up now</source>
        <translation>立即备份</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="276" />
        <source>Restore a backup…</source>
        <translation>恢复备份…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="286" />
        <source>New recovery code…</source>
        <translation>新的恢复码…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="288" />
        <source>Makes a new code and shows it once; the old one stops opening this profile.</source>
        <translation>生成新的恢复码并只显示一次；旧的恢复码将不再能打开此配置。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="302" />
        <source>No backup yet.</source>
        <translation>还没有备份。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="304" />
        <source>Last backup: %1</source>
        <translation>上次备份：%1</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="316" />
        <source>Choose a folder for the backups first.</source>
        <translation>请先选择备份文件夹。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="321" />
        <source>Backing up…</source>
        <translation>正在备份…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="325" />
        <source>Backed up to %1</source>
        <translation>已备份到 %1</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="329" />
        <source>A backup is already running.</source>
        <translation>已有一个备份正在进行。</translation>
    </message>
</context>
<context>
    <name>Changes</name>
    <message>
        <location filename="../../desktop_mem/ui/changes.py" line="16" />
        <source>Remembered</source>
        <translation>已记住</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/changes.py" line="17" />
        <source>Updated</source>
        <translation>已更新</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/changes.py" line="18" />
        <source>Marked as no longer true</source>
        <translation>已标记为不再成立</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/changes.py" line="19" />
        <source>Merged</source>
        <translation>已合并</translation>
    </message>
</context>
<context>
    <name>ChatView</name>
    <message>
        <location filename="../../desktop_mem/ui/chat_view.py" line="94" />
        <source>Incognito: nothing is remembered or stored</source>
        <translation>无痕模式：不记忆，也不保存</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/chat_view.py" line="99" />
        <source>Chat model</source>
        <translation>聊天模型</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/chat_view.py" line="123" />
        <location filename="../../desktop_mem/ui/chat_view.py" line="275" />
        <source>Say hello. What you tell me stays on this computer, encrypted.</source>
        <translation>打个招呼吧。你告诉我的一切都加密保存在这台电脑上。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/chat_view.py" line="135" />
        <source>Message (Enter to send, Shift+Enter for a new line)</source>
        <translation>输入消息（Enter 发送，Shift+Enter 换行）</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/chat_view.py" line="140" />
        <source>Send</source>
        <translation>发送</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/chat_view.py" line="142" />
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/chat_view.py" line="271" />
        <source>Incognito: nothing you say here is remembered or stored, and no memory is used. Closing it leaves no trace.</source>
        <translation>无痕模式：你在这里说的话不会被记住或保存，也不会使用任何记忆。关闭后不留痕迹。</translation>
    </message>
</context>
<context>
    <name>ConnectionController</name>
    <message>
        <location filename="../../desktop_mem/ui/connection.py" line="52" />
        <source>Nothing answers at %1.</source>
        <translation>%1 没有响应。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/connection.py" line="61" />
        <source>Connecting to Ollama…</source>
        <translation>正在连接 Ollama…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/connection.py" line="95" />
        <source>Preparing search for %1…</source>
        <translation>正在为 %1 准备搜索…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/connection.py" line="112" />
        <source>Indexing memories…</source>
        <translation>正在为记忆建立索引…</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/connection.py" line="118" />
        <source>%n memory(s) can now be found by meaning too.</source>
        <translation><numerusform>%n 条记忆现在也能按含义找到了。</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/connection.py" line="138" />
        <source>The model server is not answering: you can read and search, not send.</source>
        <translation>模型服务器没有响应：你可以阅读和搜索，但不能发送。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/connection.py" line="157" />
        <source>Embedding model not installed</source>
        <translation>未安装嵌入模型</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/connection.py" line="159" />
        <source>The embedding model %1 is not installed in Ollama, so memories are found by their words only, not by their meaning. Download it now? Memories saved meanwhile are indexed once it is there.</source>
        <translation>Ollama 中没有安装嵌入模型 %1，因此只能按字词查找记忆，无法按含义查找。现在下载吗？在此期间保存的记忆会在下载完成后建立索引。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/connection.py" line="164" />
        <source>Model not installed</source>
        <translation>模型未安装</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/connection.py" line="165" />
        <source>The chat model %1 is not installed in Ollama. Download it now?</source>
        <translation>Ollama 中没有安装聊天模型 %1。现在下载吗？</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/connection.py" line="180" />
        <source>Downloading…</source>
        <translation>正在下载…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/connection.py" line="189" />
        <source>Download failed</source>
        <translation>下载失败</translation>
    </message>
</context>
<context>
    <name>ConversationListModel</name>
    <message>
        <location filename="../../desktop_mem/ui/models.py" line="241" />
        <source>Pinned</source>
        <translation>置顶</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/models.py" line="242" />
        <source>Today</source>
        <translation>今天</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/models.py" line="243" />
        <source>Yesterday</source>
        <translation>昨天</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/models.py" line="244" />
        <source>Previous 7 days</source>
        <translation>过去 7 天</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/models.py" line="245" />
        <source>Previous 30 days</source>
        <translation>过去 30 天</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/models.py" line="246" />
        <source>Older</source>
        <translation>更早</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/models.py" line="318" />
        <source>New conversation</source>
        <translation>新对话</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/models.py" line="320" />
        <source>%n message(s), last %1</source>
        <translation><numerusform>%n 条消息，最近 %1</numerusform></translation>
    </message>
</context>
<context>
    <name>ConversationsController</name>
    <message>
        <location filename="../../desktop_mem/ui/conversations_controller.py" line="59" />
        <source>Incognito conversation</source>
        <translation>无痕对话</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/conversations_controller.py" line="59" />
        <location filename="../../desktop_mem/ui/conversations_controller.py" line="69" />
        <source>New conversation</source>
        <translation>新对话</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/conversations_controller.py" line="105" />
        <source>Unpin</source>
        <translation>取消置顶</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/conversations_controller.py" line="105" />
        <source>Pin to the top</source>
        <translation>置顶</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/conversations_controller.py" line="106" />
        <source>Rename…</source>
        <translation>重命名…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/conversations_controller.py" line="107" />
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/conversations_controller.py" line="108" />
        <source>Delete…</source>
        <translation>删除…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/conversations_controller.py" line="143" />
        <source>Rename</source>
        <translation>重命名</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/conversations_controller.py" line="143" />
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/conversations_controller.py" line="162" />
        <source>Export conversation</source>
        <translation>导出对话</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/conversations_controller.py" line="164" />
        <source>Markdown (*.md);;JSON (*.json)</source>
        <translation>Markdown (*.md);;JSON (*.json)</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/conversations_controller.py" line="178" />
        <source>Delete this conversation for good? Memories learned from it stay.</source>
        <translation>永久删除这个对话？从中学到的记忆会保留。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/conversations_controller.py" line="181" />
        <source>%n of them will no longer quote what was said in it.</source>
        <translation><numerusform>其中 %n 条记忆将不再引用这个对话中的内容。</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/conversations_controller.py" line="183" />
        <source>Delete conversation</source>
        <translation>删除对话</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/conversations_controller.py" line="195" />
        <source>Deleting…</source>
        <translation>正在删除…</translation>
    </message>
</context>
<context>
    <name>DocumentsPage</name>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="57" />
        <source>Your documents (Markdown, text, PDF, Word, HTML) as knowledge for the chat: their passages are stored encrypted with your memories, the files are only read. Drop files or folders here; a folder is watched for changes.</source>
        <translation>把你的文档（Markdown、文本、PDF、Word、HTML）作为聊天的知识：文档片段和记忆一起加密保存，文件本身只读不改。把文件或文件夹拖到这里；文件夹的变化会被跟踪。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="65" />
        <source>Add files…</source>
        <translation>添加文件…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="67" />
        <source>Add folder…</source>
        <translation>添加文件夹…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="69" />
        <source>Re-read now</source>
        <translation>立即重新读取</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="71" />
        <source>Remove…</source>
        <translation>移除…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="75" />
        <source>Pause background re-reading</source>
        <translation>暂停后台重新读取</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="84" />
        <source>Document</source>
        <translation>文档</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="84" />
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="84" />
        <source>Passages</source>
        <translation>片段</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="84" />
        <source>Where</source>
        <translation>位置</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="97" />
        <source>Watched folders</source>
        <translation>监视的文件夹</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="103" />
        <source>Stop watching…</source>
        <translation>停止监视…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="107" />
        <source>No documents yet: add files or folders, or drop them here.</source>
        <translation>还没有文档：添加文件或文件夹，或拖到这里。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="111" />
        <source>Search the documents' passages</source>
        <translation>搜索文档片段</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="136" />
        <source>%1 (%2 pages)</source>
        <translation>%1（%2 页）</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/documents_ui.py" line="144" />
        <source>%1 (%n document(s))</source>
        <translation><numerusform>%1（%n 个文档）</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="149" />
        <source>none: add a folder to watch it</source>
        <translation>无：添加一个文件夹即可监视它</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="161" />
        <source>Add documents</source>
        <translation>添加文档</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="163" />
        <source>Documents (*.md *.markdown *.txt *.pdf *.docx *.html *.htm)</source>
        <translation>文档 (*.md *.markdown *.txt *.pdf *.docx *.html *.htm)</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="169" />
        <source>Add a folder</source>
        <translation>添加文件夹</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="185" />
        <source>Documents are being read: wait for it to finish.</source>
        <translation>正在读取文档：请等它完成。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="209" />
        <source>Reading documents…</source>
        <translation>正在读取文档…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="215" />
        <source>Documents: %1 added, %2 updated, %3 removed.</source>
        <translation>文档：添加 %1 个，更新 %2 个，移除 %3 个。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="222" />
        <source>Some files were not added</source>
        <translation>部分文件没有添加</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="255" />
        <source>Stop watching</source>
        <translation>停止监视</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="258" />
        <source>Stop watching %1? Its files are not touched. Remove its documents from desktop-mem too, or keep them (no longer re-read)?</source>
        <translation>停止监视 %1？其中的文件不会被改动。要同时从 desktop-mem 中移除它的文档，还是保留它们（不再重新读取）？</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="262" />
        <source>Remove them</source>
        <translation>移除它们</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="263" />
        <source>Keep them</source>
        <translation>保留它们</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/documents_ui.py" line="273" />
        <source>No longer watching the folder; its %n document(s) stay.</source>
        <translation><numerusform>已不再监视该文件夹；其中的 %n 个文档保留。</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/documents_ui.py" line="276" />
        <source>No longer watching the folder; its %n document(s) are removed.</source>
        <translation><numerusform>已不再监视该文件夹；其中的 %n 个文档已移除。</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="292" />
        <source>Remove documents</source>
        <translation>移除文档</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/documents_ui.py" line="294" />
        <source>Remove %n document(s) and every passage of them from desktop-mem, for good? The files themselves are not touched.</source>
        <translation><numerusform>要从 desktop-mem 中永久移除 %n 个文档及其全部片段吗？文件本身不受影响。</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/documents_ui.py" line="321" />
        <source>shaped %n answer(s)</source>
        <translation><numerusform>影响了 %n 个回答</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="326" />
        <source>No passage is about this.</source>
        <translation>没有与此相关的片段。</translation>
    </message>
</context>
<context>
    <name>ForgetDialog</name>
    <message>
        <location filename="../../desktop_mem/ui/forget_dialog.py" line="34" />
        <source>Forget</source>
        <translation>忘记</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/forget_dialog.py" line="38" />
        <source>Tick what to delete for good. An earlier message you untick stays to read, but the assistant no longer sees it.</source>
        <translation>勾选要永久删除的内容。取消勾选的以前的消息会保留以供阅读，但助手不再看到它。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/forget_dialog.py" line="49" />
        <source>Memories</source>
        <translation>记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/forget_dialog.py" line="51" />
        <source>(pinned)</source>
        <translation>（已置顶）</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/forget_dialog.py" line="54" />
        <source>Earlier messages that mention it</source>
        <translation>提到它的以前的消息</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/forget_dialog.py" line="56" />
        <source>You</source>
        <translation>你</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/forget_dialog.py" line="56" />
        <source>Assistant</source>
        <translation>助手</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/forget_dialog.py" line="62" />
        <source>Delete selected</source>
        <translation>删除所选</translation>
    </message>
</context>
<context>
    <name>ForgetEverythingDialog</name>
    <message>
        <location filename="../../desktop_mem/ui/forget_dialog.py" line="118" />
        <source>This deletes all %n memory(s) of this profile for good, and the earlier messages that said them: every conversation goes too, unless you keep them below. Your documents stay.</source>
        <translation>这会永久删除此配置的全部 %n 条记忆，以及说过这些内容的以前的消息：除非你在下面选择保留，所有对话也会一并删除。你的文档会保留。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/forget_dialog.py" line="127" />
        <source>Forget everything</source>
        <translation>忘记一切</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/forget_dialog.py" line="129" />
        <source>FORGET</source>
        <translation>全部忘记</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/forget_dialog.py" line="134" />
        <source>Keep my %n conversation(s) to read (the assistant will no longer see them)</source>
        <translation><numerusform>保留我的 %n 个对话以供阅读（助手将不再看到它们）</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/forget_dialog.py" line="139" />
        <source>%n message(s) in all</source>
        <translation><numerusform>共 %n 条消息</numerusform></translation>
    </message>
</context>
<context>
    <name>LockedDialog</name>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="102" />
        <source>Your memories are locked</source>
        <translation>你的记忆已锁定</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="106" />
        <source>The key of the profile “%1” is not in this computer's keyring (it was reset, or this is a new computer). Enter the recovery code you wrote down when the profile was made, or restore a backup.</source>
        <translation>配置“%1”的密钥不在这台电脑的钥匙环中（钥匙环被重置，或这是一台新电脑）。请输入创建配置时抄下的恢复码，或恢复一个备份。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="116" />
        <source>Recovery code</source>
        <translation>恢复码</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="124" />
        <source>Unlock</source>
        <translation>解锁</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="126" />
        <source>Restore a backup…</source>
        <translation>恢复备份…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="128" />
        <source>Quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="144" />
        <source>A recovery code has 24 letters and digits in six groups: check it.</source>
        <translation>恢复码由六组共 24 个字母和数字组成：请核对。</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="114" />
        <location filename="../../desktop_mem/ui/main_window.py" line="518" />
        <source>desktop-mem</source>
        <translation>desktop-mem</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="121" />
        <location filename="../../desktop_mem/ui/selftest.py" line="79" />
        <source>New chat</source>
        <translation>新对话</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="123" />
        <source>Incognito</source>
        <translation>无痕</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="125" />
        <source>A chat that reads and writes no memory and is not stored</source>
        <translation>不读取、不写入记忆，也不保存的对话</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="132" />
        <location filename="../../desktop_mem/ui/main_window.py" line="319" />
        <source>Search conversations</source>
        <translation>搜索对话</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="175" />
        <source>Backed up to %1</source>
        <translation>已备份到 %1</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="180" />
        <source>The backup failed: %1</source>
        <translation>备份失败：%1</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="230" />
        <source>Chat</source>
        <translation>聊天</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="231" />
        <source>Memories</source>
        <translation>记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="232" />
        <source>Documents</source>
        <translation>文档</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="304" />
        <source>&amp;Chat</source>
        <translation>聊天(&amp;C)</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="307" />
        <source>New conversation</source>
        <translation>新对话</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="313" />
        <source>New incognito conversation</source>
        <translation>新的无痕对话</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="317" />
        <source>Regenerate</source>
        <translation>重新生成</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="318" />
        <source>Edit last message</source>
        <translation>编辑上一条消息</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="321" />
        <source>Settings…</source>
        <translation>设置…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="323" />
        <source>Delete all conversations and memories…</source>
        <translation>删除所有对话和记忆…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="325" />
        <source>Quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="326" />
        <source>&amp;Memories</source>
        <translation>记忆(&amp;M)</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="328" />
        <source>Show memories</source>
        <translation>显示记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="331" />
        <source>Search memories</source>
        <translation>搜索记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="332" />
        <source>New memory…</source>
        <translation>新建记忆…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="333" />
        <source>Consolidate now</source>
        <translation>立即整理</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="334" />
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="335" />
        <source>Import…</source>
        <translation>导入…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="336" />
        <source>Learn automatically</source>
        <translation>自动学习</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="339" />
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="340" />
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="341" />
        <location filename="../../desktop_mem/ui/main_window.py" line="410" />
        <source>About desktop-mem</source>
        <translation>关于 desktop-mem</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="412" />
        <source>desktop-mem %1
A local language model with a long-term memory you can see and control. Your conversations and memories are encrypted on this computer.</source>
        <translation>desktop-mem %1
一个拥有长期记忆的本地语言模型，记忆由你查看和掌控。你的对话和记忆都加密保存在这台电脑上。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="453" />
        <source>● Connected · embedding model %1 missing: search by words only</source>
        <translation>● 已连接 · 缺少嵌入模型 %1：只能按字词搜索</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="456" />
        <source>Download it</source>
        <translation>下载</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="462" />
        <source>● Connected · %1</source>
        <translation>● 已连接 · %1</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="468" />
        <source>○ Ollama not connected</source>
        <translation>○ 未连接 Ollama</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="470" />
        <source>Memory: incognito</source>
        <translation>记忆：无痕</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="472" />
        <source>Memory: on</source>
        <translation>记忆：开启</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="474" />
        <source>Memory: off (commands only)</source>
        <translation>记忆：关闭（仅指令）</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/main_window.py" line="477" />
        <source> · %n message(s) not yet learned from</source>
        <translation><numerusform> · 还有 %n 条消息尚未从中学习</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="490" />
        <source>%1 is loaded with a %2-token context but this app asks for %3, so every turn reloads it: give the apps that use it the same context length, or set this one's in Settings.</source>
        <translation>%1 以 %2 个词元的上下文加载，但本应用需要 %3，所以每次对话都要重新加载它：让使用它的应用采用相同的上下文长度，或在“设置”中修改本应用的。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="499" />
        <source>Ollama unloads %1 soon after each answer, so every turn waits for it to load again: give Ollama a longer keep-alive.</source>
        <translation>Ollama 在每次回答后很快就卸载 %1，所以每次对话都要等它重新加载：请延长 Ollama 的保持加载时间（keep-alive）。</translation>
    </message>
</context>
<context>
    <name>MemoryBrowser</name>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="48" />
        <source>created</source>
        <translation>创建</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="49" />
        <source>edited</source>
        <translation>编辑</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="50" />
        <source>updated</source>
        <translation>更新</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="51" />
        <source>restored</source>
        <translation>恢复</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="52" />
        <source>pinned</source>
        <translation>置顶</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="53" />
        <source>unpinned</source>
        <translation>取消置顶</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="54" />
        <source>marked no longer true</source>
        <translation>标记为不再成立</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="59" />
        <source>merged into #%1</source>
        <translation>并入 #%1</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="60" />
        <source>contradicted by #%1</source>
        <translation>被 #%1 否定</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="93" />
        <source>Search memories (meaning and words, 中文 or English)</source>
        <translation>搜索记忆（语义和关键词，中文或英文）</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="98" />
        <source>Weak matches too</source>
        <translation>也显示弱匹配</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="100" />
        <source>List every memory ranked by the search, not only the relevant ones</source>
        <translation>按搜索排序列出所有记忆，而不只是相关的</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="104" />
        <source>New memory…</source>
        <translation>新建记忆…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="105" />
        <source>Write a memory of your own</source>
        <translation>自己写一条记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="112" />
        <source>All kinds</source>
        <translation>所有类型</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="117" />
        <source>Pinned only</source>
        <translation>仅置顶</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="122" />
        <source>Any date</source>
        <translation>任何日期</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="124" />
        <source>Created on or after</source>
        <translation>创建于此日期或之后</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="129" />
        <source>Order of the list</source>
        <translation>列表的排序</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="151" />
        <source>Memories</source>
        <translation>记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="160" />
        <source>Text</source>
        <translation>内容</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="164" />
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="168" />
        <source>Importance</source>
        <translation>重要性</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="170" />
        <source>True until</source>
        <translation>有效至</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="180" />
        <source>Valid</source>
        <translation>有效期</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="185" />
        <source>Came from</source>
        <translation>来源</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="188" />
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="190" />
        <location filename="../../desktop_mem/ui/memory_browser.py" line="421" />
        <source>Pin</source>
        <translation>置顶</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="192" />
        <source>Delete…</source>
        <translation>删除…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="198" />
        <source>Answers it shaped</source>
        <translation>用到它的回答</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="209" />
        <source>History</source>
        <translation>历史</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="218" />
        <source>Restore this version</source>
        <translation>恢复此版本</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="226" />
        <source>Select a memory to see where it came from, the answers it shaped and its history, or to edit it.</source>
        <translation>选择一条记忆，查看它的来源、受它影响的回答和修改历史，或编辑它。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="253" />
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="255" />
        <source>Import…</source>
        <translation>导入…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="257" />
        <source>Forget everything…</source>
        <translation>忘记一切…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="273" />
        <source>Newest first</source>
        <translation>最新的在前</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="274" />
        <source>Oldest first</source>
        <translation>最早的在前</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="275" />
        <source>Recently edited</source>
        <translation>最近编辑的在前</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="276" />
        <source>Most important</source>
        <translation>最重要的在前</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="277" />
        <source>By kind</source>
        <translation>按类型</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="278" />
        <source>A to Z</source>
        <translation>按字母顺序</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="342" />
        <source>Best match first</source>
        <translation>最相关的在前</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/memory_browser.py" line="346" />
        <source>%n memory(s)</source>
        <translation><numerusform>%n 条记忆</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/memory_browser.py" line="348" />
        <source>%n match(es)</source>
        <translation><numerusform>%n 条匹配</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="350" />
        <source>No matches</source>
        <translation>没有匹配</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="400" />
        <source>Used by other apps: %1</source>
        <translation>被其他应用使用：%1</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="421" />
        <source>Unpin</source>
        <translation>取消置顶</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="433" />
        <source>(empty answer)</source>
        <translation>（空回答）</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="438" />
        <source>No answer has used it yet.</source>
        <translation>还没有回答用到它。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="441" />
        <source>, until %1</source>
        <translation>，有效至 %1</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="443" />
        <source>, from message %1</source>
        <translation>，来自消息 %1</translation>
    </message>
</context>
<context>
    <name>MemoryController</name>
    <message>
        <location filename="../../desktop_mem/ui/memory_controller.py" line="141" />
        <location filename="../../desktop_mem/ui/memory_controller.py" line="154" />
        <source>Saving the memory…</source>
        <translation>正在保存记忆…</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/memory_controller.py" line="188" />
        <source>Delete %n memory(s) for good, with their history?</source>
        <translation><numerusform>永久删除 %n 条记忆及其历史？</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/memory_controller.py" line="190" />
        <source>They shaped %n answer(s).</source>
        <translation><numerusform>它们影响过 %n 个回答。</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_controller.py" line="191" />
        <source>Delete memories</source>
        <translation>删除记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_controller.py" line="194" />
        <source>Deleting…</source>
        <translation>正在删除…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_controller.py" line="223" />
        <source>Forgetting everything…</source>
        <translation>正在忘记一切…</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/memory_controller.py" line="230" />
        <source>Forgot %n memory(s); the conversations stay to read, but the assistant no longer sees them.</source>
        <translation><numerusform>已忘记 %n 条记忆；对话保留以供阅读，但助手不再看到它们。</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/memory_controller.py" line="236" />
        <source>Forgot %n memory(s)</source>
        <translation><numerusform>已忘记 %n 条记忆</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/memory_controller.py" line="237" />
        <source> and deleted %n message(s).</source>
        <translation><numerusform>，并删除了 %n 条消息。</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_controller.py" line="255" />
        <source>Delete everything</source>
        <translation>全部删除</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_controller.py" line="257" />
        <source>This deletes all %1 conversations and all %2 memories of this profile for good. The settings and the key stay.</source>
        <translation>这会永久删除此配置的全部 %1 个对话和全部 %2 条记忆。设置和密钥会保留。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_controller.py" line="262" />
        <source>DELETE</source>
        <translation>删除</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_controller.py" line="268" />
        <source>Deleting everything…</source>
        <translation>正在全部删除…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_controller.py" line="284" />
        <source>Export memories</source>
        <translation>导出记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_controller.py" line="286" />
        <source>JSON (*.json);;Markdown (*.md)</source>
        <translation>JSON (*.json);;Markdown (*.md)</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_controller.py" line="292" />
        <source>Exporting…</source>
        <translation>正在导出…</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/memory_controller.py" line="306" />
        <source>Exported %n memory(s) to %1. That file is not encrypted.</source>
        <translation><numerusform>已导出 %n 条记忆到 %1。该文件未加密。</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_controller.py" line="315" />
        <source>Import memories</source>
        <translation>导入记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_controller.py" line="316" />
        <source>Memories (*.json *.md *.markdown *.txt *.csv);;All files (*)</source>
        <translation>记忆文件 (*.json *.md *.markdown *.txt *.csv);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_controller.py" line="328" />
        <source>line %1: %2</source>
        <translation>第 %1 行：%2</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_controller.py" line="331" />
        <source>Nothing was imported</source>
        <translation>没有导入任何内容</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_controller.py" line="342" />
        <source>Importing…</source>
        <translation>正在导入…</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/memory_controller.py" line="349" />
        <source>Imported %n memory(s).</source>
        <translation><numerusform>已导入 %n 条记忆。</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/memory_controller.py" line="351" />
        <source>%n already known, skipped.</source>
        <translation><numerusform>已有 %n 条，已跳过。</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_controller.py" line="357" />
        <source>Consolidating memories…</source>
        <translation>正在整理记忆…</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/memory_controller.py" line="372" />
        <source>While you were away, %n memory(s) were tidied (merged or marked out of date); each memory's History can undo it.</source>
        <translation><numerusform>你不在的时候，整理了 %n 条记忆（合并或标记为过期）；可在每条记忆的历史中撤销。</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/memory_controller.py" line="384" />
        <source>Consolidation: %n change(s).</source>
        <translation><numerusform>整理完成：%n 处更改。</numerusform></translation>
    </message>
</context>
<context>
    <name>MemoryTableModel</name>
    <message>
        <location filename="../../desktop_mem/ui/models.py" line="42" />
        <source>Memory</source>
        <translation>记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/models.py" line="43" />
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/models.py" line="44" />
        <source>Pinned</source>
        <translation>置顶</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/models.py" line="45" />
        <source>Importance</source>
        <translation>重要性</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/models.py" line="46" />
        <source>Created</source>
        <translation>创建时间</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/models.py" line="47" />
        <source>Updated</source>
        <translation>已更新</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/models.py" line="48" />
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/models.py" line="163" />
        <source> (expired)</source>
        <translation>（已过期）</translation>
    </message>
</context>
<context>
    <name>MessageWidget</name>
    <message>
        <location filename="../../desktop_mem/ui/message_widget.py" line="176" />
        <source>You</source>
        <translation>你</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/message_widget.py" line="176" />
        <source>Assistant</source>
        <translation>助手</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/message_widget.py" line="181" />
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/message_widget.py" line="182" />
        <source>Copy this message</source>
        <translation>复制这条消息</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/message_widget.py" line="186" />
        <source>Edit</source>
        <translation>编辑</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/message_widget.py" line="188" />
        <source>Change this message and send it again (the turns after it are replaced)</source>
        <translation>修改这条消息并重新发送（其后的对话会被替换）</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/message_widget.py" line="191" />
        <source>Regenerate</source>
        <translation>重新生成</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/message_widget.py" line="193" />
        <source>Answer this message again (the turns after it are replaced)</source>
        <translation>重新回答这条消息（其后的对话会被替换）</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/message_widget.py" line="249" />
        <source>Stopped.</source>
        <translation>已停止。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/message_widget.py" line="252" />
        <source>The answer failed.</source>
        <translation>回答失败。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/message_widget.py" line="275" />
        <source>Memories used:</source>
        <translation>用到的记忆：</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/message_widget.py" line="277" />
        <source>(deleted)</source>
        <translation>（已删除）</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/message_widget.py" line="282" />
        <source>+%1 more</source>
        <translation>还有 %1 条</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/message_widget.py" line="286" />
        <source>Earlier messages:</source>
        <translation>之前的消息：</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/message_widget.py" line="289" />
        <source>%1, in another conversation:</source>
        <translation>%1，在另一个对话中：</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/message_widget.py" line="294" />
        <source>Documents:</source>
        <translation>文档：</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/message_widget.py" line="305" />
        <source>In every answer (pinned)</source>
        <translation>每次回答都会用到（已置顶）</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/message_widget.py" line="306" />
        <source>Found for this message</source>
        <translation>为这条消息找到的</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/message_widget.py" line="307" />
        <source>Learned from an earlier message found for this one</source>
        <translation>从为这条消息找到的一条以前的消息中记住的</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/message_widget.py" line="309" />
        <source>a weaker match</source>
        <translation>匹配较弱</translation>
    </message>
</context>
<context>
    <name>NewMemoryDialog</name>
    <message>
        <location filename="../../desktop_mem/ui/new_memory_dialog.py" line="26" />
        <source>New memory</source>
        <translation>新建记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/new_memory_dialog.py" line="29" />
        <source>Something the assistant should know about you, in a sentence. It is given to the model only when a message is about it.</source>
        <translation>用一句话写下助手应该了解的关于你的事。只有当消息与它相关时，才会提供给模型。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/new_memory_dialog.py" line="36" />
        <source>e.g. I am vegetarian / 我对花生过敏</source>
        <translation>例如：我吃素 / I am allergic to peanuts</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/new_memory_dialog.py" line="42" />
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/new_memory_dialog.py" line="43" />
        <source>Pinned: always given to the model</source>
        <translation>置顶：始终提供给模型</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/new_memory_dialog.py" line="50" />
        <source>Add</source>
        <translation>添加</translation>
    </message>
</context>
<context>
    <name>OfflinePage</name>
    <message>
        <location filename="../../desktop_mem/ui/offline_page.py" line="19" />
        <source>Ollama is not running</source>
        <translation>Ollama 没有运行</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/offline_page.py" line="29" />
        <source>desktop-mem talks to a language model through Ollama, on this computer.
Install it from ollama.com, then start it: open the Ollama app, or run “ollama serve” in a terminal. Your memories are safe meanwhile and can still be browsed and searched by keywords.</source>
        <translation>desktop-mem 通过这台电脑上的 Ollama 与语言模型对话。
请从 ollama.com 安装，然后启动它：打开 Ollama 应用，或在终端运行“ollama serve”。在此期间你的记忆安然无恙，仍可浏览并按关键词搜索。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/offline_page.py" line="38" />
        <source>Retry</source>
        <translation>重试</translation>
    </message>
</context>
<context>
    <name>PassphraseDialog</name>
    <message>
        <location filename="../../desktop_mem/ui/dialogs.py" line="48" />
        <source>Unlock your memories</source>
        <translation>解锁你的记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/dialogs.py" line="48" />
        <source>Protect your memories</source>
        <translation>保护你的记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/dialogs.py" line="54" />
        <source>No system keyring is available, so your conversations and memories in the profile “%1” are protected by a passphrase. Everything is encrypted with it; without it nobody, including you, can read them. There is no way to recover it.</source>
        <translation>系统钥匙环不可用，因此配置“%1”中的对话和记忆由口令保护。所有内容都用它加密；没有它，任何人（包括你）都无法读取。口令无法找回。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/dialogs.py" line="60" />
        <source>Your conversations and memories in the profile “%1” are encrypted. Enter the passphrase to open them.</source>
        <translation>配置“%1”中的对话和记忆已加密。请输入口令打开。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/dialogs.py" line="69" />
        <source>Passphrase</source>
        <translation>口令</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/dialogs.py" line="73" />
        <source>Again</source>
        <translation>再输一次</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/dialogs.py" line="77" />
        <source>At least %1 characters. Write it down: it cannot be recovered.</source>
        <translation>至少 %1 个字符。请抄下来：它无法找回。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/dialogs.py" line="101" />
        <source>Type the passphrase.</source>
        <translation>请输入口令。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/dialogs.py" line="103" />
        <source>Use at least %1 characters.</source>
        <translation>至少使用 %1 个字符。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/dialogs.py" line="105" />
        <source>The two passphrases differ: type the same one twice.</source>
        <translation>两次输入的口令不同，请输入相同的口令。</translation>
    </message>
</context>
<context>
    <name>PullDialog</name>
    <message>
        <location filename="../../desktop_mem/ui/dialogs.py" line="148" />
        <source>Downloading %1</source>
        <translation>正在下载 %1</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/dialogs.py" line="150" />
        <source>Starting…</source>
        <translation>正在开始…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/dialogs.py" line="155" />
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
</context>
<context>
    <name>RecoveryCodeDialog</name>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="47" />
        <source>Your recovery code</source>
        <translation>你的恢复码</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="51" />
        <source>Your memories in the profile “%1” are encrypted with a key kept in this computer's keyring. If the keyring is ever lost (a reinstalled system, a new computer), this code is the only way to open them and their backups.</source>
        <translation>配置“%1”中的记忆用保存在这台电脑钥匙环中的密钥加密。如果钥匙环丢失（重装系统、换新电脑），这个恢复码是打开记忆及其备份的唯一方法。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="68" />
        <source>Write it down and keep it somewhere safe, away from this computer. It is shown only this once; anyone with it and a backup can read your memories.</source>
        <translation>请抄下来，存放在远离这台电脑的安全地方。它只显示这一次；任何人拿到它和一份备份，就能读取你的记忆。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="74" />
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="76" />
        <source>I have written it down or stored it safely</source>
        <translation>我已抄下或妥善保存</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="84" />
        <source>Continue</source>
        <translation>继续</translation>
    </message>
</context>
<context>
    <name>SettingsController</name>
    <message>
        <location filename="../../desktop_mem/ui/settings_controller.py" line="52" />
        <source>Backup</source>
        <translation>备份</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_controller.py" line="52" />
        <source>Apps</source>
        <translation>应用</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_controller.py" line="70" />
        <source>New recovery code</source>
        <translation>新的恢复码</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_controller.py" line="72" />
        <source>Make a new recovery code? The old one will no longer open this profile or its new backups (backups made before still open with the old one).</source>
        <translation>要生成新的恢复码吗？旧的恢复码将无法再打开此配置及其新备份（之前的备份仍可用旧恢复码打开）。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_controller.py" line="119" />
        <source>Messages will leave this computer</source>
        <translation>消息将离开这台电脑</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_controller.py" line="135" />
        <source>Re-index memories?</source>
        <translation>重新索引记忆？</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_controller.py" line="136" />
        <source>Search by meaning needs every memory re-indexed with %1. Do it now? Until it finishes, the old index keeps working.</source>
        <translation>按语义搜索需要用 %1 重新索引所有记忆。现在开始吗？完成之前，旧索引仍然可用。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/settings_controller.py" line="147" />
        <source>Re-indexed %n memory(s).</source>
        <translation><numerusform>已重新索引 %n 条记忆。</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_controller.py" line="149" />
        <location filename="../../desktop_mem/ui/settings_controller.py" line="154" />
        <source>Re-indexing memories…</source>
        <translation>正在重新索引记忆…</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <location filename="../../desktop_mem/ui/dialogs.py" line="226" />
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/dialogs.py" line="233" />
        <source>Ollama address</source>
        <translation>Ollama 地址</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/dialogs.py" line="238" />
        <source>Chat model</source>
        <translation>聊天模型</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/dialogs.py" line="244" />
        <source>Changing it re-indexes every memory with the new model (with progress).</source>
        <translation>更换后会用新模型重新索引所有记忆（显示进度）。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/dialogs.py" line="246" />
        <source>Embedding model</source>
        <translation>嵌入模型</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/dialogs.py" line="280" />
        <source>Learn memories from my chats automatically</source>
        <translation>自动从我的聊天中学习记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/dialogs.py" line="279" />
        <source>Memory</source>
        <translation>记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/dialogs.py" line="284" />
        <source>Give the model my relevant memories and earlier messages</source>
        <translation>把相关的记忆和之前的消息提供给模型</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/dialogs.py" line="289" />
        <source>Tidy my memories while the app is idle (every change can be undone)</source>
        <translation>在应用空闲时整理我的记忆（每项更改都可撤销）</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/dialogs.py" line="251" />
        <source> tokens</source>
        <translation> 个词元</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/dialogs.py" line="231" />
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/dialogs.py" line="252" />
        <source>Context budget</source>
        <translation>上下文预算</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/dialogs.py" line="253" />
        <source>Use an OpenAI-compatible server instead of Ollama</source>
        <translation>使用兼容 OpenAI 的服务器代替 Ollama</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/dialogs.py" line="255" />
        <source>Other server</source>
        <translation>其他服务器</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/dialogs.py" line="258" />
        <source>Server URL</source>
        <translation>服务器地址</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/dialogs.py" line="260" />
        <source>Server model</source>
        <translation>服务器模型</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/dialogs.py" line="264" />
        <source>(unchanged)</source>
        <translation>（不变）</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/dialogs.py" line="264" />
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/dialogs.py" line="266" />
        <source>API key</source>
        <translation>API 密钥</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/dialogs.py" line="269" />
        <source>With another server on, your messages and the memories retrieved for them are sent to that server. If it is not this computer, they leave your machine.</source>
        <translation>启用其他服务器后，你的消息和为其检索到的记忆会发送到该服务器。如果它不是这台电脑，这些内容会离开你的机器。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/dialogs.py" line="295" />
        <source>About you and how you like answers, e.g. “I am a nurse; answer briefly.”</source>
        <translation>关于你以及你希望怎样回答，例如“我是护士；请简短回答。”</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/dialogs.py" line="298" />
        <source>Given to the model with every message; never learned from.</source>
        <translation>每条消息都会交给模型；不会从中学习记忆。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/dialogs.py" line="301" />
        <source>About me</source>
        <translation>关于我</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/dialogs.py" line="303" />
        <source>Appearance</source>
        <translation>外观</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/dialogs.py" line="308" />
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/dialogs.py" line="311" />
        <source>System</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/dialogs.py" line="312" />
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/dialogs.py" line="313" />
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/dialogs.py" line="317" />
        <source>Theme</source>
        <translation>主题</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/dialogs.py" line="319" />
        <source>Privacy</source>
        <translation>隐私</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/dialogs.py" line="325" />
        <source>Open folder</source>
        <translation>打开文件夹</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/dialogs.py" line="327" />
        <source>Data folder</source>
        <translation>数据文件夹</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/dialogs.py" line="332" />
        <source>Encrypted; the key is kept in the system keyring.</source>
        <translation>已加密；密钥保存在系统钥匙环中。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/dialogs.py" line="334" />
        <source>Encrypted with your passphrase.</source>
        <translation>已用你的口令加密。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/dialogs.py" line="340" />
        <source>Replace the key</source>
        <translation>更换密钥</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/dialogs.py" line="340" />
        <source>Change passphrase…</source>
        <translation>更改口令…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/dialogs.py" line="343" />
        <source>Re-encrypts everything with a new key; the old one stops working.</source>
        <translation>用新密钥重新加密所有内容；旧密钥随即失效。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/dialogs.py" line="346" />
        <source>Use a passphrase instead…</source>
        <translation>改用口令…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/dialogs.py" line="348" />
        <source>Keep the key in the system keyring instead</source>
        <translation>改为把密钥保存在系统钥匙环中</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/dialogs.py" line="354" />
        <source>Encryption</source>
        <translation>加密</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/dialogs.py" line="360" />
        <source>No system keyring is available on this computer.</source>
        <translation>这台电脑上没有可用的系统钥匙环。</translation>
    </message>
</context>
<context>
    <name>ShortcutsDialog</name>
    <message>
        <location filename="../../desktop_mem/ui/dialogs.py" line="173" />
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/dialogs.py" line="176" />
        <source>Keys</source>
        <translation>按键</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/dialogs.py" line="176" />
        <source>Action</source>
        <translation>操作</translation>
    </message>
</context>
<context>
    <name>TurnController</name>
    <message>
        <location filename="../../desktop_mem/ui/turns.py" line="97" />
        <source>…</source>
        <translation>…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/turns.py" line="127" />
        <location filename="../../desktop_mem/ui/turns.py" line="235" />
        <source>Learning from this exchange…</source>
        <translation>正在从这轮对话中学习…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/turns.py" line="211" />
        <source>Nothing was learned from this message: the model's answer was not what was asked for. It will be tried again later.</source>
        <translation>这条消息还没有被记住：模型的回答不符合要求。稍后会再试。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/turns.py" line="216" />
        <source>Nothing was learned from this message: the model server did not answer in time. It will be tried again later.</source>
        <translation>这条消息还没有被记住：模型服务器没有及时回答。稍后会再试。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/turns.py" line="221" />
        <source>Nothing was learned from this message: the model server could not be reached. It will be tried again once it answers.</source>
        <translation>这条消息还没有被记住：无法连接模型服务器。等它恢复后会再试。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/turns.py" line="225" />
        <source>Nothing was learned from this message: the model server failed. It will be tried again later.</source>
        <translation>这条消息还没有被记住：模型服务器出错了。稍后会再试。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/turns.py" line="265" />
        <source>Undone.</source>
        <translation>已撤销。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/turns.py" line="268" />
        <source>Undoing…</source>
        <translation>正在撤销…</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/turns.py" line="284" />
        <source>Deleted %n memory(s)</source>
        <translation><numerusform>已删除 %n 条记忆</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/turns.py" line="285" />
        <source> and %n message(s).</source>
        <translation><numerusform>和 %n 条消息。</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/turns.py" line="289" />
        <source>%n earlier message(s) stay to read, but the assistant no longer sees them.</source>
        <translation><numerusform>%n 条以前的消息保留以供阅读，但助手不再看到它们。</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/turns.py" line="295" />
        <source>Nothing was deleted.</source>
        <translation>没有删除任何内容。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/turns.py" line="302" />
        <source>Deleting…</source>
        <translation>正在删除…</translation>
    </message>
</context>
<context>
    <name>TypedConfirmDialog</name>
    <message>
        <location filename="../../desktop_mem/ui/dialogs.py" line="125" />
        <source>Type %1 to confirm.</source>
        <translation>输入 %1 以确认。</translation>
    </message>
</context>
<context>
    <name>app</name>
    <message>
        <location filename="../../desktop_mem/ui/app.py" line="253" />
        <location filename="../../desktop_mem/ui/app.py" line="303" />
        <location filename="../../desktop_mem/ui/unlock.py" line="44" />
        <source>Cannot open your memories</source>
        <translation>无法打开你的记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/unlock.py" line="49" />
        <location filename="../../desktop_mem/ui/unlock.py" line="112" />
        <source>That passphrase is not right. Nothing was changed; try again.</source>
        <translation>口令不正确。没有做任何更改，请重试。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/unlock.py" line="79" />
        <source>That recovery code does not open this profile: check it and try again.</source>
        <translation>这个恢复码打不开此配置：请核对后重试。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/app.py" line="280" />
        <location filename="../../desktop_mem/ui/unlock.py" line="94" />
        <source>Restore a backup</source>
        <translation>恢复备份</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/unlock.py" line="120" />
        <source>This backup is protected by the passphrase of the profile it was made from. Enter it to restore the backup.</source>
        <translation>此备份受其原配置的口令保护。请输入该口令以恢复备份。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/unlock.py" line="131" />
        <source>That recovery code does not open this backup: check it and try again.</source>
        <translation>这个恢复码打不开此备份：请核对后重试。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/unlock.py" line="134" />
        <source>The key of this backup is not in this computer's keyring. Enter the recovery code of the profile it was made from.</source>
        <translation>此备份的密钥不在这台电脑的钥匙环中。请输入生成该备份的配置的恢复码。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/app.py" line="202" />
        <source>Choose a new passphrase for the profile “%1”. Everything is re-encrypted with it; without it nobody, including you, can read your memories. There is no way to recover it.</source>
        <translation>为配置“%1”选择一个新口令。所有内容都会用它重新加密；没有它，任何人（包括你自己）都无法读取你的记忆，而且无法找回。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/app.py" line="216" />
        <source>Change the key</source>
        <translation>更换密钥</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/app.py" line="217" />
        <source>Wait for the answer to finish, then change the key.</source>
        <translation>请等回答结束后再更换密钥。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/app.py" line="224" />
        <source>Re-encrypting your memories…</source>
        <translation>正在重新加密你的记忆…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/app.py" line="242" />
        <source>The key was not changed</source>
        <translation>密钥没有更改</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/app.py" line="262" />
        <source>Your memories were re-encrypted; the old key no longer opens them.</source>
        <translation>你的记忆已重新加密；旧密钥已无法打开它们。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/app.py" line="281" />
        <source>Replace the memories and conversations of the profile “%1” with the backup's? What the profile holds now is deleted.</source>
        <translation>用备份替换配置“%1”的记忆和对话吗？配置中现有的内容将被删除。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/app.py" line="311" />
        <source>The backup was restored.</source>
        <translation>备份已恢复。</translation>
    </message>
</context>
<context>
    <name>backup</name>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="158" />
        <source>Restore a backup</source>
        <translation>恢复备份</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="160" />
        <source>desktop-mem backups (*.dmbackup)</source>
        <translation>desktop-mem 备份 (*.dmbackup)</translation>
    </message>
</context>
<context>
    <name>cards</name>
    <message>
        <location filename="../../desktop_mem/ui/memory_cards.py" line="27" />
        <source>★ pinned</source>
        <translation>★ 置顶</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_cards.py" line="30" />
        <source>expired</source>
        <translation>已过期</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_cards.py" line="33" />
        <source>until %1</source>
        <translation>有效至 %1</translation>
    </message>
</context>
<context>
    <name>errors</name>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="22" />
        <source>The model server stopped answering in the middle of the reply: the partial answer is kept; check that it is running and retry.</source>
        <translation>模型服务器在回答中途停止了响应：已保留部分回答；请确认它仍在运行后重试。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="26" />
        <source>The model server did not answer in time: check that it is not overloaded and try again.</source>
        <translation>模型服务器没有及时响应：请确认它没有过载后重试。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="30" />
        <source>Ollama is not reachable: start it (open the Ollama app, or run “ollama serve”) and try again.</source>
        <translation>无法连接 Ollama：请启动它（打开 Ollama 应用，或运行“ollama serve”）后重试。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="34" />
        <source>The model server is not reachable: check its address in Settings and your connection.</source>
        <translation>无法连接模型服务器：请在设置中检查其地址和你的网络连接。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="38" />
        <source>The model %1 is not installed: download it (Settings, or “ollama pull %1”) and try again.</source>
        <translation>模型 %1 未安装：请下载（在设置中，或运行“ollama pull %1”）后重试。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="42" />
        <source>The model failed in the middle of the reply: the partial answer is kept; retry.</source>
        <translation>模型在回答中途出错：已保留部分回答，请重试。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="46" />
        <source>The model server reported an error: try again, or check its log.</source>
        <translation>模型服务器报告了错误：请重试，或查看它的日志。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="49" />
        <source>That passphrase is not right. Nothing was changed; try again.</source>
        <translation>口令不正确。没有做任何更改，请重试。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="52" />
        <source>That recovery code does not open this profile: check it and try again.</source>
        <translation>这个恢复码打不开此配置：请核对后重试。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="55" />
        <location filename="../../desktop_mem/ui/errors.py" line="59" />
        <source>The system keyring cannot be used or does not hold the key: unlock it and try again.</source>
        <translation>无法使用系统钥匙环，或其中没有密钥：请解锁后重试。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="63" />
        <source>Another desktop-mem is writing to this profile: wait for it to finish and try again.</source>
        <translation>另一个 desktop-mem 正在写入此配置：请等待它完成后重试。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="67" />
        <source>The database is damaged: restore it from a backup or an export.</source>
        <translation>数据库已损坏：请从备份或导出文件恢复。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="70" />
        <source>Nothing was imported: %n line(s) have problems (see the details).</source>
        <translation>没有导入任何内容：%n 行有问题（见详细信息）。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="73" />
        <source>Your memories are indexed with another embedding model: re-index them (Settings) or go back to it.</source>
        <translation>你的记忆是用另一个嵌入模型索引的：请重新索引（在设置中），或换回那个模型。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="77" />
        <source>That memory no longer exists: it was deleted. Nothing was changed.</source>
        <translation>这条记忆已不存在：它已被删除。没有做任何更改。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="80" />
        <source>That conversation no longer exists: it was deleted.</source>
        <translation>这个对话已不存在：它已被删除。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="83" />
        <source>That version of the memory no longer exists. Nothing was changed.</source>
        <translation>这条记忆的该版本已不存在。没有做任何更改。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="86" />
        <source>The OpenAI-compatible server is on but its URL or model is not set: fill them in Settings, or turn it off there.</source>
        <translation>已开启 OpenAI 兼容服务器，但未设置其地址或模型：请在设置中填写，或在那里关闭它。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="90" />
        <source>No embedding model is chosen: choose one in Settings.</source>
        <translation>尚未选择嵌入模型：请在设置中选择。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="93" />
        <source>That app is not registered in desktop-mem: connect it in Settings &gt; Apps.</source>
        <translation>该应用没有在 desktop-mem 中注册：请在“设置 &gt; 应用”中连接它。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="96" />
        <source>That folder is no longer watched: the list of folders was out of date.</source>
        <translation>该文件夹已不再被监视：文件夹列表已过时。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="99" />
        <source>This profile was copied or moved here and the system keyring did not answer, so its key was not changed: unlock the keyring, restart desktop-mem and try again.</source>
        <translation>此配置是复制或移动到这里的，而系统密钥环没有响应，所以它的密钥没有更改：请解锁密钥环，重新启动 desktop-mem 后再试。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="104" />
        <source>That app is not allowed to do this: change it in Settings &gt; Apps.</source>
        <translation>这个应用无权这样做：请在“设置 &gt; 应用”中更改。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="107" />
        <source>A profile protected by a passphrase cannot be served to other apps: keep its key in the system keyring (Settings &gt; Privacy).</source>
        <translation>受口令保护的配置不能提供给其他应用：请把密钥保存在系统钥匙环中（设置 &gt; 隐私）。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="111" />
        <source>That document is no longer in desktop-mem: it was removed.</source>
        <translation>这个文档已不在 desktop-mem 中：它已被移除。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="114" />
        <source>That file was not added: desktop-mem reads Markdown, text, PDF, Word and HTML files that are not damaged, encrypted or too large.</source>
        <translation>这个文件没有添加：desktop-mem 读取未损坏、未加密且不过大的 Markdown、文本、PDF、Word 和 HTML 文件。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="118" />
        <source>The disk is full: nothing was changed; free some space and try again.</source>
        <translation>磁盘已满：没有做任何更改；请释放空间后重试。</translation>
    </message>
</context>
<context>
    <name>kinds</name>
    <message>
        <location filename="../../desktop_mem/ui/models.py" line="191" />
        <source>fact</source>
        <translation>事实</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/models.py" line="192" />
        <source>preference</source>
        <translation>偏好</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/models.py" line="193" />
        <source>event</source>
        <translation>事件</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/models.py" line="194" />
        <source>plan</source>
        <translation>计划</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/models.py" line="195" />
        <source>person</source>
        <translation>人物</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/models.py" line="196" />
        <source>note</source>
        <translation>笔记</translation>
    </message>
</context>
<context>
    <name>shortcuts</name>
    <message>
        <location filename="../../desktop_mem/ui/shortcuts.py" line="11" />
        <source>New conversation</source>
        <translation>新对话</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/shortcuts.py" line="12" />
        <source>New incognito conversation</source>
        <translation>新的无痕对话</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/shortcuts.py" line="13" />
        <source>Send the message</source>
        <translation>发送消息</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/shortcuts.py" line="14" />
        <source>New line in the message</source>
        <translation>在消息中换行</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/shortcuts.py" line="15" />
        <source>Stop the answer</source>
        <translation>停止回答</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/shortcuts.py" line="16" />
        <source>Regenerate the last answer</source>
        <translation>重新生成上一个回答</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/shortcuts.py" line="17" />
        <source>Edit the last message</source>
        <translation>编辑上一条消息</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/shortcuts.py" line="18" />
        <source>Go to the message box</source>
        <translation>转到输入框</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/shortcuts.py" line="19" />
        <source>Show or hide the memory browser</source>
        <translation>显示或隐藏记忆浏览器</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/shortcuts.py" line="20" />
        <source>Search memories</source>
        <translation>搜索记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/shortcuts.py" line="21" />
        <source>Search conversations</source>
        <translation>搜索对话</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/shortcuts.py" line="22" />
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/shortcuts.py" line="23" />
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/shortcuts.py" line="24" />
        <source>Quit</source>
        <translation>退出</translation>
    </message>
</context>
<context>
    <name>sources</name>
    <message>
        <location filename="../../desktop_mem/ui/models.py" line="202" />
        <source>you</source>
        <translation>你</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/models.py" line="203" />
        <source>from a chat</source>
        <translation>来自聊天</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/models.py" line="204" />
        <source>import</source>
        <translation>导入</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/models.py" line="205" />
        <source>consolidation</source>
        <translation>整理</translation>
    </message>
</context>
</TS>