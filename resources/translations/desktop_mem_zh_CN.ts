<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
<context>
    <name>AboutDialog</name>
    <message>
        <location filename="../../desktop_mem/ui/about_dialog.py" line="78" />
        <source>About you</source>
        <translation>关于你</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/about_dialog.py" line="83" />
        <source>What the model knows about you: a few lines given in every chat, written from your memories while you are away. Each line shows the memories it came from; forgetting one of them removes the line at once.</source>
        <translation>模型对你的了解：每次对话都会提供的几行简介，在你离开时根据你的记忆写成。每一行都标明它来自哪些记忆；忘记其中任何一条，这一行会立即删除。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/about_dialog.py" line="91" />
        <source>Give this to the model in every chat and keep it up to date</source>
        <translation>每次对话都提供给模型，并保持更新</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/about_dialog.py" line="110" />
        <source>Edit line…</source>
        <translation>编辑这一行…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/about_dialog.py" line="112" />
        <source>Remove line</source>
        <translation>删除这一行</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/about_dialog.py" line="114" />
        <source>Rewrite now</source>
        <translation>立即重写</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/about_dialog.py" line="116" />
        <source>Write it again from your memories now (your own lines stay as they are)</source>
        <translation>现在根据你的记忆重新写（你自己写的行保持不变）</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/about_dialog.py" line="171" />
        <source>Turned off: the model is not given this, and it is not written. Tick the box above to turn it on.</source>
        <translation>已关闭：不会提供给模型，也不会再写。勾选上面的选项即可打开。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/about_dialog.py" line="176" />
        <source>Nothing yet. Once you have told the assistant about yourself, a short profile is written here from what it remembers.</source>
        <translation>还没有内容。等你向助手介绍过自己后，这里会根据它记住的内容写一份简短的介绍。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/about_dialog.py" line="180" />
        <source>Nothing yet. It is written from your memories the next time you are away for a few minutes, or now with Rewrite now.</source>
        <translation>还没有内容。下次你离开几分钟时会根据你的记忆写成，也可以点“立即重写”现在就写。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/about_dialog.py" line="191" />
        <location filename="../../desktop_mem/ui/about_dialog.py" line="243" />
        <source>Turned off: not given to the model.</source>
        <translation>已关闭：不提供给模型。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/about_dialog.py" line="194" />
        <source>%n line(s), given in every chat.</source>
        <translation><numerusform>共 %n 行，每次对话都会提供。</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/about_dialog.py" line="241" />
        <source>On: the model is given this in every chat.</source>
        <translation>已打开：每次对话都会提供给模型。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/about_dialog.py" line="252" />
        <source>Edit line</source>
        <translation>编辑这一行</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/about_dialog.py" line="254" />
        <source>In your own words (kept exactly as you write it, never rewritten):</source>
        <translation>用你自己的话写（会完全按你写的保留，不会被重写）：</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/about_dialog.py" line="264" />
        <source>That line is too long: keep it to one short sentence.</source>
        <translation>这一行太长了：请保持为一个简短的句子。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/about_dialog.py" line="271" />
        <source>Saved in your words: a rewrite keeps it as it is.</source>
        <translation>已按你的话保存：重写时会原样保留。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/about_dialog.py" line="282" />
        <source>Removed: it does not come back when this is rewritten.</source>
        <translation>已删除：重写时不会再出现。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/about_dialog.py" line="287" />
        <source>Writing it from your memories… this takes the model a moment.</source>
        <translation>正在根据你的记忆写…模型需要一点时间。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/about_dialog.py" line="294" />
        <source>Rewritten: %n line(s).</source>
        <translation><numerusform>已重写：共 %n 行。</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/about_dialog.py" line="299" />
        <source>Not rewritten; nothing was changed.</source>
        <translation>没有重写，什么都没有改变。</translation>
    </message>
</context>
<context>
    <name>AppsPage</name>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="49" />
        <source>Paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="50" />
        <source>Read</source>
        <translation>只读</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="51" />
        <source>Read and write</source>
        <translation>读写</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="52" />
        <source>Read, write and delete</source>
        <translation>读写和删除</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="60" />
        <source>searched</source>
        <translation>搜索</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="61" />
        <source>listed</source>
        <translation>列出</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="62" />
        <source>read the pinned memories</source>
        <translation>读取置顶记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="63" />
        <source>wrote</source>
        <translation>写入</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="64" />
        <source>deleted</source>
        <translation>删除</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="67" />
        <source>refused: %1</source>
        <translation>已拒绝：%1</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="117" />
        <source>AI apps on this computer (Claude Desktop, Cursor, VS Code, LM Studio…) can use your memory over MCP. Connect an app here: it gets a key that only its configuration holds, and may only do what you choose; a change applies at once.</source>
        <translation>这台电脑上的 AI 应用（Claude Desktop、Cursor、VS Code、LM Studio…）可以通过 MCP 使用你的记忆。在这里连接应用：它会得到一把只保存在它自己配置里的密钥，并且只能做你允许的事；更改立即生效。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="139" />
        <source>No app is connected yet.</source>
        <translation>还没有连接任何应用。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="146" />
        <source>Connect an app…</source>
        <translation>连接应用…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="148" />
        <source>New key…</source>
        <translation>新密钥…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="150" />
        <source>Remove…</source>
        <translation>移除…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="174" />
        <source>Apps without a key may</source>
        <translation>没有密钥的应用可以</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="177" />
        <source>Nothing</source>
        <translation>什么都不做</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="127" />
        <source>App</source>
        <translation>应用</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="127" />
        <source>May</source>
        <translation>权限</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="127" />
        <source>Last use</source>
        <translation>上次使用</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="127" />
        <source>Reads / writes</source>
        <translation>读取 / 写入</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="128" />
        <source>Spaces</source>
        <translation>空间</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="153" />
        <source>Clear this app's log</source>
        <translation>清除此应用的记录</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="163" />
        <location filename="../../desktop_mem/ui/apps_ui.py" line="167" />
        <source>Spaces it may use</source>
        <translation>可使用的空间</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="194" />
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="226" />
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="226" />
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="250" />
        <source>Select an app first</source>
        <translation>请先选择一个应用</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="255" />
        <source>What %1 may read and write in: never another space.</source>
        <translation>%1 可以读写的空间：绝不会涉及其他空间。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="259" />
        <source>Select an app to choose the spaces it may use.</source>
        <translation>选择一个应用，再选它可以使用的空间。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="289" />
        <source>Connects as “%1”</source>
        <translation>连接时自称“%1”</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="307" />
        <source>needs a new key</source>
        <translation>需要新密钥</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="311" />
        <source>not yet</source>
        <translation>尚未使用</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="347" />
        <source>Connect an app</source>
        <translation>连接应用</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="348" />
        <source>A name for the app (for you: the app is known by its key):</source>
        <translation>给这个应用起个名字（只是给你看的：应用靠它的密钥被识别）：</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="376" />
        <source>New key</source>
        <translation>新密钥</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="378" />
        <source>Give %1 a new key? Its old key stops working at once: paste the new configuration into the app.</source>
        <translation>给 %1 一把新密钥？旧密钥会立即失效：请把新的配置粘贴到该应用中。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="392" />
        <source>Remove app</source>
        <translation>移除应用</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="394" />
        <source>Remove %1? Its key stops working at once and its log is deleted; the memories it wrote stay.</source>
        <translation>移除 %1？它的密钥会立即失效，它的记录也会删除；它写入的记忆会保留。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="407" />
        <source>Connect an app to see the configuration to paste into it.</source>
        <translation>连接一个应用后，这里会显示要粘贴到它里面的配置。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="414" />
        <source>Paste this into %1's MCP configuration. It holds the app's key: keep it as private as a password. It is shown only now (a new key can be made later).</source>
        <translation>把这段粘贴到 %1 的 MCP 配置中。它包含该应用的密钥：请像密码一样保密。它只显示这一次（以后可以生成新密钥）。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="431" />
        <source> memory %1</source>
        <translation> 记忆 %1</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/apps_ui.py" line="432" />
        <source> (%n time(s) that day)</source>
        <translation><numerusform>（当天 %n 次）</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/apps_ui.py" line="435" />
        <source>Nothing recorded.</source>
        <translation>没有记录。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/apps_ui.py" line="438" />
        <source>The log keeps %n day(s); an app's calls of one kind on one memory in a day are one line.</source>
        <translation><numerusform>记录保留 %n 天；一个应用一天内对同一条记忆的同类调用合为一行。</numerusform></translation>
    </message>
</context>
<context>
    <name>BackupPage</name>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="332" />
        <source>A backup is encrypted like your memories. Put the folder in Syncthing, Dropbox or iCloud Drive to carry your memories to another computer: only encrypted data is synced.</source>
        <translation>备份和你的记忆一样是加密的。把备份文件夹放进 Syncthing、Dropbox 或 iCloud 云盘，就能把记忆带到另一台电脑：同步的只有加密数据。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="342" />
        <source>No folder chosen</source>
        <translation>未选择文件夹</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="343" />
        <source>Choose…</source>
        <translation>选择…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="347" />
        <location filename="../../desktop_mem/ui/backup_ui.py" line="478" />
        <source>Backup folder</source>
        <translation>备份文件夹</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="348" />
        <source>Back up every day</source>
        <translation>每天备份</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="355" />
        <source>Backups to keep</source>
        <translation>保留的备份数</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="358" />
        <source>Back up now</source>
        <translation>立即备份</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="360" />
        <source>Restore a backup…</source>
        <translation>恢复备份…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="372" />
        <source>Made</source>
        <translation>创建时间</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="372" />
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="372" />
        <source>Version</source>
        <translation>版本</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="381" />
        <source>Backups in this folder</source>
        <translation>此文件夹中的备份</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="391" />
        <source>Restore this backup…</source>
        <translation>恢复这个备份…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="397" />
        <source>New recovery code…</source>
        <translation>新的恢复码…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="399" />
        <source>Makes a new code and shows it once; the old one stops opening this profile.</source>
        <translation>生成新的恢复码并只显示一次；旧的恢复码将不再能打开此配置。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="425" />
        <source>Choose a folder to see its backups.</source>
        <translation>选择一个文件夹以查看其中的备份。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="427" />
        <source>Looking for backups…</source>
        <translation>正在查找备份…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="454" />
        <source>No backup of this profile in this folder yet.</source>
        <translation>此文件夹中还没有这个配置的备份。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="472" />
        <source>No backup yet.</source>
        <translation>还没有备份。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="474" />
        <source>Last backup: %1</source>
        <translation>上次备份：%1</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="487" />
        <source>Choose a folder for the backups first.</source>
        <translation>请先选择备份文件夹。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="492" />
        <source>Backing up…</source>
        <translation>正在备份…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="496" />
        <source>Backed up to %1</source>
        <translation>已备份到 %1</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="501" />
        <source>A backup is already running.</source>
        <translation>已有一个备份正在进行。</translation>
    </message>
</context>
<context>
    <name>BackupWords</name>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="211" />
        <source>made %1</source>
        <translation>制作于 %1</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/backup_ui.py" line="213" />
        <source>%n memory(s)</source>
        <translation><numerusform>%n 条记忆</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/backup_ui.py" line="214" />
        <source>%n conversation(s)</source>
        <translation><numerusform>%n 个对话</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/backup_ui.py" line="215" />
        <source>%n document(s)</source>
        <translation><numerusform>%n 个文档</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="217" />
        <source>made %1: </source>
        <translation>制作于 %1：</translation>
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
    <message>
        <location filename="../../desktop_mem/ui/changes.py" line="27" />
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/changes.py" line="38" />
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
</context>
<context>
    <name>ChatView</name>
    <message>
        <location filename="../../desktop_mem/ui/chat_view.py" line="128" />
        <location filename="../../desktop_mem/ui/chat_view.py" line="511" />
        <source>Incognito: nothing is remembered or stored</source>
        <translation>无痕模式：不记忆，也不保存</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/chat_view.py" line="135" />
        <location filename="../../desktop_mem/ui/chat_view.py" line="136" />
        <source>Chat model</source>
        <translation>聊天模型</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/chat_view.py" line="151" />
        <source>Retry</source>
        <translation>重试</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/chat_view.py" line="152" />
        <source>Look for the model server again now</source>
        <translation>现在重新查找模型服务器</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/chat_view.py" line="155" />
        <source>Settings…</source>
        <translation>设置…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/chat_view.py" line="156" />
        <source>Change the model server's address</source>
        <translation>更改模型服务器的地址</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/chat_view.py" line="174" />
        <location filename="../../desktop_mem/ui/chat_view.py" line="545" />
        <source>Say hello. What you tell me stays on this computer, encrypted.</source>
        <translation>打个招呼吧。你告诉我的一切都加密保存在这台电脑上。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/chat_view.py" line="195" />
        <source>Editing your message: sending it replaces the answers after it (they are kept as versions).</source>
        <translation>正在编辑你的消息：发送后会替换它之后的回答（旧的会作为其他版本保留）。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/chat_view.py" line="201" />
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/chat_view.py" line="202" />
        <source>Stop editing (Esc)</source>
        <translation>停止编辑（Esc）</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/chat_view.py" line="211" />
        <source>Message (Enter to send, Shift+Enter for a new line)</source>
        <translation>输入消息（Enter 发送，Shift+Enter 换行）</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/chat_view.py" line="213" />
        <source>Message</source>
        <translation>消息</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/chat_view.py" line="219" />
        <source>Send</source>
        <translation>发送</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/chat_view.py" line="221" />
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/chat_view.py" line="360" />
        <source>The model server is not answering: your message waits here until it does.</source>
        <translation>模型服务器没有响应：你的消息会留在这里，等它恢复后再发送。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/chat_view.py" line="479" />
        <source>The model server is not answering: this works again once it does.</source>
        <translation>模型服务器没有响应：它恢复后即可再用。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/chat_view.py" line="521" />
        <source>Incognito</source>
        <translation>无痕</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/chat_view.py" line="530" />
        <source>Space: %1</source>
        <translation>空间：%1</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/chat_view.py" line="541" />
        <source>Incognito: nothing you say here is remembered or stored, and no memory is used. Closing it leaves no trace.</source>
        <translation>无痕模式：你在这里说的话不会被记住或保存，也不会使用任何记忆。关闭后不留痕迹。</translation>
    </message>
</context>
<context>
    <name>ConnectionController</name>
    <message>
        <location filename="../../desktop_mem/ui/connection.py" line="83" />
        <source>Nothing answers at %1.</source>
        <translation>%1 没有响应。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/connection.py" line="131" />
        <source>Preparing search for %1…</source>
        <translation>正在为 %1 准备搜索…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/connection.py" line="177" />
        <source>Embedding model not installed</source>
        <translation>未安装嵌入模型</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/connection.py" line="180" />
        <source>The embedding model %1 (a %2 download) is not installed in Ollama, so memories are found by their words only, not by their meaning. Download it now? Everything saved meanwhile is indexed once it is there.</source>
        <translation>嵌入模型 %1（需下载 %2）尚未安装在 Ollama 中，因此只能按字词而不能按含义查找记忆。现在下载吗？在此期间保存的内容会在它就绪后建立索引。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/connection.py" line="186" />
        <source>The embedding model %1 is not installed in Ollama, so memories are found by their words only, not by their meaning. Download it now? Everything saved meanwhile is indexed once it is there.</source>
        <translation>嵌入模型 %1 尚未安装在 Ollama 中，因此只能按字词而不能按含义查找记忆。现在下载吗？在此期间保存的内容会在它就绪后建立索引。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/connection.py" line="192" />
        <source>Model not installed</source>
        <translation>模型未安装</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/connection.py" line="194" />
        <source>The chat model %1 (a %2 download) is not installed in Ollama. Download it now?</source>
        <translation>聊天模型 %1（需下载 %2）尚未安装在 Ollama 中。现在下载吗？</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/connection.py" line="197" />
        <source>The chat model %1 is not installed in Ollama. Download it now?</source>
        <translation>Ollama 中没有安装聊天模型 %1。现在下载吗？</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/connection.py" line="234" />
        <source>Downloading: %1 of %2</source>
        <translation>正在下载：%1 / %2</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/connection.py" line="236" />
        <source>Downloading %1…</source>
        <translation>正在下载 %1…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/connection.py" line="244" />
        <source>%1 is downloaded.</source>
        <translation>%1 已下载。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/connection.py" line="269" />
        <source>Indexing for search by meaning…</source>
        <translation>正在建立按含义搜索的索引…</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/connection.py" line="284" />
        <source>Indexed: %n item(s) can now be found by meaning too.</source>
        <translation><numerusform>索引完成：%n 项现在也能按含义找到了。</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/connection.py" line="293" />
        <source>Indexing stopped: %1</source>
        <translation>索引已停止：%1</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/connection.py" line="253" />
        <source>Download failed</source>
        <translation>下载失败</translation>
    </message>
</context>
<context>
    <name>ConversationListModel</name>
    <message>
        <location filename="../../desktop_mem/ui/item_models.py" line="276" />
        <source>Pinned</source>
        <translation>置顶</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/item_models.py" line="277" />
        <source>Today</source>
        <translation>今天</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/item_models.py" line="278" />
        <source>Yesterday</source>
        <translation>昨天</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/item_models.py" line="279" />
        <source>Previous 7 days</source>
        <translation>过去 7 天</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/item_models.py" line="280" />
        <source>Previous 30 days</source>
        <translation>过去 30 天</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/item_models.py" line="281" />
        <source>Older</source>
        <translation>更早</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/item_models.py" line="360" />
        <source>New conversation</source>
        <translation>新对话</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/item_models.py" line="370" />
        <source>%n message(s), last %1</source>
        <translation><numerusform>%n 条消息，最近 %1</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/item_models.py" line="374" />
        <source>from %1, %2</source>
        <translation>来自 %1，%2</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/item_models.py" line="379" />
        <source>In the shared space</source>
        <translation>在共享空间中</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/item_models.py" line="381" />
        <source>In the space %1</source>
        <translation>在空间“%1”中</translation>
    </message>
</context>
<context>
    <name>ConversationsController</name>
    <message>
        <location filename="../../desktop_mem/ui/conversations_controller.py" line="121" />
        <source>This chat is in the shared space: it is given the shared memories only, and what it teaches is kept there.</source>
        <translation>这个对话在共享空间中：只会提供共享的记忆，从中学到的也保存在共享空间。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/conversations_controller.py" line="124" />
        <source>This chat is in the space %1 and is kept apart: it is given that space's memories only.</source>
        <translation>这个对话在空间“%1”中，且该空间是隔离的：只会提供这个空间的记忆。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/conversations_controller.py" line="127" />
        <source>This chat is in the space %1: it is given that space's memories and the shared ones.</source>
        <translation>这个对话在空间“%1”中：会提供这个空间的记忆和共享的记忆。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/conversations_controller.py" line="218" />
        <source>Incognito conversation</source>
        <translation>无痕对话</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/conversations_controller.py" line="218" />
        <location filename="../../desktop_mem/ui/conversations_controller.py" line="236" />
        <location filename="../../desktop_mem/ui/conversations_controller.py" line="355" />
        <source>New conversation</source>
        <translation>新对话</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/conversations_controller.py" line="238" />
        <source>from %1, %2</source>
        <translation>来自 %1，%2</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/conversations_controller.py" line="314" />
        <source>Unpin</source>
        <translation>取消置顶</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/conversations_controller.py" line="314" />
        <source>Pin to the top</source>
        <translation>置顶</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/conversations_controller.py" line="315" />
        <source>Rename…</source>
        <translation>重命名…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/conversations_controller.py" line="322" />
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/conversations_controller.py" line="323" />
        <source>Delete…</source>
        <translation>删除…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/conversations_controller.py" line="350" />
        <source>“%1” is now in the shared space.</source>
        <translation>“%1”已移到共享空间。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/conversations_controller.py" line="352" />
        <source>“%1” is now in the space %2.</source>
        <translation>“%1”已移到空间“%2”。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/conversations_controller.py" line="362" />
        <source>Rename</source>
        <translation>重命名</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/conversations_controller.py" line="362" />
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/conversations_controller.py" line="377" />
        <source>Export conversation</source>
        <translation>导出对话</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/conversations_controller.py" line="379" />
        <source>Markdown (*.md);;JSON (*.json)</source>
        <translation>Markdown (*.md);;JSON (*.json)</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/conversations_controller.py" line="390" />
        <source>Exported to %1.</source>
        <translation>已导出到 %1。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/conversations_controller.py" line="395" />
        <source>Delete this conversation for good? Memories learned from it stay.</source>
        <translation>永久删除这个对话？从中学到的记忆会保留。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/conversations_controller.py" line="398" />
        <source>%n of them will no longer quote what was said in it.</source>
        <translation><numerusform>其中 %n 条记忆将不再引用这个对话中的内容。</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/conversations_controller.py" line="404" />
        <source>Delete conversation</source>
        <translation>删除对话</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/conversations_controller.py" line="416" />
        <source>The conversation was deleted.</source>
        <translation>对话已删除。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/conversations_controller.py" line="419" />
        <source>Deleting…</source>
        <translation>正在删除…</translation>
    </message>
</context>
<context>
    <name>ConversationsPanel</name>
    <message>
        <location filename="../../desktop_mem/ui/conversations_panel.py" line="189" />
        <source>Space</source>
        <translation>空间</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/conversations_panel.py" line="191" />
        <source>The space new chats start in; the list shows its conversations (All spaces: every conversation, each with its space's name)</source>
        <translation>新对话开始于这个空间；列表显示它的对话（所有空间：显示全部对话，并标出各自的空间）</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/conversations_panel.py" line="202" />
        <source>New chat</source>
        <translation>新对话</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/conversations_panel.py" line="204" />
        <source>Incognito</source>
        <translation>无痕</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/conversations_panel.py" line="206" />
        <source>A chat that reads and writes no memory and is not stored</source>
        <translation>不读取、不写入记忆，也不保存的对话</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/conversations_panel.py" line="213" />
        <source>Search conversations</source>
        <translation>搜索对话</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/conversations_panel.py" line="230" />
        <source>Conversations</source>
        <translation>对话</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/conversations_panel.py" line="301" />
        <source>No conversation is about this.</source>
        <translation>没有与此相关的对话。</translation>
    </message>
</context>
<context>
    <name>DocumentsPage</name>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="70" />
        <source>Markdown</source>
        <translation>Markdown</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="71" />
        <source>Plain text</source>
        <translation>纯文本</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="72" />
        <source>PDF</source>
        <translation>PDF</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="73" />
        <source>Word</source>
        <translation>Word</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="74" />
        <source>Web page</source>
        <translation>网页</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="92" />
        <source>Your documents (Markdown, text, PDF, Word, HTML) as knowledge for the chat: their passages are stored encrypted with your memories, the files are only read. Drop files or folders here; a folder is watched for changes.</source>
        <translation>把你的文档（Markdown、文本、PDF、Word、HTML）作为聊天的知识：文档片段和记忆一起加密保存，文件本身只读不改。把文件或文件夹拖到这里；文件夹的变化会被跟踪。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="104" />
        <location filename="../../desktop_mem/ui/documents_ui.py" line="140" />
        <source>Space</source>
        <translation>空间</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="111" />
        <source>Add files…</source>
        <translation>添加文件…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="113" />
        <source>Add folder…</source>
        <translation>添加文件夹…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="115" />
        <source>Re-read now</source>
        <translation>立即重新读取</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="117" />
        <source>Remove…</source>
        <translation>移除…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="121" />
        <location filename="../../desktop_mem/ui/documents_ui.py" line="161" />
        <source>Move to space</source>
        <translation>移到空间</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="123" />
        <source>Move the selected documents to another space (a watched folder's documents move with their folder)</source>
        <translation>把选中的文档移到另一个空间（监视文件夹中的文档随文件夹一起移动）</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="130" />
        <source>Pause background re-reading</source>
        <translation>暂停后台重新读取</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="139" />
        <source>Document</source>
        <translation>文档</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="139" />
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="139" />
        <source>Passages</source>
        <translation>片段</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="139" />
        <source>Where</source>
        <translation>位置</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="154" />
        <source>Watched folders</source>
        <translation>监视的文件夹</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="162" />
        <source>Move the folder, and every document of it, to another space</source>
        <translation>把这个文件夹及其中的所有文档移到另一个空间</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="168" />
        <source>Stop watching…</source>
        <translation>停止监视…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="175" />
        <source>No documents yet: add files or folders, or drop them here.</source>
        <translation>还没有文档：添加文件或文件夹，或拖到这里。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="181" />
        <source>Search the documents' passages</source>
        <translation>搜索文档片段</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="219" />
        <source>Added to the space %1</source>
        <translation>添加到空间“%1”</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="223" />
        <source>The space whose documents are listed, and where added ones go (All spaces: the shared space)</source>
        <translation>列出哪个空间的文档，新添加的文档也放在这里（所有空间：放入共享空间）</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/documents_ui.py" line="310" />
        <source>%n document(s) moved to the shared space.</source>
        <translation><numerusform>%n 个文档已移到共享空间。</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/documents_ui.py" line="311" />
        <source>%n document(s) moved to the space %1.</source>
        <translation><numerusform>%n 个文档已移到空间“%1”。</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="339" />
        <source>%1 (%2 pages)</source>
        <translation>%1（%2 页）</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/documents_ui.py" line="355" />
        <source>%1 (%n document(s))</source>
        <translation><numerusform>%1（%n 个文档）</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="363" />
        <source>none: add a folder to watch it</source>
        <translation>无：添加一个文件夹即可监视它</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="379" />
        <source>Add documents</source>
        <translation>添加文档</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="381" />
        <source>Documents (*.md *.markdown *.txt *.pdf *.docx *.html *.htm)</source>
        <translation>文档 (*.md *.markdown *.txt *.pdf *.docx *.html *.htm)</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="387" />
        <source>Add a folder</source>
        <translation>添加文件夹</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="403" />
        <source>Documents are being read: wait for it to finish.</source>
        <translation>正在读取文档：请等它完成。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="430" />
        <source>Reading documents…</source>
        <translation>正在读取文档…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="456" />
        <source>Documents: %1 added, %2 updated, %3 removed.</source>
        <translation>文档：添加 %1 个，更新 %2 个，移除 %3 个。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="437" />
        <source>Some files were not added</source>
        <translation>部分文件没有添加</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/documents_ui.py" line="462" />
        <source>%n watched folder(s) could not be read (a drive not connected?): their documents are kept.</source>
        <translation><numerusform>有 %n 个监视的文件夹无法读取（驱动器没有连接？）：其中的文档已保留。</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/documents_ui.py" line="471" />
        <source>%n passage(s) can be found by their words until the embedding model is there.</source>
        <translation><numerusform>在嵌入模型就绪之前，%n 个段落只能按字词查找。</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/documents_ui.py" line="487" />
        <source>%n of them are already in other spaces and stay there: Move to space moves them.</source>
        <translation><numerusform>其中 %n 项已在其他空间中，仍留在那里：用“移到空间”可以移动它们。</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="494" />
        <source>The folder %1 is already watched in “%2” and stays there: its Move to space moves it.</source>
        <translation>文件夹 %1 已在“%2”中被监视，仍留在那里：用它旁边的“移到空间”可以移动它。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="499" />
        <source>%1 is in a watched folder of “%2” and stays there: move its folder to move it.</source>
        <translation>%1 在“%2”的一个监视文件夹中，仍留在那里：移动它所在的文件夹才能移动它。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="502" />
        <source>%1 is already in “%2” and stays there: Move to space moves it.</source>
        <translation>%1 已在“%2”中，仍留在那里：用“移到空间”可以移动它。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="531" />
        <source>Stop watching</source>
        <translation>停止监视</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="534" />
        <source>Stop watching %1? Its files are not touched. Remove its documents from desktop-mem too, or keep them (no longer re-read)?</source>
        <translation>停止监视 %1？其中的文件不会被改动。要同时从 desktop-mem 中移除它的文档，还是保留它们（不再重新读取）？</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="538" />
        <source>Remove them</source>
        <translation>移除它们</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="539" />
        <source>Keep them</source>
        <translation>保留它们</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/documents_ui.py" line="548" />
        <source>No longer watching the folder; its %n document(s) stay.</source>
        <translation><numerusform>已不再监视该文件夹；其中的 %n 个文档保留。</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/documents_ui.py" line="551" />
        <source>No longer watching the folder; its %n document(s) are removed.</source>
        <translation><numerusform>已不再监视该文件夹；其中的 %n 个文档已移除。</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="567" />
        <source>Remove documents</source>
        <translation>移除文档</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/documents_ui.py" line="569" />
        <source>Remove %n document(s) and every passage of them from desktop-mem, for good? The files themselves are not touched.</source>
        <translation><numerusform>要从 desktop-mem 中永久移除 %n 个文档及其全部片段吗？文件本身不受影响。</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/documents_ui.py" line="602" />
        <source>shaped %n answer(s)</source>
        <translation><numerusform>影响了 %n 个回答</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/documents_ui.py" line="607" />
        <source>No passage is about this.</source>
        <translation>没有与此相关的片段。</translation>
    </message>
</context>
<context>
    <name>EditFactDialog</name>
    <message>
        <location filename="../../desktop_mem/ui/review_dialog.py" line="57" />
        <source>Edit and accept</source>
        <translation>编辑后接受</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/review_dialog.py" line="59" />
        <source>The memory, as it should be kept:</source>
        <translation>这条记忆要保存成的样子：</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/review_dialog.py" line="67" />
        <source>Accept</source>
        <translation>接受</translation>
    </message>
</context>
<context>
    <name>ForgetDialog</name>
    <message>
        <location filename="../../desktop_mem/ui/forget_dialog.py" line="43" />
        <source>Forget</source>
        <translation>忘记</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/forget_dialog.py" line="49" />
        <source>Tick what to delete for good. An earlier message you untick stays to read, but the assistant no longer sees it.</source>
        <translation>勾选要永久删除的内容。取消勾选的以前的消息会保留以供阅读，但助手不再看到它。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/forget_dialog.py" line="62" />
        <source>(pinned)</source>
        <translation>（已置顶）</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/forget_dialog.py" line="60" />
        <source>Memories (%n)</source>
        <translation><numerusform>记忆（%n）</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/forget_dialog.py" line="67" />
        <source>Earlier messages that mention it (%n)</source>
        <translation><numerusform>提到它的以前的消息（%n）</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/forget_dialog.py" line="69" />
        <source>You</source>
        <translation>你</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/forget_dialog.py" line="69" />
        <source>Assistant</source>
        <translation>助手</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/forget_dialog.py" line="76" />
        <source>%n more memory(s) or message(s) mention it: after these, say the same “forget …” again.</source>
        <translation><numerusform>还有 %n 条记忆或消息提到它：删除这些之后，再说一次同样的“忘记……”。</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/forget_dialog.py" line="86" />
        <source>Delete selected</source>
        <translation>删除所选</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/forget_dialog.py" line="123" />
        <source>Keep it as:</source>
        <translation>保留为：</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/forget_dialog.py" line="123" />
        <source>Keep the rest:</source>
        <translation>保留其余部分：</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/forget_dialog.py" line="127" />
        <source>This memory says more than what you forget: the rest stays as a memory. Edit it down to what should stay.</source>
        <translation>这条记忆说的不只是你要忘记的内容：其余部分会作为一条记忆保留。请把它改成应该保留的内容。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/forget_dialog.py" line="132" />
        <source>The rest of this memory, to keep</source>
        <translation>这条记忆要保留的其余部分</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/forget_dialog.py" line="140" />
        <source>It is about your health or safety: it stays as it is unless you edit it or untick this.</source>
        <translation>它与你的健康或安全有关：除非你修改它或取消勾选，否则会原样保留。</translation>
    </message>
</context>
<context>
    <name>ForgetEverythingDialog</name>
    <message>
        <location filename="../../desktop_mem/ui/forget_dialog.py" line="190" />
        <source>This deletes all %n memory(s) of this profile for good, and the earlier messages that said them: every conversation goes too, unless you keep them below. Your documents stay.</source>
        <translation>这会永久删除此配置的全部 %n 条记忆，以及说过这些内容的以前的消息：除非你在下面选择保留，所有对话也会一并删除。你的文档会保留。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/forget_dialog.py" line="199" />
        <source>Forget everything</source>
        <translation>忘记一切</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/forget_dialog.py" line="201" />
        <source>FORGET</source>
        <translation>全部忘记</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/forget_dialog.py" line="206" />
        <source>Keep my %n conversation(s) to read (the assistant will no longer see them)</source>
        <translation><numerusform>保留我的 %n 个对话以供阅读（助手将不再看到它们）</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/forget_dialog.py" line="211" />
        <source>%n message(s) in all</source>
        <translation><numerusform>共 %n 条消息</numerusform></translation>
    </message>
</context>
<context>
    <name>ImportController</name>
    <message>
        <location filename="../../desktop_mem/ui/import_dialog.py" line="58" />
        <source>Facts</source>
        <translation>事实</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/import_dialog.py" line="59" />
        <source>Preferences</source>
        <translation>偏好</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/import_dialog.py" line="60" />
        <source>Events</source>
        <translation>事件</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/import_dialog.py" line="61" />
        <source>Plans</source>
        <translation>计划</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/import_dialog.py" line="62" />
        <source>People</source>
        <translation>人物</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/import_dialog.py" line="63" />
        <source>Notes</source>
        <translation>笔记</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/import_dialog.py" line="72" />
        <source>a pasted list</source>
        <translation>粘贴的列表</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/import_dialog.py" line="78" />
        <source>from %1, %2</source>
        <translation>来自 %1，%2</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/import_dialog.py" line="79" />
        <source>from %1</source>
        <translation>来自 %1</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/import_dialog.py" line="83" />
        <source>This file is from %1.</source>
        <translation>这个文件来自 %1。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/import_dialog.py" line="85" />
        <source>%n new conversation(s)</source>
        <translation><numerusform>%n 个新对话</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/import_dialog.py" line="86" />
        <source>%n message(s)</source>
        <translation><numerusform>%n 条消息</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/import_dialog.py" line="88" />
        <source>(%1 to %2)</source>
        <translation>（%1 至 %2）</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/import_dialog.py" line="94" />
        <source>%n conversation(s) imported before: not added again</source>
        <translation><numerusform>%n 个对话以前导入过：不会重复添加</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/import_dialog.py" line="97" />
        <source>%n empty conversation(s): left out</source>
        <translation><numerusform>%n 个空对话：不导入</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/import_dialog.py" line="99" />
        <source>%n saved memory(s): proposed for you to review</source>
        <translation><numerusform>%n 条已保存的记忆：交给你审阅</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/import_dialog.py" line="103" />
        <source>%n fact(s) you told it about yourself: proposed for you to review</source>
        <translation><numerusform>你告诉它的关于你自己的 %n 条事实：交给你审阅</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/import_dialog.py" line="111" />
        <source>%n project(s): instructions proposed for review, documents kept with your conversations</source>
        <translation><numerusform>%n 个项目：其指令供你审阅，其文档与你的对话一起保存</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/import_dialog.py" line="119" />
        <source>%n entry(s) in a form this app does not know: skipped</source>
        <translation><numerusform>%n 项的格式本应用无法识别：已跳过</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/import_dialog.py" line="122" />
        <source>Nothing new to import.</source>
        <translation>没有新的内容可导入。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/import_dialog.py" line="204" />
        <source>Reading the export…</source>
        <translation>正在读取导出文件…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/import_dialog.py" line="219" />
        <source>Nothing was imported</source>
        <translation>没有导入任何内容</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/import_dialog.py" line="183" />
        <location filename="../../desktop_mem/ui/import_dialog.py" line="231" />
        <location filename="../../desktop_mem/ui/import_dialog.py" line="248" />
        <source>Import</source>
        <translation>导入</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/import_dialog.py" line="133" />
        <source>a PDF document</source>
        <translation>PDF 文档</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/import_dialog.py" line="134" />
        <source>a picture</source>
        <translation>图片</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/import_dialog.py" line="135" />
        <source>a Word document</source>
        <translation>Word 文档</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/import_dialog.py" line="136" />
        <source>a spreadsheet</source>
        <translation>电子表格</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/import_dialog.py" line="137" />
        <source>a web page</source>
        <translation>网页</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/import_dialog.py" line="138" />
        <source>a zip without a conversations.json in it</source>
        <translation>里面没有 conversations.json 的 zip 文件</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/import_dialog.py" line="139" />
        <source>empty</source>
        <translation>空文件</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/import_dialog.py" line="140" />
        <source>not a text file</source>
        <translation>不是文本文件</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/import_dialog.py" line="141" />
        <source>a table (CSV)</source>
        <translation>表格（CSV）</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/import_dialog.py" line="142" />
        <source>a table of memories</source>
        <translation>记忆表格</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/import_dialog.py" line="143" />
        <source>JSON of another kind</source>
        <translation>其他类型的 JSON</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/import_dialog.py" line="144" />
        <source>a file of another kind</source>
        <translation>其他类型的文件</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/import_dialog.py" line="147" />
        <source>%1 is %2, not an export this app reads: choose the zip that ChatGPT or Claude sent you (or the conversations.json in it), or a memories file.</source>
        <translation>%1 是%2，不是本应用能读取的导出文件：请选择 ChatGPT 或 Claude 发给你的 zip 文件（或其中的 conversations.json），或者一个记忆文件。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/import_dialog.py" line="155" />
        <source>%1 is locked with a password, so nothing was imported: download the export again from the service.</source>
        <translation>%1 设有密码，所以什么都没有导入：请从该服务重新下载导出文件。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/import_dialog.py" line="159" />
        <source>%1 is not a safe zip (it points outside itself, or unpacks to far more than it holds), so nothing was imported: download the export again.</source>
        <translation>%1 不是安全的 zip 文件（它指向自身之外，或解压后远大于它本身），所以什么都没有导入：请重新下载导出文件。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/import_dialog.py" line="163" />
        <source>%1 holds no conversations.json: choose the folder you unpacked the export into, or the export's zip.</source>
        <translation>%1 中没有 conversations.json：请选择你解压导出文件的文件夹，或导出的 zip 文件。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/import_dialog.py" line="166" />
        <source>%1 holds no memories: nothing was imported.</source>
        <translation>%1 中没有记忆：什么都没有导入。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/import_dialog.py" line="171" />
        <source>%1 cannot be read whole, so nothing was imported from it: download the export again.</source>
        <translation>%1 无法完整读取，所以其中的内容都没有导入：请重新下载导出文件。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/import_dialog.py" line="185" />
        <source>Exports and memories (*.zip *.json *.txt *.md *.markdown *.csv);;All files (*)</source>
        <translation>导出文件和记忆 (*.zip *.json *.txt *.md *.markdown *.csv);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/import_dialog.py" line="237" />
        <source>Use its custom instructions in this profile</source>
        <translation>在此配置中使用其中的自定义指令</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/import_dialog.py" line="242" />
        <source>Conversations become searchable history, dated as they were written. Facts about you found in them are proposed for you to review; none is used before you accept it.</source>
        <translation>对话会成为可搜索的历史记录，保留原来的日期。从中发现的关于你的事实会交给你审阅；你接受之前，一条都不会被使用。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/import_dialog.py" line="269" />
        <source>They go to %1, the space you are in.</source>
        <translation>它们会放进你所在的空间“%1”。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/import_dialog.py" line="271" />
        <source>They go to the shared space.</source>
        <translation>它们会放进共享空间。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/import_dialog.py" line="274" />
        <source>Each of its %n project(s) goes to a space of its own.</source>
        <translation><numerusform>每个项目（共 %n 个）各放进一个单独的空间。</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/import_dialog.py" line="281" />
        <source>Importing conversations…</source>
        <translation>正在导入对话…</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/import_dialog.py" line="304" />
        <source>Imported %n conversation(s)</source>
        <translation><numerusform>已导入 %n 个对话</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/import_dialog.py" line="305" />
        <source>%n message(s).</source>
        <translation><numerusform>%n 条消息。</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/import_dialog.py" line="307" />
        <source>They are found by their words until the model server answers.</source>
        <translation>在模型服务器恢复之前，只能按字词找到它们。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/import_dialog.py" line="324" />
        <source>Finding facts in your imported messages…</source>
        <translation>正在从你导入的消息中找出事实…</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/import_dialog.py" line="350" />
        <source>%n fact(s) found in your imported conversations:</source>
        <translation><numerusform>在你导入的对话中发现了 %n 条事实：</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/import_dialog.py" line="353" />
        <source>Review</source>
        <translation>审阅</translation>
    </message>
</context>
<context>
    <name>LineRow</name>
    <message>
        <location filename="../../desktop_mem/ui/about_dialog.py" line="61" />
        <source>In your words. From: %1</source>
        <translation>你自己写的。来自：%1</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/about_dialog.py" line="61" />
        <source>From: %1</source>
        <translation>来自：%1</translation>
    </message>
</context>
<context>
    <name>LockedDialog</name>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="133" />
        <source>Your memories are locked</source>
        <translation>你的记忆已锁定</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="137" />
        <source>The key of the profile “%1” is not in this computer's keyring (it was reset, or this is a new computer). Enter the recovery code you wrote down when the profile was made, or restore a backup.</source>
        <translation>配置“%1”的密钥不在这台电脑的钥匙环中（钥匙环被重置，或这是一台新电脑）。请输入创建配置时抄下的恢复码，或恢复一个备份。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="147" />
        <source>Recovery code</source>
        <translation>恢复码</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="155" />
        <source>Unlock</source>
        <translation>解锁</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="157" />
        <source>Restore a backup…</source>
        <translation>恢复备份…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="159" />
        <source>Quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="175" />
        <source>A recovery code has 24 letters and digits in six groups: check it.</source>
        <translation>恢复码由六组共 24 个字母和数字组成：请核对。</translation>
    </message>
</context>
<context>
    <name>LostChangesBox</name>
    <message>
        <location filename="../../desktop_mem/ui/sync_lost.py" line="41" />
        <source>Changes a merge could not keep</source>
        <translation>合并时未能保留的更改</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_lost.py" line="48" />
        <source>A deletion made on one computer wins over what another changed at the same time. What it replaced is kept here until you dismiss it.</source>
        <translation>一台电脑上的删除优先于另一台电脑同时做的更改。被删除覆盖的内容会保留在这里，直到你将其移除。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_lost.py" line="64" />
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_lost.py" line="66" />
        <source>Keep as a new memory</source>
        <translation>保留为新记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_lost.py" line="67" />
        <source>Add its text back as a new memory of yours</source>
        <translation>把这段文字重新添加为你的一条新记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_lost.py" line="69" />
        <source>Dismiss…</source>
        <translation>移除…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_lost.py" line="70" />
        <source>Delete its text for good</source>
        <translation>永久删除这段文字</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_lost.py" line="97" />
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_lost.py" line="124" />
        <source>Copied.</source>
        <translation>已复制。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_lost.py" line="133" />
        <source>Kept as a new memory.</source>
        <translation>已保留为新记忆。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_lost.py" line="144" />
        <source>Dismiss</source>
        <translation>移除</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_lost.py" line="146" />
        <source>Delete this text for good? It is in no memory or conversation any more: once dismissed, it cannot be brought back.</source>
        <translation>要永久删除这段文字吗？它已不在任何记忆或对话中：移除后将无法恢复。</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="122" />
        <location filename="../../desktop_mem/ui/main_window.py" line="456" />
        <source>desktop-mem</source>
        <translation>desktop-mem</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/selftest.py" line="76" />
        <source>New chat</source>
        <translation>新对话</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="310" />
        <source>Search conversations</source>
        <translation>搜索对话</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="168" />
        <source>Backed up to %1</source>
        <translation>已备份到 %1</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="172" />
        <source>The backup failed: %1</source>
        <translation>备份失败：%1</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="246" />
        <source>Chat</source>
        <translation>聊天</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="247" />
        <source>Memories</source>
        <translation>记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="248" />
        <source>Documents</source>
        <translation>文档</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="296" />
        <source>&amp;Chat</source>
        <translation>聊天(&amp;C)</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="297" />
        <source>New conversation</source>
        <translation>新对话</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="299" />
        <source>New incognito conversation</source>
        <translation>新的无痕对话</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="302" />
        <source>Regenerate</source>
        <translation>重新生成</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="305" />
        <source>Edit last message</source>
        <translation>编辑上一条消息</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="313" />
        <source>Settings…</source>
        <translation>设置…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="315" />
        <source>Delete all conversations and memories…</source>
        <translation>删除所有对话和记忆…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="318" />
        <source>Quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="319" />
        <source>&amp;Memories</source>
        <translation>记忆(&amp;M)</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="321" />
        <source>Show memories</source>
        <translation>显示记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="324" />
        <source>Search memories</source>
        <translation>搜索记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="325" />
        <source>New memory…</source>
        <translation>新建记忆…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="326" />
        <source>About you…</source>
        <translation>关于你…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="327" />
        <source>Consolidate now</source>
        <translation>立即整理</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="328" />
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="329" />
        <source>Import…</source>
        <translation>导入…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="330" />
        <source>Import from ChatGPT, Claude…</source>
        <translation>从 ChatGPT、Claude 导入…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="331" />
        <source>Review imported memories…</source>
        <translation>审阅导入的记忆…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="332" />
        <source>Learn automatically</source>
        <translation>自动学习</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="338" />
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="339" />
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="340" />
        <location filename="../../desktop_mem/ui/main_window.py" line="422" />
        <source>About desktop-mem</source>
        <translation>关于 desktop-mem</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="424" />
        <source>desktop-mem %1
A local language model with a long-term memory you can see and control. Your conversations and memories are encrypted on this computer.</source>
        <translation>desktop-mem %1
一个拥有长期记忆的本地语言模型，记忆由你查看和掌控。你的对话和记忆都加密保存在这台电脑上。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="441" />
        <source>The model server answers with an error: you can read and search, not send.</source>
        <translation>模型服务器返回了错误：你可以阅读和搜索，但不能发送。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/main_window.py" line="443" />
        <source>The model server is not answering: you can read and search, not send.</source>
        <translation>模型服务器没有响应：你可以阅读和搜索，但不能发送。</translation>
    </message>
</context>
<context>
    <name>MemoryBrowser</name>
    <message>
        <location filename="../../desktop_mem/ui/memory_drawer.py" line="43" />
        <source>created</source>
        <translation>创建</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_drawer.py" line="44" />
        <source>edited</source>
        <translation>编辑</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_drawer.py" line="45" />
        <source>updated</source>
        <translation>更新</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_drawer.py" line="46" />
        <source>restored</source>
        <translation>恢复</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_drawer.py" line="47" />
        <source>pinned</source>
        <translation>置顶</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_drawer.py" line="48" />
        <source>unpinned</source>
        <translation>取消置顶</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_drawer.py" line="49" />
        <source>given in every chat</source>
        <translation>改为每次对话都提供</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_drawer.py" line="50" />
        <source>given only when found</source>
        <translation>改为仅在相关时提供</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_drawer.py" line="51" />
        <source>marked no longer true</source>
        <translation>标记为不再成立</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_drawer.py" line="52" />
        <source>moved to another space</source>
        <translation>移到了另一个空间</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_drawer.py" line="57" />
        <source>wants to change #%1</source>
        <translation>想修改 #%1</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_drawer.py" line="58" />
        <source>merged into #%1</source>
        <translation>并入 #%1</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_drawer.py" line="59" />
        <source>contradicted by #%1</source>
        <translation>被 #%1 否定</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="81" />
        <source>Search memories (meaning and words, 中文 or English)</source>
        <translation>搜索记忆（语义和关键词，中文或英文）</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="87" />
        <source>Weak matches too</source>
        <translation>也显示弱匹配</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="91" />
        <source>New memory…</source>
        <translation>新建记忆…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="92" />
        <source>Write a memory of your own</source>
        <translation>自己写一条记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="100" />
        <source>Space</source>
        <translation>空间</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="101" />
        <source>The space whose memories are listed and searched</source>
        <translation>列出和搜索哪个空间的记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="110" />
        <source>All kinds</source>
        <translation>所有类型</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="115" />
        <source>Pinned only</source>
        <translation>仅置顶</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="118" />
        <source>In every chat</source>
        <translation>每次对话都提供</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="120" />
        <source>Only the memories given to the model in every chat: what is about your health or safety, and what you asked to be always remembered</source>
        <translation>只显示每次对话都提供给模型的记忆：与你的健康或安全有关的，以及你要求一直记住的</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="127" />
        <source>Any date</source>
        <translation>任何日期</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="129" />
        <source>Created on or after</source>
        <translation>创建于此日期或之后</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="134" />
        <source>Order of the list</source>
        <translation>列表的排序</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="146" />
        <source>Only the memories edited on two computers at once</source>
        <translation>只显示曾在两台电脑上同时被编辑的记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="151" />
        <source>Show every memory</source>
        <translation>显示全部记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="172" />
        <source>Memories</source>
        <translation>记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="216" />
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="218" />
        <source>Import…</source>
        <translation>导入…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="220" />
        <source>Forget everything…</source>
        <translation>忘记一切…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="234" />
        <source>Newest first</source>
        <translation>最新的在前</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="235" />
        <source>Oldest first</source>
        <translation>最早的在前</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="236" />
        <source>Recently edited</source>
        <translation>最近编辑的在前</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="237" />
        <source>Most important</source>
        <translation>最重要的在前</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="238" />
        <source>By kind</source>
        <translation>按类型</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="239" />
        <source>A to Z</source>
        <translation>按字母顺序</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="306" />
        <source>Move to space</source>
        <translation>移到空间</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="308" />
        <source>Delete…</source>
        <translation>删除…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="385" />
        <source>Best match first</source>
        <translation>最相关的在前</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/memory_browser.py" line="391" />
        <source>%n memory(s)</source>
        <translation><numerusform>%n 条记忆</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/memory_browser.py" line="394" />
        <location filename="../../desktop_mem/ui/memory_browser.py" line="397" />
        <source>%n match(es)</source>
        <translation><numerusform>%n 条匹配</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/memory_browser.py" line="394" />
        <source>%n weaker</source>
        <translation><numerusform>另有 %n 条较弱的</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/memory_browser.py" line="399" />
        <source>No relevant match; %n weaker one(s) below</source>
        <translation><numerusform>没有相关的匹配；下面是 %n 条较弱的</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="401" />
        <source>No matches</source>
        <translation>没有匹配</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="417" />
        <source>No memory is about this. Tick “Weak matches too” to see the nearest.</source>
        <translation>没有与此相关的记忆。勾选“也显示弱匹配”可以看到最接近的几条。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="419" />
        <source>No memory fits these filters.</source>
        <translation>没有符合这些筛选条件的记忆。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_browser.py" line="422" />
        <source>No memories yet. Tell the assistant about yourself in a chat, or write one with New memory…</source>
        <translation>还没有记忆。在聊天中向助手介绍你自己，或点击“新建记忆…”自己写一条。</translation>
    </message>
</context>
<context>
    <name>MemoryController</name>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/memory_controller.py" line="112" />
        <source>Made %n memory(s) shared.</source>
        <translation><numerusform>已将 %n 条记忆设为共享。</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/memory_controller.py" line="114" />
        <source>Moved %n memory(s) to %1.</source>
        <translation><numerusform>已将 %n 条记忆移到“%1”。</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_controller.py" line="239" />
        <source>That memory was forgotten: it is no longer kept.</source>
        <translation>这条记忆已被忘记，不再保存。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_controller.py" line="265" />
        <source>an app without a key</source>
        <translation>没有密钥的应用</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_controller.py" line="266" />
        <source>an app with a key that is not valid</source>
        <translation>密钥无效的应用</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_controller.py" line="325" />
        <location filename="../../desktop_mem/ui/memory_controller.py" line="338" />
        <source>Saving the memory…</source>
        <translation>正在保存记忆…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_controller.py" line="342" />
        <source>The memory was saved.</source>
        <translation>记忆已保存。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/memory_controller.py" line="387" />
        <source>Delete %n memory(s) for good, with their history?</source>
        <translation><numerusform>永久删除 %n 条记忆及其历史？</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/memory_controller.py" line="390" />
        <source>It shaped %n answer(s).</source>
        <translation><numerusform>它影响过 %n 个回答。</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/memory_controller.py" line="392" />
        <source>They shaped %n answer(s).</source>
        <translation><numerusform>它们影响过 %n 个回答。</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_controller.py" line="398" />
        <source>Delete memories</source>
        <translation>删除记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_controller.py" line="405" />
        <source>Deleting…</source>
        <translation>正在删除…</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/memory_controller.py" line="409" />
        <source>Deleted %n memory(s).</source>
        <translation><numerusform>已删除 %n 条记忆。</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_controller.py" line="431" />
        <source>Forgetting everything…</source>
        <translation>正在忘记一切…</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/memory_controller.py" line="437" />
        <source>Forgot %n memory(s); the conversations stay to read, but the assistant no longer sees them.</source>
        <translation><numerusform>已忘记 %n 条记忆；对话保留以供阅读，但助手不再看到它们。</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/memory_controller.py" line="443" />
        <source>Forgot %n memory(s)</source>
        <translation><numerusform>已忘记 %n 条记忆</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/memory_controller.py" line="444" />
        <source> and deleted %n message(s).</source>
        <translation><numerusform>，并删除了 %n 条消息。</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_controller.py" line="458" />
        <source>Delete everything</source>
        <translation>全部删除</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_controller.py" line="460" />
        <source>This deletes all %1 conversations and all %2 memories of this profile for good. The settings and the key stay.</source>
        <translation>这会永久删除此配置的全部 %1 个对话和全部 %2 条记忆。设置和密钥会保留。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_controller.py" line="465" />
        <source>DELETE</source>
        <translation>删除</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_controller.py" line="471" />
        <source>Deleting everything…</source>
        <translation>正在全部删除…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_controller.py" line="481" />
        <source>Export memories</source>
        <translation>导出记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_controller.py" line="483" />
        <source>JSON (*.json);;Markdown (*.md)</source>
        <translation>JSON (*.json);;Markdown (*.md)</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_controller.py" line="489" />
        <source>Exporting…</source>
        <translation>正在导出…</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/memory_controller.py" line="501" />
        <source>Exported %n memory(s) to %1. That file is not encrypted.</source>
        <translation><numerusform>已导出 %n 条记忆到 %1。该文件未加密。</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_controller.py" line="510" />
        <source>Import memories</source>
        <translation>导入记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_controller.py" line="511" />
        <source>Memories (*.json *.md *.markdown *.txt *.csv);;All files (*)</source>
        <translation>记忆文件 (*.json *.md *.markdown *.txt *.csv);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_controller.py" line="523" />
        <source>line %1: %2</source>
        <translation>第 %1 行：%2</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_controller.py" line="526" />
        <source>Nothing was imported</source>
        <translation>没有导入任何内容</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_controller.py" line="538" />
        <source>Importing…</source>
        <translation>正在导入…</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/memory_controller.py" line="544" />
        <source>Imported %n memory(s).</source>
        <translation><numerusform>已导入 %n 条记忆。</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/memory_controller.py" line="546" />
        <source>%n already known, skipped.</source>
        <translation><numerusform>已有 %n 条，已跳过。</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_controller.py" line="550" />
        <source>Consolidating memories…</source>
        <translation>正在整理记忆…</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/memory_controller.py" line="559" />
        <source>While you were away, %n memory(s) were tidied (merged or marked out of date); each memory's History can undo it.</source>
        <translation><numerusform>你不在的时候，整理了 %n 条记忆（合并或标记为过期）；可在每条记忆的历史中撤销。</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/memory_controller.py" line="569" />
        <source>Consolidation: %n change(s).</source>
        <translation><numerusform>整理完成：%n 处更改。</numerusform></translation>
    </message>
</context>
<context>
    <name>MemoryDrawer</name>
    <message>
        <location filename="../../desktop_mem/ui/memory_drawer.py" line="133" />
        <source>Text</source>
        <translation>内容</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_drawer.py" line="137" />
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_drawer.py" line="141" />
        <source>Importance</source>
        <translation>重要性</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_drawer.py" line="143" />
        <source>True until</source>
        <translation>有效至</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_drawer.py" line="153" />
        <source>Valid</source>
        <translation>有效期</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_drawer.py" line="154" />
        <source>Given in every chat</source>
        <translation>每次对话都提供给模型</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_drawer.py" line="156" />
        <source>What is about your health or safety (an allergy, a medication, a diet, an accessibility need) is given in every chat, whatever you ask; anything else only when it is relevant.</source>
        <translation>与你的健康或安全有关的记忆（过敏、用药、饮食、无障碍需求）无论你问什么，每次对话都会提供给模型；其他记忆只在相关时提供。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_drawer.py" line="168" />
        <source>Always</source>
        <translation>始终提供</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_drawer.py" line="170" />
        <source>Move to space</source>
        <translation>移到空间</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_drawer.py" line="171" />
        <source>Move the selected memories to another space, or make them shared, with their history</source>
        <translation>把选中的记忆连同其历史移到另一个空间，或设为共享</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_drawer.py" line="175" />
        <source>Space</source>
        <translation>空间</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_drawer.py" line="184" />
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_drawer.py" line="186" />
        <location filename="../../desktop_mem/ui/memory_drawer.py" line="326" />
        <source>Pin</source>
        <translation>置顶</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_drawer.py" line="188" />
        <source>Delete…</source>
        <translation>删除…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_drawer.py" line="199" />
        <source>Came from</source>
        <translation>来源</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_drawer.py" line="209" />
        <source>Answers it shaped</source>
        <translation>用到它的回答</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_drawer.py" line="224" />
        <source>History</source>
        <translation>历史</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_drawer.py" line="226" />
        <source>Edited on two computers at once: the other version is in its history.</source>
        <translation>曾在两台电脑上同时被编辑：另一个版本在它的历史中。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_drawer.py" line="237" />
        <source>Restore this version</source>
        <translation>恢复此版本</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_drawer.py" line="252" />
        <source>Select a memory to see where it came from, the answers it shaped and its history, or to edit it.</source>
        <translation>选择一条记忆，查看它的来源、受它影响的回答和修改历史，或编辑它。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_drawer.py" line="296" />
        <source>%1 wants to change this to: “%2” (its own memory %3)</source>
        <translation>%1 想把它改为：“%2”（它自己的记忆 %3）</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_drawer.py" line="305" />
        <source>Used by other apps: %1</source>
        <translation>被其他应用使用：%1</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_drawer.py" line="326" />
        <source>Unpin</source>
        <translation>取消置顶</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_drawer.py" line="350" />
        <source>(empty answer)</source>
        <translation>（空回答）</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_drawer.py" line="355" />
        <source>No answer has used it yet.</source>
        <translation>还没有回答用到它。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_drawer.py" line="371" />
        <source>, until %1</source>
        <translation>，有效至 %1</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_drawer.py" line="373" />
        <source>, from message %1</source>
        <translation>，来自消息 %1</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_drawer.py" line="376" />
        <source>, on %1</source>
        <translation>，在 %1 上</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_drawer.py" line="380" />
        <source>%1 (%2%3)%4: %5</source>
        <translation>%1（%2%3）%4：%5</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_drawer.py" line="391" />
        <source>Shared: every space that sees shared memories is given it</source>
        <translation>共享：所有能看到共享记忆的空间都会用到它</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_drawer.py" line="392" />
        <source>(a removed space)</source>
        <translation>（已删除的空间）</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_drawer.py" line="397" />
        <source>made shared</source>
        <translation>设为共享</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_drawer.py" line="398" />
        <source>moved to %1</source>
        <translation>移到“%1”</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_drawer.py" line="399" />
        <source>a removed space</source>
        <translation>已删除的空间</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_drawer.py" line="422" />
        <source>Given in every chat: it is about your %1.</source>
        <translation>每次对话都会提供：这与你的%1有关。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_drawer.py" line="425" />
        <source>It is about your %1, but you chose to give it only when it is relevant.</source>
        <translation>这与你的%1有关，但你选择了只在相关时提供。</translation>
    </message>
</context>
<context>
    <name>MemoryTableModel</name>
    <message>
        <location filename="../../desktop_mem/ui/item_models.py" line="53" />
        <source>Memory</source>
        <translation>记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/item_models.py" line="54" />
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/item_models.py" line="55" />
        <source>Pinned</source>
        <translation>置顶</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/item_models.py" line="56" />
        <source>Importance</source>
        <translation>重要性</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/item_models.py" line="57" />
        <source>Created</source>
        <translation>创建时间</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/item_models.py" line="58" />
        <source>Updated</source>
        <translation>已更新</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/item_models.py" line="59" />
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/item_models.py" line="179" />
        <source> (expired)</source>
        <translation>（已过期）</translation>
    </message>
</context>
<context>
    <name>MessageWidget</name>
    <message>
        <location filename="../../desktop_mem/ui/message_widget.py" line="201" />
        <source>You</source>
        <translation>你</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/message_widget.py" line="201" />
        <source>Assistant</source>
        <translation>助手</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/message_widget.py" line="208" />
        <location filename="../../desktop_mem/ui/message_widget.py" line="209" />
        <source>Previous version</source>
        <translation>上一个版本</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/message_widget.py" line="215" />
        <location filename="../../desktop_mem/ui/message_widget.py" line="216" />
        <source>Next version</source>
        <translation>下一个版本</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/message_widget.py" line="223" />
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/message_widget.py" line="224" />
        <source>Copy this message</source>
        <translation>复制这条消息</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/message_widget.py" line="228" />
        <source>Edit</source>
        <translation>编辑</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/message_widget.py" line="230" />
        <source>Change this message and send it again (the turns after it are replaced)</source>
        <translation>修改这条消息并重新发送（其后的对话会被替换）</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/message_widget.py" line="233" />
        <source>Regenerate</source>
        <translation>重新生成</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/message_widget.py" line="234" />
        <source>Answer this message again (the turns after it are replaced)</source>
        <translation>重新回答这条消息（其后的对话会被替换）</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/message_widget.py" line="323" />
        <source>Stopped.</source>
        <translation>已停止。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/message_widget.py" line="326" />
        <source>The answer failed.</source>
        <translation>回答失败。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/message_widget.py" line="362" />
        <source>About you:</source>
        <translation>关于你：</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/message_widget.py" line="365" />
        <source>In every answer: a line of what the model knows about you</source>
        <translation>每次回答都会用到：模型对你的了解中的一行</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/message_widget.py" line="379" />
        <source>Memories used:</source>
        <translation>用到的记忆：</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/message_widget.py" line="375" />
        <location filename="../../desktop_mem/ui/message_widget.py" line="389" />
        <source>+%1 more</source>
        <translation>还有 %1 条</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/message_widget.py" line="393" />
        <source>Earlier messages:</source>
        <translation>之前的消息：</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/message_widget.py" line="397" />
        <source>%1, in another conversation:</source>
        <translation>%1，在另一个对话中：</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/message_widget.py" line="405" />
        <source>Documents:</source>
        <translation>文档：</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/message_widget.py" line="432" />
        <source>In every answer: about your health or safety</source>
        <translation>每次回答都会用到：与你的健康或安全有关</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/message_widget.py" line="433" />
        <source>In every answer (pinned)</source>
        <translation>每次回答都会用到（已置顶）</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/message_widget.py" line="434" />
        <source>Found for this message</source>
        <translation>为这条消息找到的</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/message_widget.py" line="435" />
        <source>Learned from an earlier message found for this one</source>
        <translation>从为这条消息找到的一条以前的消息中记住的</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/message_widget.py" line="437" />
        <source>a weaker match</source>
        <translation>匹配较弱</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/message_widget.py" line="462" />
        <source>%1/%2</source>
        <translation>%1/%2</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/message_widget.py" line="465" />
        <source>Version %1 of %2</source>
        <translation>第 %1 个版本，共 %2 个</translation>
    </message>
</context>
<context>
    <name>NewMemoryDialog</name>
    <message>
        <location filename="../../desktop_mem/ui/new_memory_dialog.py" line="28" />
        <source>New memory</source>
        <translation>新建记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/new_memory_dialog.py" line="31" />
        <source>Something the assistant should know about you, in a sentence. It is given to the model only when a message is about it.</source>
        <translation>用一句话写下助手应该了解的关于你的事。只有当消息与它相关时，才会提供给模型。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/new_memory_dialog.py" line="39" />
        <source>e.g. I am vegetarian / 我对花生过敏</source>
        <translation>例如：我吃素 / I am allergic to peanuts</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/new_memory_dialog.py" line="45" />
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/new_memory_dialog.py" line="46" />
        <source>Pinned: always given to the model</source>
        <translation>置顶：始终提供给模型</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/new_memory_dialog.py" line="53" />
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/new_memory_dialog.py" line="54" />
        <source>Add the memory (Ctrl+Enter)</source>
        <translation>添加这条记忆（Ctrl+Enter）</translation>
    </message>
</context>
<context>
    <name>OfflinePage</name>
    <message>
        <location filename="../../desktop_mem/ui/offline_page.py" line="29" />
        <location filename="../../desktop_mem/ui/offline_page.py" line="67" />
        <source>Ollama is not running</source>
        <translation>Ollama 没有运行</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/offline_page.py" line="39" />
        <source>desktop-mem talks to a language model through Ollama, on this computer.
Install it from ollama.com, then start it: open the Ollama app (on Linux it runs as a service once installed). Your memories are safe meanwhile and can still be browsed and searched by keywords.</source>
        <translation>desktop-mem 通过这台电脑上的 Ollama 与语言模型对话。
请从 ollama.com 安装它，然后启动：打开 Ollama 应用（在 Linux 上安装后它会作为服务运行）。在此期间你的记忆是安全的，仍然可以浏览和按关键词搜索。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/offline_page.py" line="48" />
        <source>Retry</source>
        <translation>重试</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/offline_page.py" line="50" />
        <source>Settings…</source>
        <translation>设置…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/offline_page.py" line="51" />
        <source>Change the model server's address</source>
        <translation>更改模型服务器的地址</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/offline_page.py" line="65" />
        <source>The model server answers with an error</source>
        <translation>模型服务器返回错误</translation>
    </message>
</context>
<context>
    <name>PairingCodeDialog</name>
    <message>
        <location filename="../../desktop_mem/ui/pairing_dialog.py" line="16" />
        <source>Pairing code</source>
        <translation>配对码</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/pairing_dialog.py" line="20" />
        <source>On the other computer, open Settings &gt; Sync &gt; Join a synced profile, choose the same folder once the engine has brought it there, and enter this code:</source>
        <translation>在另一台电脑上，打开“设置 &gt; 同步 &gt; 加入一个已同步的配置”，等同步工具把文件夹带到那里后选择同一个文件夹，然后输入这个配对码：</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/pairing_dialog.py" line="37" />
        <source>It is valid for an hour, and for one computer. Anyone with it and the folder can read this profile until then: do not send it through the synced folder.</source>
        <translation>它在一小时内有效，只能用于一台电脑。在此期间，任何拿到它和这个文件夹的人都能读取这个配置：不要通过同步文件夹传送它。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/pairing_dialog.py" line="44" />
        <source>Copy</source>
        <translation>复制</translation>
    </message>
</context>
<context>
    <name>PassageDialog</name>
    <message>
        <location filename="../../desktop_mem/ui/passage_dialog.py" line="26" />
        <source>%1, page %2</source>
        <translation>%1，第 %2 页</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/passage_dialog.py" line="64" />
        <source>Open the file</source>
        <translation>打开文件</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/passage_dialog.py" line="67" />
        <source>Copy its path</source>
        <translation>复制路径</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/passage_dialog.py" line="82" />
        <source>No program on this computer opens this kind of file. Its path is above; Copy its path puts it on the clipboard.</source>
        <translation>这台电脑上没有能打开这类文件的程序。文件路径在上方，点击“复制路径”可以把它放到剪贴板。</translation>
    </message>
</context>
<context>
    <name>PassphraseDialog</name>
    <message>
        <location filename="../../desktop_mem/ui/passphrase_dialog.py" line="33" />
        <source>Unlock your memories</source>
        <translation>解锁你的记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/passphrase_dialog.py" line="33" />
        <source>Protect your memories</source>
        <translation>保护你的记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/passphrase_dialog.py" line="39" />
        <source>No system keyring is available, so your conversations and memories in the profile “%1” are protected by a passphrase. Everything is encrypted with it; without it nobody, including you, can read them. There is no way to recover it.</source>
        <translation>系统钥匙环不可用，因此配置“%1”中的对话和记忆由口令保护。所有内容都用它加密；没有它，任何人（包括你）都无法读取。口令无法找回。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/passphrase_dialog.py" line="45" />
        <source>Your conversations and memories in the profile “%1” are encrypted. Enter the passphrase to open them.</source>
        <translation>配置“%1”中的对话和记忆已加密。请输入口令打开。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/passphrase_dialog.py" line="54" />
        <source>Passphrase</source>
        <translation>口令</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/passphrase_dialog.py" line="58" />
        <source>Again</source>
        <translation>再输一次</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/passphrase_dialog.py" line="62" />
        <source>At least %1 characters. Write it down: it cannot be recovered.</source>
        <translation>至少 %1 个字符。请抄下来：它无法找回。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/passphrase_dialog.py" line="86" />
        <source>Type the passphrase.</source>
        <translation>请输入口令。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/passphrase_dialog.py" line="88" />
        <source>Use at least %1 characters.</source>
        <translation>至少使用 %1 个字符。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/passphrase_dialog.py" line="90" />
        <source>The two passphrases differ: type the same one twice.</source>
        <translation>两次输入的口令不同，请输入相同的口令。</translation>
    </message>
</context>
<context>
    <name>PullDialog</name>
    <message>
        <location filename="../../desktop_mem/ui/pull_dialog.py" line="25" />
        <source>Downloading %1</source>
        <translation>正在下载 %1</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/pull_dialog.py" line="28" />
        <source>Starting…</source>
        <translation>正在开始…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/pull_dialog.py" line="35" />
        <source>Hide</source>
        <translation>隐藏</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/pull_dialog.py" line="37" />
        <source>The download goes on; the status bar shows it</source>
        <translation>下载会继续进行；状态栏会显示进度</translation>
    </message>
</context>
<context>
    <name>RecoveryCodeDialog</name>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="53" />
        <source>Your recovery code</source>
        <translation>你的恢复码</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="57" />
        <source>Your memories in the profile “%1” are encrypted with a key kept in this computer's keyring. If the keyring is ever lost (a reinstalled system, a new computer), this code is the only way to open them and their backups.</source>
        <translation>配置“%1”中的记忆用保存在这台电脑钥匙环中的密钥加密。如果钥匙环丢失（重装系统、换新电脑），这个恢复码是打开记忆及其备份的唯一方法。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="74" />
        <source>Write it down and keep it somewhere safe, away from this computer. It is shown only this once; anyone with it and a backup can read your memories.</source>
        <translation>请抄下来，存放在远离这台电脑的安全地方。它只显示这一次；任何人拿到它和一份备份，就能读取你的记忆。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="81" />
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="83" />
        <source>I have written it down or stored it safely</source>
        <translation>我已抄下或妥善保存</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="91" />
        <source>Continue</source>
        <translation>继续</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="98" />
        <source>Esc does not close this yet: the code is shown only once, so copy it or tick the box first.</source>
        <translation>Esc 暂时不会关闭此窗口：恢复码只显示这一次，请先复制它或勾选下面的确认框。</translation>
    </message>
</context>
<context>
    <name>ReviewDialog</name>
    <message>
        <location filename="../../desktop_mem/ui/review_dialog.py" line="89" />
        <source>Review imported memories</source>
        <translation>审阅导入的记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/review_dialog.py" line="104" />
        <source>Find facts in my messages</source>
        <translation>从我的消息中找出事实</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/review_dialog.py" line="106" />
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/review_dialog.py" line="124" />
        <source>Accept ticked</source>
        <translation>接受勾选的</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/review_dialog.py" line="125" />
        <source>Edit and accept…</source>
        <translation>编辑后接受…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/review_dialog.py" line="126" />
        <source>Reject ticked</source>
        <translation>拒绝勾选的</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/review_dialog.py" line="127" />
        <source>Accept all</source>
        <translation>全部接受</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/review_dialog.py" line="128" />
        <source>Reject all…</source>
        <translation>全部拒绝…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/review_dialog.py" line="207" />
        <source>for the space %1</source>
        <translation>归入空间“%1”</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/review_dialog.py" line="209" />
        <source>for the shared space</source>
        <translation>归入共享空间</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/review_dialog.py" line="229" />
        <source>%n fact(s) about you found so far in your %1 history.</source>
        <translation><numerusform>到目前为止，在你的 %1 历史中发现了 %n 条关于你的事实。</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/review_dialog.py" line="231" />
        <source>%n fact(s) about you found so far in your imported history.</source>
        <translation><numerusform>到目前为止，在你导入的历史中发现了 %n 条关于你的事实。</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/review_dialog.py" line="241" />
        <source>Reading your imported messages for facts about you: each appears here as it is found.</source>
        <translation>正在从你导入的消息中找出关于你的事实：每发现一条就会显示在这里。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/review_dialog.py" line="248" />
        <source>%1 %2</source>
        <translation>%1%2</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/review_dialog.py" line="257" />
        <source>Read %1 of %n message(s).</source>
        <translation><numerusform>已读取 %n 条消息中的 %1 条。</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/review_dialog.py" line="259" />
        <source>Reading…</source>
        <translation>正在读取…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/review_dialog.py" line="332" />
        <location filename="../../desktop_mem/ui/review_dialog.py" line="339" />
        <source>Reject all</source>
        <translation>全部拒绝</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/review_dialog.py" line="358" />
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/review_dialog.py" line="368" />
        <source>%n fact(s) wait for review again.</source>
        <translation><numerusform>%n 条事实重新等待审阅。</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/review_dialog.py" line="203" />
        <source>already a memory</source>
        <translation>已有这条记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/review_dialog.py" line="212" />
        <source>replaces: %1 (%2)</source>
        <translation>取代：%1（%2）</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/review_dialog.py" line="216" />
        <source>replaced by: %1 (%2), kept as past</source>
        <translation>已被取代：%1（%2），作为过去的记忆保留</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/review_dialog.py" line="235" />
        <source>%n fact(s) about you found in your %1 history.</source>
        <translation><numerusform>在你的 %1 历史中发现了 %n 条关于你的事实。</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/review_dialog.py" line="237" />
        <source>%n fact(s) about you found in your imported history.</source>
        <translation><numerusform>在你导入的历史中发现了 %n 条关于你的事实。</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/review_dialog.py" line="250" />
        <source>None is used until you accept it.</source>
        <translation>你接受之前，一条都不会被使用。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/review_dialog.py" line="245" />
        <source>No facts wait for review.</source>
        <translation>没有等待审阅的事实。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/review_dialog.py" line="265" />
        <source>%n of your imported message(s) not yet read for facts.</source>
        <translation><numerusform>你导入的消息中还有 %n 条尚未读取。</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/review_dialog.py" line="317" />
        <source>Accepted: %n new memory(s).</source>
        <translation><numerusform>已接受：%n 条新记忆。</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/review_dialog.py" line="333" />
        <source>Reject all %n fact(s) found in your imported history?</source>
        <translation><numerusform>要拒绝在你导入的历史中发现的全部 %n 条事实吗？</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/review_dialog.py" line="337" />
        <source>They will not be proposed again. You can undo this while this window is open.</source>
        <translation>它们不会再被提出。在此窗口关闭之前，你可以撤销。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/review_dialog.py" line="358" />
        <source>Rejected %n fact(s).</source>
        <translation><numerusform>已拒绝 %n 条事实。</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/review_dialog.py" line="296" />
        <source>The model server stopped answering, so reading paused; nothing was lost. Try again once it answers.</source>
        <translation>模型服务器停止了响应，读取已暂停；没有丢失任何内容。等它恢复后再试。</translation>
    </message>
</context>
<context>
    <name>SetUpOrJoin</name>
    <message>
        <location filename="../../desktop_mem/ui/sync_setup.py" line="39" />
        <source>Use this profile on more than one computer. desktop-mem keeps it in a folder that a sync engine carries between them: Syncthing, Dropbox, iCloud Drive, OneDrive, Nextcloud or a network share. Only encrypted data goes into that folder: no memory, message or name can be read there.</source>
        <translation>在多台电脑上使用这个配置。desktop-mem 把它保存在一个由同步工具在电脑之间传送的文件夹里：Syncthing、Dropbox、iCloud 云盘、OneDrive、Nextcloud 或网络共享文件夹。放进这个文件夹的只有加密数据：在那里读不到任何记忆、消息或名称。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_setup.py" line="50" />
        <source>How the other computers list this one</source>
        <translation>其他电脑列表中这台电脑的名称</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_setup.py" line="51" />
        <source>This computer's name</source>
        <translation>这台电脑的名称</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_setup.py" line="54" />
        <source>Sync this profile through a folder</source>
        <translation>通过一个文件夹同步这个配置</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_setup.py" line="57" />
        <location filename="../../desktop_mem/ui/sync_setup.py" line="70" />
        <source>Folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_setup.py" line="58" />
        <source>Sync through this folder</source>
        <translation>通过这个文件夹同步</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_setup.py" line="66" />
        <source>Join a synced profile</source>
        <translation>加入一个已同步的配置</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_setup.py" line="72" />
        <source>The recovery code, or a pairing code</source>
        <translation>恢复码，或配对码</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_setup.py" line="73" />
        <source>Code</source>
        <translation>代码</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_setup.py" line="74" />
        <source>Join</source>
        <translation>加入</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_setup.py" line="82" />
        <source>Joining fills a new, empty profile with everything the other computers hold. This profile already holds memories or conversations, so it cannot join: nothing here is changed. To use them on another computer, sync this profile through a folder above, then join from there.</source>
        <translation>加入会把其他电脑上的全部内容放进一个新的空配置。这个配置已经有记忆或对话，所以不能加入：这里的内容不会有任何改变。要在另一台电脑上使用它们，请在上面通过一个文件夹同步这个配置，然后在那台电脑上加入。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_setup.py" line="111" />
        <source>No folder chosen</source>
        <translation>未选择文件夹</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_setup.py" line="112" />
        <source>Choose…</source>
        <translation>选择…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_setup.py" line="120" />
        <source>Sync folder</source>
        <translation>同步文件夹</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_setup.py" line="127" />
        <source>Choose the folder your sync engine carries first.</source>
        <translation>请先选择同步工具所同步的文件夹。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_setup.py" line="136" />
        <source>Choose the folder the other computer syncs through, and enter a code.</source>
        <translation>请选择另一台电脑用来同步的文件夹，并输入代码。</translation>
    </message>
</context>
<context>
    <name>SettingsController</name>
    <message>
        <location filename="../../desktop_mem/ui/settings_controller.py" line="89" />
        <source>Spaces</source>
        <translation>空间</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_controller.py" line="90" />
        <source>Backup</source>
        <translation>备份</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_controller.py" line="91" />
        <source>Sync</source>
        <translation>同步</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_controller.py" line="92" />
        <source>Apps</source>
        <translation>应用</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_controller.py" line="154" />
        <source>New recovery code</source>
        <translation>新的恢复码</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_controller.py" line="156" />
        <source>Make a new recovery code? The old one will no longer open this profile or its new backups (backups made before still open with the old one).</source>
        <translation>要生成新的恢复码吗？旧的恢复码将无法再打开此配置及其新备份（之前的备份仍可用旧恢复码打开）。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_controller.py" line="214" />
        <source>The Ollama server %1 is not this computer: your messages and the memories retrieved for them are sent to it over the network.</source>
        <translation>Ollama 服务器 %1 不在这台电脑上：你的消息以及为它们检索到的记忆会通过网络发送给它。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_controller.py" line="217" />
        <source>The OpenAI-compatible server is on: your messages and the memories retrieved for them are sent to %1, outside this computer.</source>
        <translation>已启用 OpenAI 兼容服务器：你的消息以及为它们检索到的记忆会发送到这台电脑之外的 %1。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_controller.py" line="221" />
        <source>Messages will leave this computer</source>
        <translation>消息将离开这台电脑</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_controller.py" line="248" />
        <source>The embedding model %1 (a %2 download) is not installed in Ollama. Download it, then re-index every memory, message and document passage with it? Until that is done, the old index keeps working.</source>
        <translation>嵌入模型 %1（需下载 %2）尚未安装在 Ollama 中。要先下载它，再用它重新索引所有记忆、消息和文档段落吗？完成之前，旧索引仍然可用。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_controller.py" line="252" />
        <source>The embedding model %1 is not installed in Ollama. Download it, then re-index every memory, message and document passage with it? Until that is done, the old index keeps working.</source>
        <translation>嵌入模型 %1 尚未安装在 Ollama 中。要先下载它，再用它重新索引所有记忆、消息和文档段落吗？完成之前，旧索引仍然可用。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_controller.py" line="257" />
        <source>Search by meaning needs every memory, message and document passage re-indexed with %1. Do it now? Until it finishes, the old index keeps working.</source>
        <translation>按含义搜索需要用 %1 重新索引所有记忆、消息和文档段落。现在开始吗？完成之前，旧索引仍然可用。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_controller.py" line="262" />
        <source>Re-index everything?</source>
        <translation>重新索引全部内容？</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_controller.py" line="276" />
        <source>Re-indexing with %1…</source>
        <translation>正在用 %1 重新索引…</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/settings_controller.py" line="290" />
        <source>Re-indexed %n item(s) with %1.</source>
        <translation><numerusform>已用 %1 重新索引 %n 项。</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_controller.py" line="297" />
        <source>Re-indexing stopped; the old index is still in use. %1</source>
        <translation>重新索引已停止；仍在使用旧索引。%1</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <location filename="../../desktop_mem/ui/settings_dialog.py" line="60" />
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_dialog.py" line="68" />
        <source>Ollama address</source>
        <translation>Ollama 地址</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_dialog.py" line="73" />
        <source>Chat model</source>
        <translation>聊天模型</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_dialog.py" line="86" />
        <source>Embedding model</source>
        <translation>嵌入模型</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_dialog.py" line="120" />
        <source>Learn memories from my chats automatically</source>
        <translation>自动从我的聊天中学习记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_dialog.py" line="119" />
        <source>Memory</source>
        <translation>记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_dialog.py" line="124" />
        <source>Give the model my relevant memories and earlier messages</source>
        <translation>把相关的记忆和之前的消息提供给模型</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_dialog.py" line="129" />
        <source>Tidy my memories while the app is idle (every change can be undone)</source>
        <translation>在应用空闲时整理我的记忆（每项更改都可撤销）</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_dialog.py" line="91" />
        <source> tokens</source>
        <translation> 个词元</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_dialog.py" line="66" />
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_dialog.py" line="82" />
        <source>Changing it re-indexes every memory, message and document passage with the new model (with progress); a model not installed yet is downloaded first.</source>
        <translation>更换后会用新模型重新索引所有记忆、消息和文档段落（显示进度）；尚未安装的模型会先下载。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_dialog.py" line="92" />
        <source>Context budget</source>
        <translation>上下文预算</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_dialog.py" line="93" />
        <source>Use an OpenAI-compatible server instead of Ollama</source>
        <translation>使用兼容 OpenAI 的服务器代替 Ollama</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_dialog.py" line="95" />
        <source>Other server</source>
        <translation>其他服务器</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_dialog.py" line="98" />
        <source>Server URL</source>
        <translation>服务器地址</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_dialog.py" line="100" />
        <source>Server model</source>
        <translation>服务器模型</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_dialog.py" line="104" />
        <source>(unchanged)</source>
        <translation>（不变）</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_dialog.py" line="104" />
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_dialog.py" line="106" />
        <source>API key</source>
        <translation>API 密钥</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_dialog.py" line="109" />
        <source>With another server on, your messages and the memories retrieved for them are sent to that server. If it is not this computer, they leave your machine.</source>
        <translation>启用其他服务器后，你的消息和为其检索到的记忆会发送到该服务器。如果它不是这台电脑，这些内容会离开你的机器。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_dialog.py" line="134" />
        <source>Keep a short profile of me and give it in every chat (Memories › About you)</source>
        <translation>保留一份关于我的简短介绍，每次对话都提供给模型（记忆 › 关于你）</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_dialog.py" line="140" />
        <source>About you and how you like answers, e.g. “I am a nurse; answer briefly.”</source>
        <translation>关于你以及你希望怎样回答，例如“我是护士；请简短回答。”</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_dialog.py" line="143" />
        <source>Given to the model with every message; never learned from.</source>
        <translation>每条消息都会交给模型；不会从中学习记忆。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_dialog.py" line="147" />
        <source>About me</source>
        <translation>关于我</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_dialog.py" line="149" />
        <source>Appearance</source>
        <translation>外观</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_dialog.py" line="153" />
        <source>As the system (%1)</source>
        <translation>跟随系统（%1）</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_dialog.py" line="158" />
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_dialog.py" line="161" />
        <source>System</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_dialog.py" line="162" />
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_dialog.py" line="163" />
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_dialog.py" line="167" />
        <source>Theme</source>
        <translation>主题</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_dialog.py" line="169" />
        <source>Privacy</source>
        <translation>隐私</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_dialog.py" line="175" />
        <source>Open folder</source>
        <translation>打开文件夹</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_dialog.py" line="177" />
        <source>Data folder</source>
        <translation>数据文件夹</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_dialog.py" line="215" />
        <source>Encrypted; the key is kept in the system keyring.</source>
        <translation>已加密；密钥保存在系统钥匙环中。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_dialog.py" line="217" />
        <source>Encrypted with your passphrase.</source>
        <translation>已用你的口令加密。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_dialog.py" line="220" />
        <source>Replace the key</source>
        <translation>更换密钥</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_dialog.py" line="220" />
        <source>Change passphrase…</source>
        <translation>更改口令…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_dialog.py" line="185" />
        <source>Re-encrypts everything with a new key; the old one stops working.</source>
        <translation>用新密钥重新加密所有内容；旧密钥随即失效。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_dialog.py" line="223" />
        <source>Use a passphrase instead…</source>
        <translation>改用口令…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_dialog.py" line="225" />
        <source>Keep the key in the system keyring instead</source>
        <translation>改为把密钥保存在系统钥匙环中</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_dialog.py" line="192" />
        <source>Encryption</source>
        <translation>加密</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/settings_dialog.py" line="230" />
        <source>No system keyring is available on this computer.</source>
        <translation>这台电脑上没有可用的系统钥匙环。</translation>
    </message>
</context>
<context>
    <name>ShortcutsDialog</name>
    <message>
        <location filename="../../desktop_mem/ui/shortcuts_dialog.py" line="21" />
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/shortcuts_dialog.py" line="25" />
        <source>Keys</source>
        <translation>按键</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/shortcuts_dialog.py" line="25" />
        <source>Action</source>
        <translation>操作</translation>
    </message>
</context>
<context>
    <name>SpaceDialog</name>
    <message>
        <location filename="../../desktop_mem/ui/spaces_ui.py" line="65" />
        <source>e.g. Work, Thesis, Client A</source>
        <translation>例如：工作、论文、客户 A</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/spaces_ui.py" line="66" />
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/spaces_ui.py" line="70" />
        <source>Optional: how answers in this space should be, e.g. “Answer as a colleague; use our project's terms.”</source>
        <translation>可选：这个空间里的回答应该怎样，例如“像同事一样回答；使用我们项目的术语。”</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/spaces_ui.py" line="74" />
        <source>Kept apart: it neither reads nor adds to the shared space</source>
        <translation>隔离：既不读取也不写入共享空间</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/spaces_ui.py" line="76" />
        <source>Instruction</source>
        <translation>指示</translation>
    </message>
</context>
<context>
    <name>SpacesPage</name>
    <message>
        <location filename="../../desktop_mem/ui/spaces_ui.py" line="118" />
        <source>Spaces keep memory apart by project. A chat in a space is given that space's memories, documents and conversations, and the shared ones unless the space is kept apart; never another space's. What applies everywhere (who you are, your health) stays shared.</source>
        <translation>空间按项目把记忆分开。某个空间中的对话会用到这个空间的记忆、文档和对话，以及共享的内容（除非该空间是隔离的）；绝不会用到其他空间的内容。处处适用的信息（你是谁、你的健康）保持共享。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/spaces_ui.py" line="130" />
        <source>Space</source>
        <translation>空间</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/spaces_ui.py" line="131" />
        <source>Memories</source>
        <translation>记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/spaces_ui.py" line="132" />
        <source>Conversations</source>
        <translation>对话</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/spaces_ui.py" line="133" />
        <source>Documents</source>
        <translation>文档</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/spaces_ui.py" line="134" />
        <source>Shared memories</source>
        <translation>共享记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/spaces_ui.py" line="149" />
        <source>New space…</source>
        <translation>新建空间…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/spaces_ui.py" line="151" />
        <source>Rename…</source>
        <translation>重命名…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/spaces_ui.py" line="153" />
        <source>Delete…</source>
        <translation>删除…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/spaces_ui.py" line="166" />
        <source>Given to the model in this space's chats, after your own instructions.</source>
        <translation>在这个空间的对话中提供给模型，放在你自己的指示之后。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/spaces_ui.py" line="171" />
        <source>Save the instruction</source>
        <translation>保存指示</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/spaces_ui.py" line="174" />
        <source>Instruction</source>
        <translation>指示</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/spaces_ui.py" line="175" />
        <source>Kept apart: it neither reads nor adds to the shared space</source>
        <translation>隔离：既不读取也不写入共享空间</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/spaces_ui.py" line="177" />
        <source>Its chats are not given the shared memories or the profile about you, and what they teach stays in the space, even health facts.</source>
        <translation>它的对话不会用到共享记忆或关于你的简介，从中学到的内容（即使是健康信息）也只留在这个空间。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/spaces_ui.py" line="218" />
        <source>kept apart</source>
        <translation>隔离</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/spaces_ui.py" line="218" />
        <source>seen</source>
        <translation>可见</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/spaces_ui.py" line="227" />
        <source>What applies everywhere: every space that is not kept apart is given it</source>
        <translation>处处适用的内容：所有未隔离的空间都会用到它</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/spaces_ui.py" line="269" />
        <source>Optional: how answers in this space should be</source>
        <translation>可选：这个空间里的回答应该怎样</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/spaces_ui.py" line="271" />
        <source>Select a space to give it an instruction of its own</source>
        <translation>选择一个空间，为它设置专属指示</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/spaces_ui.py" line="282" />
        <source>An instruction is at most %1 characters.</source>
        <translation>指示最多 %1 个字符。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/spaces_ui.py" line="311" />
        <source>New space</source>
        <translation>新建空间</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/spaces_ui.py" line="317" />
        <source>The space “%1” was made: choose it beside the conversations to chat in it.</source>
        <translation>已新建空间“%1”：在对话列表上方选择它，即可在其中对话。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/spaces_ui.py" line="342" />
        <source>Rename the space</source>
        <translation>重命名空间</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/spaces_ui.py" line="389" />
        <source>The space “%1” was deleted; what it held is now shared.</source>
        <translation>空间“%1”已删除；其中的内容现在是共享的。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/spaces_ui.py" line="391" />
        <source>The space “%1” was deleted with everything it held.</source>
        <translation>空间“%1”及其中的所有内容已删除。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/spaces_ui.py" line="399" />
        <source>Deleting the space…</source>
        <translation>正在删除空间…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/spaces_ui.py" line="411" />
        <location filename="../../desktop_mem/ui/spaces_ui.py" line="415" />
        <source>Delete the space</source>
        <translation>删除空间</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/spaces_ui.py" line="413" />
        <source>Delete the space “%1”? It holds nothing.</source>
        <translation>删除空间“%1”？它是空的。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/spaces_ui.py" line="420" />
        <source>%n memory(s)</source>
        <translation><numerusform>%n 条记忆</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/spaces_ui.py" line="421" />
        <source>%n conversation(s)</source>
        <translation><numerusform>%n 个对话</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/spaces_ui.py" line="422" />
        <source>%n document(s)</source>
        <translation><numerusform>%n 个文档</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/spaces_ui.py" line="425" />
        <source>Delete the space “%1”? It holds %2.</source>
        <translation>删除空间“%1”？其中有 %2。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/spaces_ui.py" line="427" />
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/spaces_ui.py" line="430" />
        <source>Move them to the shared space, where every space that is not kept apart is given them, or delete them for good, with their history.</source>
        <translation>可以把它们移到共享空间（所有未隔离的空间都会用到），也可以连同历史永久删除。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/spaces_ui.py" line="437" />
        <source>Move them to the shared space</source>
        <translation>移到共享空间</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/spaces_ui.py" line="440" />
        <source>Delete them for good</source>
        <translation>永久删除</translation>
    </message>
</context>
<context>
    <name>StatusBar</name>
    <message>
        <location filename="../../desktop_mem/ui/status_bar.py" line="78" />
        <source>Connecting to Ollama…</source>
        <translation>正在连接 Ollama…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/status_bar.py" line="81" />
        <source>⚠ The model server answers with an error · %1</source>
        <translation>⚠ 模型服务器返回错误 · %1</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/status_bar.py" line="85" />
        <location filename="../../desktop_mem/ui/status_bar.py" line="123" />
        <source>● Connected · %1</source>
        <translation>● 已连接 · %1</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/status_bar.py" line="89" />
        <source>● Connected · search by words only until %1 is there · %2</source>
        <translation>● 已连接 · %1 下载完成前仅按字词搜索 · %2</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/status_bar.py" line="95" />
        <source>● Connected · %1 is not installed</source>
        <translation>● 已连接 · 未安装 %1</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/status_bar.py" line="97" />
        <location filename="../../desktop_mem/ui/status_bar.py" line="105" />
        <source>Download %1</source>
        <translation>下载 %1</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/status_bar.py" line="102" />
        <source>● Connected · search by words only</source>
        <translation>● 已连接 · 仅按字词搜索</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/status_bar.py" line="114" />
        <source>● Connected · %n not indexed yet</source>
        <translation><numerusform>● 已连接 · %n 项尚未索引</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/status_bar.py" line="117" />
        <source>Index now</source>
        <translation>立即索引</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/status_bar.py" line="127" />
        <source>○ Ollama not connected</source>
        <translation>○ 未连接 Ollama</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/status_bar.py" line="131" />
        <source>Memory: incognito</source>
        <translation>记忆：无痕</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/status_bar.py" line="133" />
        <source>Memory: on</source>
        <translation>记忆：开启</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/status_bar.py" line="135" />
        <source>Memory: off (commands only)</source>
        <translation>记忆：关闭（仅指令）</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/status_bar.py" line="138" />
        <source> · %n message(s) not yet learned from</source>
        <translation><numerusform> · 还有 %n 条消息尚未从中学习</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/status_bar.py" line="142" />
        <source>Space: %1</source>
        <translation>空间：%1</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/status_bar.py" line="152" />
        <source>downloading %1…</source>
        <translation>正在下载 %1…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/status_bar.py" line="153" />
        <source>downloading %1 (%2%)</source>
        <translation>正在下载 %1（%2%）</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/status_bar.py" line="201" />
        <source>%1 is loaded with a %2-token context but this app asks for %3, so every turn reloads it: give the apps that use it the same context length, or set this one's in Settings.</source>
        <translation>%1 以 %2 个词元的上下文加载，但本应用需要 %3，所以每次对话都要重新加载它：让使用它的应用采用相同的上下文长度，或在“设置”中修改本应用的。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/status_bar.py" line="210" />
        <source>Ollama unloads %1 soon after each answer, so every turn waits for it to load again: give Ollama a longer keep-alive.</source>
        <translation>Ollama 在每次回答后很快就卸载 %1，所以每次对话都要等它重新加载：请延长 Ollama 的保持加载时间（keep-alive）。</translation>
    </message>
</context>
<context>
    <name>SyncController</name>
    <message>
        <location filename="../../desktop_mem/ui/sync_controller.py" line="289" />
        <source>Syncing… %1%</source>
        <translation>正在同步… %1%</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_controller.py" line="291" />
        <source>Syncing…</source>
        <translation>正在同步…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_controller.py" line="294" />
        <source>Not synced: the reason is below</source>
        <translation>未同步：原因见下方</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_controller.py" line="295" />
        <source>Not synced: see Settings &gt; Sync</source>
        <translation>未同步：请查看“设置 &gt; 同步”</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_controller.py" line="297" />
        <source>Sync on</source>
        <translation>同步已开启</translation>
    </message>
</context>
<context>
    <name>SyncPage</name>
    <message>
        <location filename="../../desktop_mem/ui/sync_ui.py" line="211" />
        <source>Folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_ui.py" line="282" />
        <source>The recovery code, or a pairing code</source>
        <translation>恢复码，或配对码</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_ui.py" line="289" />
        <source>Code</source>
        <translation>代码</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_ui.py" line="94" />
        <source>Setting up sync…</source>
        <translation>正在设置同步…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_ui.py" line="99" />
        <source>Joining: bringing in everything the other computers hold…</source>
        <translation>正在加入：正在取回其他电脑上的全部内容…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_ui.py" line="107" />
        <source>Joining: %1 of %2 records from %3 taken in…</source>
        <translation>正在加入：已从 %3 收取 %2 条记录中的 %1 条…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_ui.py" line="116" />
        <source>Enter a pairing code shown on one of your other computers.</source>
        <translation>请输入你的另一台电脑上显示的配对码。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_ui.py" line="122" />
        <source>Joining again…</source>
        <translation>正在重新加入…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_ui.py" line="144" />
        <source>Joined: %1 and %2 are here.</source>
        <translation>已加入：%1和%2已在这里。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/sync_ui.py" line="145" />
        <source>%n memory(s)</source>
        <translation><numerusform>%n 条记忆</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/sync_ui.py" line="147" />
        <source>%n conversation(s)</source>
        <translation><numerusform>%n 个对话</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_ui.py" line="153" />
        <location filename="../../desktop_mem/ui/sync_ui.py" line="165" />
        <source>%1 %2</source>
        <translation>%1%2</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_ui.py" line="158" />
        <source>%1 lets this computer in at its next sync; until then what you change here waits to be sent.</source>
        <translation>%1 会在下次同步时让这台电脑加入；在此之前，你在这里的更改会等待发送。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_ui.py" line="167" />
        <source>Sync is on.</source>
        <translation>同步已开启。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_ui.py" line="175" />
        <source>From now on the recovery code of the profile you joined opens this profile: the recovery code shown when this profile was first opened no longer does.</source>
        <translation>从现在起，打开这个配置要用你加入的那个配置的恢复码：这个配置第一次打开时显示的恢复码已不再有效。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_ui.py" line="180" />
        <source>The profile you joined has no recovery code (a passphrase protects it): this profile keeps its own, the one shown when it was first opened.</source>
        <translation>你加入的配置没有恢复码（它由密码保护）：这个配置保留自己的恢复码，也就是它第一次打开时显示的那个。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_ui.py" line="200" />
        <source>Move to another folder…</source>
        <translation>移到另一个文件夹…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_ui.py" line="203" />
        <source>Sync through another folder from now on (the engine's folder moved, or you use another engine). The same key and the same computer: nothing is sent again.</source>
        <translation>从现在起通过另一个文件夹同步（同步引擎的文件夹移动了，或你换了引擎）。密钥和这台电脑都不变：不会重新发送任何内容。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_ui.py" line="219" />
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_ui.py" line="223" />
        <source>Rename</source>
        <translation>重命名</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_ui.py" line="227" />
        <source>This computer</source>
        <translation>这台电脑</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_ui.py" line="232" />
        <source>Other computers</source>
        <translation>其他电脑</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_ui.py" line="263" />
        <source>The other version of each is in its history. Double-click to open it.</source>
        <translation>每条记忆的另一个版本都在它的历史中。双击即可打开。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_ui.py" line="270" />
        <location filename="../../desktop_mem/ui/sync_ui.py" line="283" />
        <source>Join again</source>
        <translation>重新加入</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_ui.py" line="274" />
        <source>Show a pairing code on one of your other computers (Settings &gt; Sync) and enter it here. This computer joins as a new one and keeps everything it holds: what changed here since is sent, what the others did is taken in.</source>
        <translation>在你的另一台电脑上显示配对码（设置 &gt; 同步），然后在这里输入。这台电脑会作为新电脑加入，并保留它已有的全部内容：这里之后的改动会发送出去，其他电脑的改动会同步过来。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_ui.py" line="294" />
        <source>Show a pairing code</source>
        <translation>显示配对码</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_ui.py" line="296" />
        <source>A code another computer joins with, without the recovery code</source>
        <translation>另一台电脑无需恢复码即可用它加入的代码</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_ui.py" line="299" />
        <source>Sync now</source>
        <translation>立即同步</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_ui.py" line="301" />
        <source>Turn off sync on this computer…</source>
        <translation>在这台电脑上关闭同步…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_ui.py" line="349" />
        <source>Show them</source>
        <translation>查看</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_ui.py" line="353" />
        <source>Memories edited on two computers at once</source>
        <translation>在两台电脑上同时被编辑的记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_ui.py" line="358" />
        <source>(deleted)</source>
        <translation>（已删除）</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_ui.py" line="360" />
        <source>%1 (also edited on %2, %3)</source>
        <translation>%1（%2 上也编辑过，%3）</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_ui.py" line="401" />
        <source>None yet. On the other computer, choose Join a synced profile in Settings &gt; Sync, with this folder and a pairing code (Show a pairing code, below).</source>
        <translation>还没有。在另一台电脑上，打开“设置 &gt; 同步”，选择“加入一个已同步的配置”，使用这个文件夹和一个配对码（见下方的“显示配对码”）。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_ui.py" line="407" />
        <source>None yet. On the other computer, choose Join a synced profile in Settings &gt; Sync, with this folder and the recovery code or a pairing code.</source>
        <translation>还没有。在另一台电脑上，打开“设置 &gt; 同步”，选择“加入一个已同步的配置”，用这个文件夹以及恢复码或配对码加入。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_ui.py" line="429" />
        <source>Remove…</source>
        <translation>移除…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_ui.py" line="466" />
        <source>A computer's name cannot be empty: type a few letters.</source>
        <translation>电脑名称不能为空：请输入几个字。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_ui.py" line="474" />
        <source>Renamed.</source>
        <translation>已重命名。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_ui.py" line="479" />
        <source>Remove a computer</source>
        <translation>移除一台电脑</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_ui.py" line="481" />
        <source>Remove “%1” from this sync? The others get a new key that it is not given: it cannot read anything changed from now on. What it already holds stays on it. Do this if it was lost or stolen, or is no longer yours.</source>
        <translation>要把“%1”从这个同步中移除吗？其他电脑会换用一把不给它的新密钥：从现在起的任何更改它都读不到。它已有的内容仍留在它上面。如果它丢失、被盗或已不属于你，请这样做。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_ui.py" line="490" />
        <source>Removing %1…</source>
        <translation>正在移除 %1…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_ui.py" line="493" />
        <source>%1 was removed.</source>
        <translation>已移除 %1。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_ui.py" line="499" />
        <source>Move sync to another folder</source>
        <translation>把同步移到另一个文件夹</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_ui.py" line="504" />
        <source>Moving sync to %1…</source>
        <translation>正在把同步移到 %1…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_ui.py" line="510" />
        <source>This profile now syncs through %1. On your other computers, choose Move to another folder… with the same folder once the engine has brought it there. The old folder is no longer used here: delete it once every computer has moved.</source>
        <translation>这个档案现在通过 %1 同步。等同步引擎把这个文件夹带到你的其他电脑后，在那些电脑上选择“移到另一个文件夹…”并选同一个文件夹。这台电脑不再使用旧文件夹：等所有电脑都移过去后，可以删除它。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_ui.py" line="544" />
        <source>Turn off sync</source>
        <translation>关闭同步</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_ui.py" line="546" />
        <source>Stop syncing this profile on this computer? Everything it holds stays here, and the other computers go on syncing without it.</source>
        <translation>要在这台电脑上停止同步这个配置吗？它的全部内容仍保留在这里，其他电脑会在没有它的情况下继续同步。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_ui.py" line="555" />
        <source>Sync is off on this computer.</source>
        <translation>这台电脑上的同步已关闭。</translation>
    </message>
</context>
<context>
    <name>SyncWords</name>
    <message>
        <location filename="../../desktop_mem/ui/sync_controller.py" line="43" />
        <source>This profile syncs: what you delete here goes from your other computers too.</source>
        <translation>这个配置文件正在同步：你在这里删除的内容也会从你的其他电脑上删除。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_controller.py" line="47" />
        <source>This profile syncs: what you delete here goes from %1 too.</source>
        <translation>这个配置文件正在同步：你在这里删除的内容也会从 %1 上删除。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_words.py" line="32" />
        <source>never</source>
        <translation>从未</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_words.py" line="35" />
        <source>just now</source>
        <translation>刚刚</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/sync_words.py" line="37" />
        <source>%n min ago</source>
        <translation><numerusform>%n 分钟前</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/sync_words.py" line="39" />
        <source>%n hour(s) ago</source>
        <translation><numerusform>%n 小时前</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_words.py" line="52" />
        <source>Sync on · no other computer syncs now</source>
        <translation>同步已开启 · 现在没有其他电脑在同步</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_words.py" line="53" />
        <source>Sync on · no other computer has joined yet</source>
        <translation>同步已开启 · 还没有其他电脑加入</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_words.py" line="55" />
        <source>Synced with %1 %2</source>
        <translation>%2与 %1 同步</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/sync_words.py" line="76" />
        <source>%1 has not yet received your last %n change(s) (since %2)</source>
        <translation><numerusform>%1 还没有收到你最近的 %n 项更改（自 %2 起）</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/sync_words.py" line="78" />
        <source>%1 has not yet received your last %n change(s)</source>
        <translation><numerusform>%1 还没有收到你最近的 %n 项更改</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_words.py" line="84" />
        <source>%1 cannot read one of your files: a fresh copy goes out at the next sync</source>
        <translation>%1 无法读取你的一个文件：下次同步时会发出一份新的副本</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_words.py" line="89" />
        <source>cannot read one of your files: a fresh copy goes out at the next sync</source>
        <translation>无法读取你的一个文件：下次同步时会发出一份新的副本</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_words.py" line="93" />
        <source>%1's latest changes have not arrived here yet</source>
        <translation>%1 最近的更改还没有到达这台电脑</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_words.py" line="99" />
        <source>Check that %1 is switched on with desktop-mem open, and that your sync engine (Syncthing, Dropbox…) runs on both computers.</source>
        <translation>请确认 %1 已开机并打开了 desktop-mem，而且两台电脑上的同步工具（Syncthing、Dropbox…）都在运行。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_words.py" line="104" />
        <source>Your sync engine has not brought every file of %1 here yet: check that it runs on both computers.</source>
        <translation>同步工具还没有把 %1 的所有文件带到这里：请确认它在两台电脑上都在运行。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_words.py" line="112" />
        <source>has all your changes</source>
        <translation>已有你的全部更改</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_words.py" line="113" />
        <source>has all your changes (the last reached it %1)</source>
        <translation>已有你的全部更改（最近一项%1到达）</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/sync_words.py" line="121" />
        <source>has not yet received your last %n change(s) (since %1)</source>
        <translation><numerusform>还没有收到你最近的 %n 项更改（自 %1 起）</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/sync_words.py" line="124" />
        <source>has not yet received your last %n change(s)</source>
        <translation><numerusform>还没有收到你最近的 %n 项更改</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_words.py" line="128" />
        <source>its latest changes have not arrived here yet</source>
        <translation>它最近的更改还没有到达这里</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/sync_words.py" line="131" />
        <source>%n memory(s) were edited on two computers at once</source>
        <translation><numerusform>有 %n 条记忆同时在两台电脑上被编辑</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/sync_words.py" line="136" />
        <source>%n memory(s) were edited on two computers at once: the other version is in its history (Settings &gt; Sync lists them).</source>
        <translation><numerusform>有 %n 条记忆同时在两台电脑上被编辑：另一个版本在它的历史中（“设置 &gt; 同步”中列出了它们）。</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_words.py" line="149" />
        <source>%1 joined the sync with the recovery code.</source>
        <translation>%1 用恢复码加入了同步。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_words.py" line="150" />
        <source>A computer joined the sync with the recovery code.</source>
        <translation>一台电脑用恢复码加入了同步。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_words.py" line="155" />
        <source>%1 joined the sync with the pairing code shown on %2 at %3.</source>
        <translation>%1 用 %2 在 %3 显示的配对码加入了同步。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_words.py" line="159" />
        <source>A computer joined the sync with the pairing code shown on %1 at %2.</source>
        <translation>一台电脑用 %1 在 %2 显示的配对码加入了同步。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_words.py" line="163" />
        <source>%1 joined the sync.</source>
        <translation>%1 加入了同步。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_words.py" line="164" />
        <source>A computer joined the sync.</source>
        <translation>一台电脑加入了同步。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_words.py" line="167" />
        <source>This computer is in the sync now: %1 let it in.</source>
        <translation>这台电脑现在已在同步中：%1 让它加入了。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_words.py" line="170" />
        <source>Waiting for %1 to let this computer in</source>
        <translation>正在等待 %1 让这台电脑加入</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/sync_words.py" line="175" />
        <source>%n file(s) in the sync folder are ignored: each was refused once for what it is (a link, a FIFO, too large, or not this profile's), and is not read again until it changes.</source>
        <translation><numerusform>同步文件夹中有 %n 个文件被忽略：每个文件都因其本身（链接、FIFO、过大或不属于这个配置）被拒绝过一次，在它改变之前不会再被读取。</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/sync_words.py" line="186" />
        <source>%n edit(s) made here were to memories deleted on %1</source>
        <translation><numerusform>在这里做的 %n 处编辑所针对的记忆已在 %1 上被删除</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/sync_words.py" line="188" />
        <source>%n edit(s) made on %1 were to memories deleted here</source>
        <translation><numerusform>在 %1 上做的 %n 处编辑所针对的记忆已在这里被删除</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/sync_words.py" line="190" />
        <source>%n message(s) written here were in conversations deleted on %1</source>
        <translation><numerusform>在这里写的 %n 条消息所在的对话已在 %1 上被删除</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/sync_words.py" line="193" />
        <source>%n memory change(s) written on %1 after it was removed were undone here</source>
        <translation><numerusform>在 %1 被移除后写下的 %n 项记忆更改已在这里撤销</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/sync_words.py" line="196" />
        <source>%n message(s) written on %1 were in conversations deleted here</source>
        <translation><numerusform>在 %1 上写的 %n 条消息所在的对话已在这里被删除</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_words.py" line="202" />
        <source>edited here, deleted on %1</source>
        <translation>在这里编辑，在 %1 上删除</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_words.py" line="204" />
        <source>edited on %1, deleted here</source>
        <translation>在 %1 上编辑，在这里删除</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_words.py" line="206" />
        <source>written here, its conversation deleted on %1</source>
        <translation>在这里写的，对话已在 %1 上删除</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_words.py" line="208" />
        <source>written on %1 after it was removed, undone</source>
        <translation>在 %1 被移除后写下，已撤销</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_words.py" line="210" />
        <source>written on %1, its conversation deleted here</source>
        <translation>在 %1 上写的，对话已在这里删除</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/sync_words.py" line="218" />
        <source>Settings &gt; Sync keeps their text until you dismiss them.</source>
        <translation><numerusform>“设置 &gt; 同步”会保留这些内容，直到你将其移除。</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_words.py" line="225" />
        <source>%1. %2</source>
        <translation>%1。%2</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_words.py" line="234" />
        <source>A file of %1's in the sync folder is damaged or missing, so its latest changes cannot be taken in yet: %1 sends a fresh copy the next time it syncs.</source>
        <translation>同步文件夹中 %1 的一个文件损坏或缺失，暂时无法接收它最新的更改：%1 下次同步时会发送一份新的副本。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_words.py" line="237" />
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/sync_words.py" line="239" />
        <source>A file in the sync folder was refused (damaged, cut short, or not written by one of your computers): nothing of it was applied, and sync went on with the others.</source>
        <translation>同步文件夹中的一个文件被拒绝了（已损坏、不完整，或不是由你的电脑写入的）：其中的内容都没有应用，其他文件照常同步。</translation>
    </message>
</context>
<context>
    <name>TurnController</name>
    <message>
        <location filename="../../desktop_mem/ui/turns.py" line="111" />
        <source>…</source>
        <translation>…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/turns.py" line="142" />
        <location filename="../../desktop_mem/ui/turns.py" line="366" />
        <source>Learning from this exchange…</source>
        <translation>正在从这轮对话中学习…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/turns.py" line="214" />
        <source>Retry</source>
        <translation>重试</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/turns.py" line="281" />
        <source>This will be given to the model in every chat: it is about your %1.</source>
        <translation>这条记忆以后每次对话都会提供给模型：它与你的%1有关。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/turns.py" line="282" />
        <source>Change</source>
        <translation>更改</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/turns.py" line="302" />
        <source>Kept in the shared space, as it applies everywhere: %1.</source>
        <translation>已存入共享空间，因为它在哪里都适用：%1。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/turns.py" line="303" />
        <source>Keep it in %1 instead</source>
        <translation>改为只存在“%1”中</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/turns.py" line="342" />
        <source>Nothing was learned from this message: the model's answer was not what was asked for. It will be tried again later.</source>
        <translation>这条消息还没有被记住：模型的回答不符合要求。稍后会再试。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/turns.py" line="347" />
        <source>Nothing was learned from this message: the model server did not answer in time. It will be tried again later.</source>
        <translation>这条消息还没有被记住：模型服务器没有及时回答。稍后会再试。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/turns.py" line="352" />
        <source>Nothing was learned from this message: the model server could not be reached. It will be tried again once it answers.</source>
        <translation>这条消息还没有被记住：无法连接模型服务器。等它恢复后会再试。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/turns.py" line="356" />
        <source>Nothing was learned from this message: the model server failed. It will be tried again later.</source>
        <translation>这条消息还没有被记住：模型服务器出错了。稍后会再试。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/turns.py" line="400" />
        <source>Undone.</source>
        <translation>已撤销。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/turns.py" line="403" />
        <source>Undoing…</source>
        <translation>正在撤销…</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/turns.py" line="433" />
        <source>Deleted %n memory(s)</source>
        <translation><numerusform>已删除 %n 条记忆</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/turns.py" line="433" />
        <source> and %n message(s).</source>
        <translation><numerusform>和 %n 条消息。</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/turns.py" line="436" />
        <source>Deleted %n memory(s).</source>
        <translation><numerusform>已删除 %n 条记忆。</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/turns.py" line="438" />
        <source>Deleted %n message(s).</source>
        <translation><numerusform>已删除 %n 条消息。</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/turns.py" line="442" />
        <source>Kept the rest of %n memory(s).</source>
        <translation><numerusform>已保留 %n 条记忆的其余部分。</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/turns.py" line="446" />
        <source>%n earlier message(s) stay to read, but the assistant no longer sees them.</source>
        <translation><numerusform>%n 条以前的消息保留以供阅读，但助手不再看到它们。</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_mem/ui/turns.py" line="455" />
        <source>%n memory(s) or message(s) still mention it: say the same “forget …” again to see them.</source>
        <translation><numerusform>仍有 %n 条记忆或消息提到它：再说一次同样的“忘记……”即可看到。</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/turns.py" line="461" />
        <source>Nothing was deleted.</source>
        <translation>没有删除任何内容。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/turns.py" line="466" />
        <source>Deleting…</source>
        <translation>正在删除…</translation>
    </message>
</context>
<context>
    <name>TypedConfirmDialog</name>
    <message>
        <location filename="../../desktop_mem/ui/confirm_dialog.py" line="23" />
        <source>Type %1 to confirm.</source>
        <translation>输入 %1 以确认。</translation>
    </message>
</context>
<context>
    <name>app</name>
    <message>
        <location filename="../../desktop_mem/ui/app.py" line="253" />
        <location filename="../../desktop_mem/ui/app.py" line="310" />
        <location filename="../../desktop_mem/ui/unlock.py" line="54" />
        <source>Cannot open your memories</source>
        <translation>无法打开你的记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/unlock.py" line="59" />
        <location filename="../../desktop_mem/ui/unlock.py" line="138" />
        <source>That passphrase is not right. Nothing was changed; try again.</source>
        <translation>口令不正确。没有做任何更改，请重试。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/unlock.py" line="73" />
        <source>Your keyring is locked</source>
        <translation>你的钥匙环已锁定</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/unlock.py" line="76" />
        <source>Try again</source>
        <translation>重试</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/unlock.py" line="78" />
        <source>Quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/unlock.py" line="105" />
        <source>That recovery code does not open this profile: check it and try again.</source>
        <translation>这个恢复码打不开此配置：请核对后重试。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/app.py" line="278" />
        <location filename="../../desktop_mem/ui/app.py" line="284" />
        <location filename="../../desktop_mem/ui/unlock.py" line="120" />
        <source>Restore a backup</source>
        <translation>恢复备份</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/unlock.py" line="146" />
        <source>This backup is protected by the passphrase of the profile it was made from. Enter it to restore the backup.</source>
        <translation>此备份受其原配置的口令保护。请输入该口令以恢复备份。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/unlock.py" line="157" />
        <source>That recovery code does not open this backup: check it and try again.</source>
        <translation>这个恢复码打不开此备份：请核对后重试。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/unlock.py" line="160" />
        <source>The key of this backup is not in this computer's keyring. Enter the recovery code of the profile it was made from.</source>
        <translation>此备份的密钥不在这台电脑的钥匙环中。请输入生成该备份的配置的恢复码。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/app.py" line="203" />
        <source>Choose a new passphrase for the profile “%1”. Everything is re-encrypted with it; without it nobody, including you, can read your memories. There is no way to recover it.</source>
        <translation>为配置“%1”选择一个新口令。所有内容都会用它重新加密；没有它，任何人（包括你自己）都无法读取你的记忆，而且无法找回。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/app.py" line="217" />
        <source>Change the key</source>
        <translation>更换密钥</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/app.py" line="218" />
        <source>Wait for the answer to finish, then change the key.</source>
        <translation>请等回答结束后再更换密钥。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/app.py" line="225" />
        <source>Re-encrypting your memories…</source>
        <translation>正在重新加密你的记忆…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/app.py" line="242" />
        <source>The key was not changed</source>
        <translation>密钥没有更改</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/status_bar.py" line="48" />
        <source>Your memories were re-encrypted; the old key no longer opens them.</source>
        <translation>你的记忆已重新加密；旧密钥已无法打开它们。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/app.py" line="285" />
        <source>Replace the memories and conversations of the profile “%1” with this backup (%2)? What the profile holds now is deleted.</source>
        <translation>用这个备份（%2）替换配置“%1”的记忆和对话吗？配置中现有的内容会被删除。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/status_bar.py" line="52" />
        <source>The backup was restored.</source>
        <translation>备份已恢复。</translation>
    </message>
</context>
<context>
    <name>backup</name>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="191" />
        <source>Restore a backup</source>
        <translation>恢复备份</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/backup_ui.py" line="193" />
        <source>desktop-mem backups (*.dmbackup)</source>
        <translation>desktop-mem 备份 (*.dmbackup)</translation>
    </message>
</context>
<context>
    <name>cards</name>
    <message>
        <location filename="../../desktop_mem/ui/memory_cards.py" line="46" />
        <source>weak match</source>
        <translation>弱匹配</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_cards.py" line="52" />
        <source>health</source>
        <translation>健康</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_cards.py" line="53" />
        <source>diet</source>
        <translation>饮食</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_cards.py" line="54" />
        <source>accessibility</source>
        <translation>无障碍需求</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_cards.py" line="56" />
        <source>you asked</source>
        <translation>你的要求</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_cards.py" line="63" />
        <source>always given: %1</source>
        <translation>始终提供：%1</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_cards.py" line="75" />
        <source>from another computer</source>
        <translation>来自另一台电脑</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_cards.py" line="76" />
        <source>from %1</source>
        <translation>来自 %1</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_cards.py" line="97" />
        <source>shared</source>
        <translation>共享</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_cards.py" line="99" />
        <source>in %1</source>
        <translation>在“%1”</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_cards.py" line="104" />
        <source>⇄ edited on two computers</source>
        <translation>⇄ 在两台电脑上同时编辑</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_cards.py" line="106" />
        <source>★ pinned</source>
        <translation>★ 置顶</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_cards.py" line="113" />
        <source>expired</source>
        <translation>已过期</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/memory_cards.py" line="116" />
        <source>until %1</source>
        <translation>有效至 %1</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/item_models.py" line="209" />
        <source>A match is what the chat would give the model for this search: near it in meaning or holding its words, and the search about something you have (a greeting, or a question about something you never mentioned, has none). Matches are listed best first. A weak match is near the search but not a match: listed with “Weak matches too”.</source>
        <translation>匹配是对话时会为这个搜索提供给模型的记忆：意思相近或含有搜索的词，而且搜索的是你有的内容（一句问候，或问你从没提过的事，就没有匹配）。匹配按相关程度排列。弱匹配与搜索相近但不算匹配：勾选“也显示弱匹配”才列出。</translation>
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
        <location filename="../../desktop_mem/ui/errors.py" line="34" />
        <source>The model server is not reachable: check its address in Settings and your connection.</source>
        <translation>无法连接模型服务器：请在设置中检查其地址和你的网络连接。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="30" />
        <source>Ollama is not reachable: start it (open the Ollama app; on Linux, start its service) and try again.</source>
        <translation>无法连接 Ollama：请启动它（打开 Ollama 应用；在 Linux 上启动它的服务）后重试。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="38" />
        <source>The model %1 is not installed in Ollama: download it when desktop-mem offers to, or choose another model in Settings.</source>
        <translation>模型 %1 尚未安装在 Ollama 中：在 desktop-mem 提示时下载它，或在设置中选择其他模型。</translation>
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
        <source>The system keyring is locked: its unlock prompt was closed. Try again, and unlock it when it asks.</source>
        <translation>系统钥匙环已锁定：它的解锁提示被关闭了。请重试，并在它询问时解锁。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="67" />
        <source>Another desktop-mem is writing to this profile: wait for it to finish and try again.</source>
        <translation>另一个 desktop-mem 正在写入此配置：请等待它完成后重试。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="71" />
        <source>The database is damaged: restore it from a backup or an export.</source>
        <translation>数据库已损坏：请从备份或导出文件恢复。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="74" />
        <source>Nothing was imported: %n line(s) have problems (see the details).</source>
        <translation>没有导入任何内容：%n 行有问题（见详细信息）。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="77" />
        <source>Your memories are indexed with another embedding model: re-index them (Settings) or go back to it.</source>
        <translation>你的记忆是用另一个嵌入模型索引的：请重新索引（在设置中），或换回那个模型。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="81" />
        <location filename="../../desktop_mem/ui/errors.py" line="219" />
        <source>That memory no longer exists: it was deleted. Nothing was changed.</source>
        <translation>这条记忆已不存在：它已被删除。没有做任何更改。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="84" />
        <source>That line is no longer there: a memory it came from was forgotten, or it was removed.</source>
        <translation>这一行已经不在了：它所来自的一条记忆被忘记了，或者它已被删除。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="88" />
        <source>A line cannot be empty: remove it instead.</source>
        <translation>一行不能为空：请改为删除它。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="91" />
        <source>That line is too long: keep it to one short sentence.</source>
        <translation>这一行太长了：请保持为一个简短的句子。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="94" />
        <source>What the model knows about you is turned off: turn it on first.</source>
        <translation>“关于你”已关闭：请先打开它。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="97" />
        <source>The model did not answer in the form asked for, so nothing was changed: try again, or choose another model in Settings.</source>
        <translation>模型没有按要求的格式回答，所以什么都没有改变：请再试一次，或在“设置”中选择其他模型。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="101" />
        <source>That conversation no longer exists: it was deleted.</source>
        <translation>这个对话已不存在：它已被删除。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="104" />
        <source>That version of the memory no longer exists. Nothing was changed.</source>
        <translation>这条记忆的该版本已不存在。没有做任何更改。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="107" />
        <source>The OpenAI-compatible server is on but its URL or model is not set: fill them in Settings, or turn it off there.</source>
        <translation>已开启 OpenAI 兼容服务器，但未设置其地址或模型：请在设置中填写，或在那里关闭它。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="111" />
        <source>No embedding model is chosen: choose one in Settings.</source>
        <translation>尚未选择嵌入模型：请在设置中选择。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="114" />
        <source>That app is not registered in desktop-mem: connect it in Settings &gt; Apps.</source>
        <translation>该应用没有在 desktop-mem 中注册：请在“设置 &gt; 应用”中连接它。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="117" />
        <source>That folder is no longer watched: the list of folders was out of date.</source>
        <translation>该文件夹已不再被监视：文件夹列表已过时。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="120" />
        <source>This profile was copied or moved here and the system keyring did not answer, so its key was not changed: unlock the keyring, restart desktop-mem and try again.</source>
        <translation>此配置是复制或移动到这里的，而系统密钥环没有响应，所以它的密钥没有更改：请解锁密钥环，重新启动 desktop-mem 后再试。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="125" />
        <source>That app is not allowed to do this: change it in Settings &gt; Apps.</source>
        <translation>这个应用无权这样做：请在“设置 &gt; 应用”中更改。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="128" />
        <source>A profile protected by a passphrase cannot be served to other apps: keep its key in the system keyring (Settings &gt; Privacy).</source>
        <translation>受口令保护的配置不能提供给其他应用：请把密钥保存在系统钥匙环中（设置 &gt; 隐私）。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="132" />
        <source>That document is no longer in desktop-mem: it was removed.</source>
        <translation>这个文档已不在 desktop-mem 中：它已被移除。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="135" />
        <source>That file was not added: desktop-mem reads Markdown, text, PDF, Word and HTML files that are not damaged, encrypted or too large.</source>
        <translation>这个文件没有添加：desktop-mem 读取未损坏、未加密且不过大的 Markdown、文本、PDF、Word 和 HTML 文件。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="139" />
        <source>The disk is full: nothing was changed; free some space and try again.</source>
        <translation>磁盘已满：没有做任何更改；请释放空间后重试。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="142" />
        <source>This profile's folder cannot be written (a read-only disk, or another user's folder): it can be read, but nothing was changed.</source>
        <translation>无法写入这个资料的文件夹（只读磁盘，或属于其他用户的文件夹）：可以读取，但没有做任何更改。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="146" />
        <source>That file is not a backup made by desktop-mem: nothing was changed.</source>
        <translation>这个文件不是 desktop-mem 制作的备份：没有做任何更改。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="149" />
        <source>There is no such profile in this data folder: nothing was changed.</source>
        <translation>这个数据文件夹中没有这个配置：没有做任何更改。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="152" />
        <source>The sync folder is not there (a drive not connected, or the folder moved or deleted): connect the drive or put the folder back. Nothing is lost meanwhile; this computer syncs again once it is there.</source>
        <translation>同步文件夹不在了（驱动器未连接，或文件夹被移动或删除）：请连接驱动器，或把文件夹放回原处。在此期间不会丢失任何内容；文件夹回来后，这台电脑会再次同步。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="156" />
        <source>desktop-mem cannot write in that folder: choose a folder you can write to.</source>
        <translation>desktop-mem 无法写入那个文件夹：请选择一个你可以写入的文件夹。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="159" />
        <source>There is no synced desktop-mem profile in that folder: choose the folder the other computer syncs through, and wait until the engine has brought it here.</source>
        <translation>那个文件夹里没有已同步的 desktop-mem 配置：请选择另一台电脑用来同步的文件夹，并等同步工具把它带到这里。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="163" />
        <source>Only a new, empty profile can join a synced one (this one holds memories or conversations): join into a new profile.</source>
        <translation>只有新的空配置才能加入已同步的配置（这个配置已有记忆或对话）：请加入到一个新配置中。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="167" />
        <source>There is no pairing offer in this folder that is still valid: show a new pairing code on the computer that syncs the profile (it lasts an hour), wait for the folder to reach this computer, and try again.</source>
        <translation>这个文件夹中没有仍然有效的配对邀请：请在同步这个配置的电脑上显示一个新的配对码（一小时内有效），等文件夹同步到这台电脑后再试。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="171" />
        <source>This synced profile has no recovery code (it is protected by a passphrase): join with a pairing code shown on a computer that syncs it.</source>
        <translation>这个已同步的配置没有恢复码（它由密码保护）：请用同步它的电脑上显示的配对码加入。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="175" />
        <source>Your recovery code is right, but the newest key file in this sync folder does not let it in (damaged, or written by a computer removed since): join with a pairing code shown on one of your computers, or try again once they have synced.</source>
        <translation>你的恢复码是对的，但这个同步文件夹中最新的密钥文件不允许它加入（已损坏，或由一台之后被移除的电脑写入）：请用你的某台电脑上显示的配对码加入，或等它们同步后再试。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="179" />
        <source>This computer was removed from the sync by another one: what it holds stays here, but it no longer syncs. To sync it again, show a pairing code on one of your other computers and enter it in Settings &gt; Sync, under Join again.</source>
        <translation>另一台电脑已把这台电脑从同步中移除：这里的内容会保留，但不再同步。要重新同步，请在你的另一台电脑上显示配对码，然后在“设置 &gt; 同步”的“重新加入”下输入它。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="183" />
        <source>This computer is no longer in the sync: the computer that let it in was removed before the others knew of this one. What it holds stays here. To sync it again, show a pairing code on one of your other computers and enter it in Settings &gt; Sync, under Join again.</source>
        <translation>这台电脑已不在同步中：让它加入的那台电脑在其他电脑得知这台电脑之前被移除了。这里的内容会保留。要重新同步，请在你的另一台电脑上显示配对码，然后在“设置 &gt; 同步”的“重新加入”下输入它。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="187" />
        <source>The sync folder now holds a second start of this synced profile that the recovery code opens: someone who can write the folder planted one, and this computer, which joined with the recovery code, cannot tell which is yours. It writes nothing to the folder while both are there. To go on now, show a pairing code on one of your other computers and enter it in Settings &gt; Sync, under Join again. What it holds stays here.</source>
        <translation>同步文件夹中现在有这个同步资料的第二个起点，你的恢复码也能打开它：能写入该文件夹的人放入了其中一个，而这台电脑是用恢复码加入的，无法分辨哪一个是你的。两个都在时，它不会向文件夹写入任何内容。要现在继续，请在你的另一台电脑上显示配对码，然后在“设置 &gt; 同步”的“重新加入”下输入它。这里的内容会保留。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="191" />
        <source>The pairing code this computer joined with was used by another computer first, so this one was not let in: show a new pairing code on one of your other computers and enter it in Settings &gt; Sync, under Join again.</source>
        <translation>这台电脑加入时用的配对码已先被另一台电脑使用，所以这台电脑没有被加入：请在你的另一台电脑上显示新的配对码，然后在“设置 &gt; 同步”的“重新加入”下输入它。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="195" />
        <source>The pairing code this computer joined with expired before the computer that showed it could let this one in: show a new pairing code there, keep both computers on, and enter it in Settings &gt; Sync, under Join again.</source>
        <translation>这台电脑加入时用的配对码在显示它的电脑让这台电脑加入之前就过期了：请在那台电脑上显示新的配对码，让两台电脑都保持开机，然后在“设置 &gt; 同步”的“重新加入”下输入它。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="199" />
        <source>This sync folder holds more than one start of this synced profile that your recovery code opens: one of them was planted by someone else. Join with a pairing code shown on one of your computers instead.</source>
        <translation>这个同步文件夹里有不止一个能用你的恢复码打开的同步起点：其中一个是别人放进来的。请改用你的某台电脑上显示的配对码加入。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="203" />
        <source>This computer has not been given the newest sync key yet: try again after the next sync, or show the pairing code on another of your computers.</source>
        <translation>这台电脑还没有拿到最新的同步密钥：请在下次同步后再试，或在你的另一台电脑上显示配对码。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="207" />
        <source>The sync folder, or the keys folder inside it, was replaced by a symbolic link or by something that is not a folder: desktop-mem never reads or writes through it. Put the real folder in its place, or move this computer to another folder (Settings &gt; Sync &gt; Move to another folder…), then sync again.</source>
        <translation>同步文件夹（或其中的密钥文件夹）被换成了一个符号链接，或者不是文件夹的东西：desktop-mem 绝不会通过它读写。请把真正的文件夹放回原处，或者把这台电脑移到另一个文件夹（“设置 &gt; 同步 &gt; 移到另一个文件夹…”），然后再同步。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="211" />
        <source>Another window or command is syncing this profile right now: try again in a moment.</source>
        <translation>另一个窗口或命令正在同步这个配置：请稍后再试。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="215" />
        <source>This profile already syncs: turn sync off first.</source>
        <translation>这个配置已经在同步：请先关闭同步。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="218" />
        <source>This profile is not synced.</source>
        <translation>这个配置没有同步。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="222" />
        <source>Choose whether to move the space's contents to the shared space or to delete them.</source>
        <translation>请选择把这个空间的内容移到共享空间，还是删除它们。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="226" />
        <source>There is already a space with that name: choose another name.</source>
        <translation>已有同名的空间：请换一个名称。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="229" />
        <source>A space needs a name: type one.</source>
        <translation>空间需要一个名称：请输入。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="232" />
        <source>That name is too long: a space's name is at most 60 characters.</source>
        <translation>名称太长了：空间名称最多 60 个字符。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="235" />
        <source>That is the name of the shared space: choose another name.</source>
        <translation>这是共享空间的名称：请换一个名称。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="238" />
        <source>That instruction is too long: keep it under 2,000 characters.</source>
        <translation>指示太长了：请控制在 2,000 个字符以内。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="241" />
        <source>That space still holds memories, conversations or documents: move them to the shared space or delete them first.</source>
        <translation>这个空间里还有记忆、对话或文档：请先把它们移到共享空间或删除。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="246" />
        <source>That space no longer exists: it was deleted, here or on another computer. Nothing was changed.</source>
        <translation>这个空间已不存在：它已在这台或另一台电脑上被删除。没有做任何更改。</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/errors.py" line="251" />
        <source>That document is in a watched folder: move the folder instead (beside Watched folders).</source>
        <translation>这个文档在监视文件夹中：请改为移动该文件夹（在“监视的文件夹”旁边）。</translation>
    </message>
</context>
<context>
    <name>kinds</name>
    <message>
        <location filename="../../desktop_mem/ui/item_models.py" line="221" />
        <source>fact</source>
        <translation>事实</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/item_models.py" line="222" />
        <source>preference</source>
        <translation>偏好</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/item_models.py" line="223" />
        <source>event</source>
        <translation>事件</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/item_models.py" line="224" />
        <source>plan</source>
        <translation>计划</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/item_models.py" line="225" />
        <source>person</source>
        <translation>人物</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/item_models.py" line="226" />
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
        <source>A tab in the message (Tab moves on)</source>
        <translation>在消息中输入制表符（Tab 键切换焦点）</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/shortcuts.py" line="16" />
        <source>Stop the answer, or stop editing</source>
        <translation>停止回答，或停止编辑</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/shortcuts.py" line="17" />
        <source>Regenerate the last answer</source>
        <translation>重新生成上一个回答</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/shortcuts.py" line="18" />
        <source>Edit the last message</source>
        <translation>编辑上一条消息</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/shortcuts.py" line="19" />
        <source>Go to the message box</source>
        <translation>转到输入框</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/shortcuts.py" line="20" />
        <source>Show or hide the memory browser</source>
        <translation>显示或隐藏记忆浏览器</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/shortcuts.py" line="21" />
        <source>Search memories</source>
        <translation>搜索记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/shortcuts.py" line="22" />
        <source>Search conversations</source>
        <translation>搜索对话</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/shortcuts.py" line="23" />
        <source>Write a new memory</source>
        <translation>写一条新记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/shortcuts.py" line="24" />
        <source>Delete the selected memories</source>
        <translation>删除选中的记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/shortcuts.py" line="25" />
        <source>Remove the selected documents</source>
        <translation>移除所选文档</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/shortcuts.py" line="26" />
        <source>Add the new memory</source>
        <translation>添加新记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/shortcuts.py" line="27" />
        <source>Go to Chat</source>
        <translation>转到“聊天”</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/shortcuts.py" line="28" />
        <source>Go to Memories</source>
        <translation>转到“记忆”</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/shortcuts.py" line="29" />
        <source>Go to Documents</source>
        <translation>转到“文档”</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/shortcuts.py" line="30" />
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/shortcuts.py" line="31" />
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/shortcuts.py" line="32" />
        <source>Quit</source>
        <translation>退出</translation>
    </message>
</context>
<context>
    <name>sources</name>
    <message>
        <location filename="../../desktop_mem/ui/item_models.py" line="232" />
        <source>you</source>
        <translation>你</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/item_models.py" line="233" />
        <source>from a chat</source>
        <translation>来自聊天</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/item_models.py" line="234" />
        <source>import</source>
        <translation>导入</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/item_models.py" line="235" />
        <source>consolidation</source>
        <translation>整理</translation>
    </message>
</context>
<context>
    <name>spaces</name>
    <message>
        <location filename="../../desktop_mem/ui/spaces.py" line="27" />
        <source>Shared</source>
        <translation>共享</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/spaces.py" line="36" />
        <source>(a removed space)</source>
        <translation>（已删除的空间）</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/spaces.py" line="38" />
        <source>(a space still arriving)</source>
        <translation>（尚在同步中的空间）</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/spaces.py" line="74" />
        <source>All spaces</source>
        <translation>所有空间</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/spaces.py" line="80" />
        <source>Manage spaces…</source>
        <translation>管理空间…</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/spaces.py" line="98" />
        <source>Shared (every space sees it)</source>
        <translation>共享（所有空间可见）</translation>
    </message>
    <message>
        <location filename="../../desktop_mem/ui/spaces.py" line="122" />
        <source>Move to space</source>
        <translation>移到空间</translation>
    </message>
</context>
<context>
    <name>sync</name>
    <message>
        <location filename="../../desktop_mem/ui/sync_controller.py" line="55" />
        <source>this computer</source>
        <translation>这台电脑</translation>
    </message>
</context>
</TS>