"""The Simplified Chinese translation of desktop-mem's interface.

`python resources/translations/zh_CN.py` refreshes desktop_mem_zh_CN.ts from the
sources (pyside6-lupdate), fills in these translations, and compiles the .qm
(pyside6-lrelease). tests/ui/test_translations.py fails if a string shown in the
interface has no translation here.
"""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
TS = HERE / "desktop_mem_zh_CN.ts"
QM = ROOT / "desktop_mem" / "resources" / "translations" / "desktop_mem_zh_CN.qm"  # ships

ZH: dict[str, str | list[str]] = {
    " (expired)": "（已过期）",
    " tokens": " 个词元",
    "%n already known, skipped.": ["已有 %n 条，已跳过。"],
    "%n match(es)": ["%n 条匹配"],
    "%n memory(s)": ["%n 条记忆"],
    "%n message(s), last %1": ["%n 条消息，最近 %1"],
    "&Chat": "聊天(&C)",
    "&Help": "帮助(&H)",
    "&Memories": "记忆(&M)",
    "(deleted)": "（已删除）",
    "(empty answer)": "（空回答）",
    "(unchanged)": "（不变）",
    "+%1 more": "还有 %1 条",
    ", until %1": "，有效至 %1",
    ", from message %1": "，来自消息 %1",
    "A chat that reads and writes no memory and is not stored": "不读取、不写入记忆，也不保存的对话",
    "API key": "API 密钥",
    "About desktop-mem": "关于 desktop-mem",
    "Action": "操作",
    "Add": "添加",
    "Add the text above as a new memory": "把上面的文字添加为新记忆",
    "Again": "再输一次",
    "All kinds": "所有类型",
    "Answers it shaped": "用到它的回答",
    "Any date": "任何日期",
    "Assistant": "助手",
    "Came from": "来源",
    "Cancel": "取消",
    "Cannot open your memories": "无法打开你的记忆",
    "Delete all conversations and memories…": "删除所有对话和记忆…",
    "Delete everything": "全部删除",
    "This deletes all %1 conversations and all %2 memories of this profile for good. The settings and the key stay.": "这会永久删除此配置的全部 %1 个对话和全部 %2 条记忆。设置和密钥会保留。",
    "DELETE": "删除",
    "Deleting everything…": "正在全部删除…",
    "Change passphrase…": "更改口令…",
    "Change the key": "更换密钥",
    "Choose a new passphrase for the profile “%1”. Everything is re-encrypted with it; without it nobody, including you, can read your memories. There is no way to recover it.": "为配置“%1”选择一个新口令。所有内容都会用它重新加密；没有它，任何人（包括你自己）都无法读取你的记忆，而且无法找回。",
    "Encrypted with your passphrase.": "已用你的口令加密。",
    "Encrypted; the key is kept in the system keyring.": "已加密；密钥保存在系统钥匙环中。",
    "Encryption": "加密",
    "Keep the key in the system keyring instead": "改为把密钥保存在系统钥匙环中",
    "Re-encrypting your memories…": "正在重新加密你的记忆…",
    "Re-encrypts everything with a new key; the old one stops working.": "用新密钥重新加密所有内容；旧密钥随即失效。",
    "Replace the key": "更换密钥",
    "The key was not changed": "密钥没有更改",
    "Use a passphrase instead…": "改用口令…",
    "Wait for the answer to finish, then change the key.": "请等回答结束后再更换密钥。",
    "Your memories were re-encrypted; the old key no longer opens them.": "你的记忆已重新加密；旧密钥已无法打开它们。",
    "Changing it re-indexes every memory with the new model (with progress).": "更换后会用新模型重新索引所有记忆（显示进度）。",
    "Chat model": "聊天模型",
    "Connecting to Ollama…": "正在连接 Ollama…",
    "Consolidate now": "立即整理",
    "Consolidating memories…": "正在整理记忆…",
    "Consolidation: %n change(s).": ["整理完成：%n 处更改。"],
    "Context budget": "上下文预算",
    "Copy": "复制",
    "Copy this message": "复制这条消息",
    "Created": "创建时间",
    "Created on or after": "创建于此日期或之后",
    "Dark": "深色",
    "Data folder": "数据文件夹",
    "Delete %n memory(s) for good, with their history?": ["永久删除 %n 条记忆及其历史？"],
    "Delete conversation": "删除对话",
    "Delete memories": "删除记忆",
    "Delete these memories for good?": "永久删除这些记忆？",
    "Delete this conversation for good? Memories learned from it stay.": "永久删除这个对话？从中学到的记忆会保留。",
    "Deleted %n memory(s).": ["已删除 %n 条记忆。"],
    "Delete…": "删除…",
    "Deleting…": "正在删除…",
    "Download failed": "下载失败",
    "Downloading %1": "正在下载 %1",
    "Downloading…": "正在下载…",
    "Edit last message": "编辑上一条消息",
    "Edit the last message": "编辑上一条消息",
    "Embedding model": "嵌入模型",
    "Export conversation": "导出对话",
    "Export memories": "导出记忆",
    "Exported %n memory(s) to %1. That file is not encrypted.": [
        "已导出 %n 条记忆到 %1。该文件未加密。"
    ],
    "Exporting…": "正在导出…",
    "Export…": "导出…",
    "FORGET": "全部忘记",
    "Forget everything": "忘记一切",
    "Forget everything…": "忘记一切…",
    "Forget these memories?": "忘记这些记忆？",
    "Forgetting everything…": "正在忘记一切…",
    "Go to the message box": "转到输入框",
    "History": "历史",
    "Import memories": "导入记忆",
    "Importance": "重要性",
    "Imported %n memory(s).": ["已导入 %n 条记忆。"],
    "Importing…": "正在导入…",
    "Import…": "导入…",
    "Incognito": "无痕",
    "Incognito conversation": "无痕对话",
    "Incognito: nothing is remembered or stored": "无痕模式：不记忆，也不保存",
    "JSON (*.json);;Markdown (*.md)": "JSON (*.json);;Markdown (*.md)",
    "Keyboard shortcuts": "键盘快捷键",
    "Keys": "按键",
    "Kind": "类型",
    "Language": "语言",
    "Learn automatically": "自动学习",
    "Learn memories from my chats automatically": "自动从我的聊天中学习记忆",
    "Learning from this exchange…": "正在从这轮对话中学习…",
    "Light": "浅色",
    "Markdown (*.md);;JSON (*.json)": "Markdown (*.md);;JSON (*.json)",
    "Marked as no longer true": "已标记为不再成立",
    "Memories (*.json *.md *.markdown *.txt *.csv);;All files (*)": "记忆文件 (*.json *.md *.markdown *.txt *.csv);;所有文件 (*)",
    "Memories used:": "用到的记忆：",
    "%n of them will no longer quote what was said in it.": [
        "其中 %n 条记忆将不再引用这个对话中的内容。"
    ],
    "Give the model my relevant memories and earlier messages": "把相关的记忆和之前的消息提供给模型",
    "Tidy my memories while the app is idle (every change can be undone)": "在应用空闲时整理我的记忆（每项更改都可撤销）",
    "While you were away, %n memory(s) were tidied (merged or marked out of date); each memory's History can undo it.": [
        "你不在的时候，整理了 %n 条记忆（合并或标记为过期）；可在每条记忆的历史中撤销。"
    ],
    "Weak matches too": "也显示弱匹配",
    "List every memory ranked by the search, not only the relevant ones": "按搜索排序列出所有记忆，而不只是相关的",
    "No matches": "没有匹配",
    "Earlier messages:": "之前的消息：",
    "%1, in another conversation:": "%1，在另一个对话中：",
    "Memory": "记忆",
    "Memory: incognito": "记忆：无痕",
    "Memory: off (commands only)": "记忆：关闭（仅指令）",
    "Memory: on": "记忆：开启",
    "Merged": "已合并",
    "Message (Enter to send, Shift+Enter for a new line)": "输入消息（Enter 发送，Shift+Enter 换行）",
    "Model not installed": "模型未安装",
    "Messages will leave this computer": "消息将离开这台电脑",
    "New chat": "新对话",
    "New conversation": "新对话",
    "New incognito conversation": "新的无痕对话",
    "New line in the message": "在消息中换行",
    "No answer has used it yet.": "还没有回答用到它。",
    "No system keyring is available, so your conversations and memories in the profile “%1” are protected by a passphrase. Everything is encrypted with it; without it nobody, including you, can read them. There is no way to recover it.": "系统钥匙环不可用，因此配置“%1”中的对话和记忆由口令保护。所有内容都用它加密；没有它，任何人（包括你）都无法读取。口令无法找回。",
    "Nothing was imported": "没有导入任何内容",
    "Ollama address": "Ollama 地址",
    "Ollama is not running": "Ollama 没有运行",
    "Open folder": "打开文件夹",
    "Other server": "其他服务器",
    "Passphrase": "口令",
    "Pin": "置顶",
    "Pinned": "置顶",
    "Pinned only": "仅置顶",
    "Protect your memories": "保护你的记忆",
    "Quit": "退出",
    "Re-index memories?": "重新索引记忆？",
    "Re-indexed %n memory(s).": ["已重新索引 %n 条记忆。"],
    "Re-indexing memories…": "正在重新索引记忆…",
    "Regenerate": "重新生成",
    "Regenerate the last answer": "重新生成上一个回答",
    "Remembered": "已记住",
    "Rename": "重命名",
    "Rename…": "重命名…",
    "Restore this version": "恢复此版本",
    "Retry": "重试",
    "Save": "保存",
    "Saving the memory…": "正在保存记忆…",
    "Say hello. What you tell me stays on this computer, encrypted.": "打个招呼吧。你告诉我的一切都加密保存在这台电脑上。",
    "Search by meaning needs every memory re-indexed with %1. Do it now? Until it finishes, the old index keeps working.": "按语义搜索需要用 %1 重新索引所有记忆。现在开始吗？完成之前，旧索引仍然可用。",
    "Search conversations": "搜索对话",
    "Search memories": "搜索记忆",
    "Search memories (meaning and words, 中文 or English)": "搜索记忆（语义和关键词，中文或英文）",
    "Send": "发送",
    "Send the message": "发送消息",
    "Server URL": "服务器地址",
    "Server model": "服务器模型",
    "Settings": "设置",
    "Settings…": "设置…",
    "Show memory browser": "显示记忆浏览器",
    "Show or hide the memory browser": "显示或隐藏记忆浏览器",
    "Source": "来源",
    "Starting…": "正在开始…",
    "Stop": "停止",
    "Stop the answer": "停止回答",
    "Stopped.": "已停止。",
    "System": "跟随系统",
    "Text": "内容",
    "That passphrase is not right. Nothing was changed; try again.": "口令不正确。没有做任何更改，请重试。",
    "The answer failed.": "回答失败。",
    "The chat model %1 is not installed in Ollama. Download it now?": "Ollama 中没有安装聊天模型 %1。现在下载吗？",
    "The two passphrases differ: type the same one twice.": "两次输入的口令不同，请输入相同的口令。",
    "Theme": "主题",
    "They shaped %n answer(s).": ["它们影响过 %n 个回答。"],
    "This deletes all %n memory(s) of this profile for good. Conversations stay.": [
        "这会永久删除此配置的全部 %n 条记忆。对话会保留。"
    ],
    "Title": "标题",
    "Type %1 to confirm.": "输入 %1 以确认。",
    "Type the passphrase.": "请输入口令。",
    "Undo": "撤销",
    "Undone.": "已撤销。",
    "Undoing…": "正在撤销…",
    "Unlock your memories": "解锁你的记忆",
    "Unpin": "取消置顶",
    "Updated": "已更新",
    "Use an OpenAI-compatible server instead of Ollama": "使用兼容 OpenAI 的服务器代替 Ollama",
    "Use at least %1 characters.": "至少使用 %1 个字符。",
    "With another server on, your messages and the memories retrieved for them are sent to that server. If it is not this computer, they leave your machine.": "启用其他服务器后，你的消息和为其检索到的记忆会发送到该服务器。如果它不是这台电脑，这些内容会离开你的机器。",
    "The model server stopped answering in the middle of the reply: the partial answer is kept; check that it is running and retry.": "模型服务器在回答中途停止了响应：已保留部分回答；请确认它仍在运行后重试。",
    "The model server did not answer in time: check that it is not overloaded and try again.": "模型服务器没有及时响应：请确认它没有过载后重试。",
    "Ollama is not reachable: start it (open the Ollama app, or run “ollama serve”) and try again.": "无法连接 Ollama：请启动它（打开 Ollama 应用，或运行“ollama serve”）后重试。",
    "The model %1 is not installed: download it (Settings, or “ollama pull %1”) and try again.": "模型 %1 未安装：请下载（在设置中，或运行“ollama pull %1”）后重试。",
    "The model failed in the middle of the reply: the partial answer is kept; retry.": "模型在回答中途出错：已保留部分回答，请重试。",
    "The model server reported an error: try again, or check its log.": "模型服务器报告了错误：请重试，或查看它的日志。",
    "The system keyring cannot be used or does not hold the key: unlock it and try again.": "无法使用系统钥匙环，或其中没有密钥：请解锁后重试。",
    "Another desktop-mem is writing to this profile: wait for it to finish and try again.": "另一个 desktop-mem 正在写入此配置：请等待它完成后重试。",
    "The database is damaged: restore it from a backup or an export.": "数据库已损坏：请从备份或导出文件恢复。",
    "Nothing was imported: %n line(s) have problems (see the details).": [
        "没有导入任何内容：%n 行有问题（见详细信息）。"
    ],
    "Your memories are indexed with another embedding model: re-index them (Settings) or go back to it.": "你的记忆是用另一个嵌入模型索引的：请重新索引（在设置中），或换回那个模型。",
    "The disk is full: nothing was changed; free some space and try again.": "磁盘已满：没有做任何更改；请释放空间后重试。",
    "You": "你",
    "Your conversations and memories in the profile “%1” are encrypted. Enter the passphrase to open them.": "配置“%1”中的对话和记忆已加密。请输入口令打开。",
    "consolidation": "整理",
    "desktop-mem": "desktop-mem",
    "desktop-mem %1\nA local language model with a long-term memory you can see and control. Your conversations and memories are encrypted on this computer.": "desktop-mem %1\n一个拥有长期记忆的本地语言模型，记忆由你查看和掌控。你的对话和记忆都加密保存在这台电脑上。",
    "desktop-mem talks to a language model through Ollama, on this computer.\nInstall it from ollama.com, then start it: open the Ollama app, or run “ollama serve” in a terminal. Your memories are safe meanwhile and can still be browsed and searched by keywords.": "desktop-mem 通过这台电脑上的 Ollama 与语言模型对话。\n请从 ollama.com 安装，然后启动它：打开 Ollama 应用，或在终端运行“ollama serve”。在此期间你的记忆安然无恙，仍可浏览并按关键词搜索。",
    "event": "事件",
    "fact": "事实",
    "from a chat": "来自聊天",
    "import": "导入",
    "line %1: %2": "第 %1 行：%2",
    "none": "无",
    "note": "笔记",
    "person": "人物",
    "plan": "计划",
    "preference": "偏好",
    "you": "你",
    "…": "…",
    "○ Ollama not connected": "○ 未连接 Ollama",
    "● Connected · %1": "● 已连接 · %1",
    "A backup is already running.": "已有一个备份正在进行。",
    "A backup is encrypted like your memories. Put the folder in Syncthing, Dropbox or iCloud Drive to carry your memories to another computer: only encrypted data is synced.": "备份和你的记忆一样是加密的。把备份文件夹放进 Syncthing、Dropbox 或 iCloud 云盘，就能把记忆带到另一台电脑：同步的只有加密数据。",
    "A recovery code has 24 letters and digits in six groups: check it.": "恢复码由六组共 24 个字母和数字组成：请核对。",
    "Appearance": "外观",
    "Back up every day": "每天备份",
    "Back up now": "立即备份",
    "Backed up to %1": "已备份到 %1",
    "Backing up…": "正在备份…",
    "Backup": "备份",
    "Backup folder": "备份文件夹",
    "Backups to keep": "保留的备份数",
    "Choose a folder for the backups first.": "请先选择备份文件夹。",
    "Choose…": "选择…",
    "Continue": "继续",
    "I have written it down or stored it safely": "我已抄下或妥善保存",
    "Last backup: %1": "上次备份：%1",
    "Make a new recovery code? The old one will no longer open this profile or its new backups (backups made before still open with the old one).": "要生成新的恢复码吗？旧的恢复码将无法再打开此配置及其新备份（之前的备份仍可用旧恢复码打开）。",
    "Makes a new code and shows it once; the old one stops opening this profile.": "生成新的恢复码并只显示一次；旧的恢复码将不再能打开此配置。",
    "Model": "模型",
    "New recovery code": "新的恢复码",
    "New recovery code…": "新的恢复码…",
    "No backup yet.": "还没有备份。",
    "No folder chosen": "未选择文件夹",
    "Privacy": "隐私",
    "Recovery code": "恢复码",
    "Replace the memories and conversations of the profile “%1” with the backup's? What the profile holds now is deleted.": "用备份替换配置“%1”的记忆和对话吗？配置中现有的内容将被删除。",
    "Restore a backup": "恢复备份",
    "Restore a backup…": "恢复备份…",
    "That recovery code does not open this backup: check it and try again.": "这个恢复码打不开此备份：请核对后重试。",
    "That recovery code does not open this profile: check it and try again.": "这个恢复码打不开此配置：请核对后重试。",
    "The backup failed: %1": "备份失败：%1",
    "The backup was restored.": "备份已恢复。",
    "The key of the profile “%1” is not in this computer's keyring (it was reset, or this is a new computer). Enter the recovery code you wrote down when the profile was made, or restore a backup.": "配置“%1”的密钥不在这台电脑的钥匙环中（钥匙环被重置，或这是一台新电脑）。请输入创建配置时抄下的恢复码，或恢复一个备份。",
    "The key of this backup is not in this computer's keyring. Enter the recovery code of the profile it was made from.": "此备份的密钥不在这台电脑的钥匙环中。请输入生成该备份的配置的恢复码。",
    "This backup is protected by the passphrase of the profile it was made from. Enter it to restore the backup.": "此备份受其原配置的口令保护。请输入该口令以恢复备份。",
    "Unlock": "解锁",
    "Write it down and keep it somewhere safe, away from this computer. It is shown only this once; anyone with it and a backup can read your memories.": "请抄下来，存放在远离这台电脑的安全地方。它只显示这一次；任何人拿到它和一份备份，就能读取你的记忆。",
    "Your memories are locked": "你的记忆已锁定",
    "Your memories in the profile “%1” are encrypted with a key kept in this computer's keyring. If the keyring is ever lost (a reinstalled system, a new computer), this code is the only way to open them and their backups.": "配置“%1”中的记忆用保存在这台电脑钥匙环中的密钥加密。如果钥匙环丢失（重装系统、换新电脑），这个恢复码是打开记忆及其备份的唯一方法。",
    "Your recovery code": "你的恢复码",
    "desktop-mem backups (*.dmbackup)": "desktop-mem 备份 (*.dmbackup)",
    "Forget": "忘记",
    "Tick what to delete for good. Nothing else is touched.": "勾选要永久删除的内容，其他内容不受影响。",
    "Memories": "记忆",
    "(pinned)": "（已置顶）",
    "Earlier messages that mention it": "提到它的以前的消息",
    "Delete selected": "删除所选",
    "Deleted %n memory(s)": ["已删除 %n 条记忆"],
    " and %n message(s).": ["和 %n 条消息。"],
    "Nothing was deleted.": "没有删除任何内容。",
    "The model server is not reachable: check its address in Settings and your connection.": "无法连接模型服务器：请在设置中检查其地址和你的网络连接。",
    "That memory no longer exists: it was deleted. Nothing was changed.": "这条记忆已不存在：它已被删除。没有做任何更改。",
    "That conversation no longer exists: it was deleted.": "这个对话已不存在：它已被删除。",
    "That version of the memory no longer exists. Nothing was changed.": "这条记忆的该版本已不存在。没有做任何更改。",
    "The OpenAI-compatible server is on but its URL or model is not set: fill them in Settings, or turn it off there.": "已开启 OpenAI 兼容服务器，但未设置其地址或模型：请在设置中填写，或在那里关闭它。",
    "No embedding model is chosen: choose one in Settings.": "尚未选择嵌入模型：请在设置中选择。",
    "created": "创建",
    "edited": "编辑",
    "updated": "更新",
    "restored": "恢复",
    "pinned": "置顶",
    "unpinned": "取消置顶",
    "marked no longer true": "标记为不再成立",
    "merged into #%1": "并入 #%1",
    "contradicted by #%1": "被 #%1 否定",
    "Incognito: nothing you say here is remembered or stored, and no memory is used. Closing it leaves no trace.": "无痕模式：你在这里说的话不会被记住或保存，也不会使用任何记忆。关闭后不留痕迹。",
    "At least %1 characters. Write it down: it cannot be recovered.": "至少 %1 个字符。请抄下来：它无法找回。",
    "Chat": "聊天",
    "Show memories": "显示记忆",
    "Paused": "已暂停",
    "Read": "只读",
    "Read and write": "读写",
    "Read, write and delete": "读写和删除",
    "searched": "搜索",
    "listed": "列出",
    "read the pinned memories": "读取置顶记忆",
    "wrote": "写入",
    "deleted": "删除",
    "refused: %1": "已拒绝：%1",
    "AI apps on this computer (Claude Desktop, Cursor, VS Code, LM Studio…) can use your memory over MCP. Each may only do what you choose here; a change applies at once.": "这台电脑上的 AI 应用（Claude Desktop、Cursor、VS Code、LM Studio…）可以通过 MCP 使用你的记忆。每个应用只能做你在这里允许的事；更改立即生效。",
    "App": "应用",
    "May": "权限",
    "Last use": "上次使用",
    "Reads / writes": "读取 / 写入",
    "No app has connected yet.": "还没有应用连接过。",
    "A new app may": "新应用的权限",
    "Clear this app's log": "清除此应用的记录",
    " memory %1": " 记忆 %1",
    "Nothing recorded.": "没有记录。",
    "Connect an app: paste this into its MCP configuration": "连接应用：把下面的内容粘贴到它的 MCP 配置中",
    "Apps": "应用",
    "Used by other apps: %1": "被其他应用使用：%1",
    "That app has not connected to desktop-mem yet.": "这个应用还没有连接过 desktop-mem。",
    "That app is not allowed to do this: change it in Settings > Apps.": "这个应用无权这样做：请在“设置 > 应用”中更改。",
    "A profile protected by a passphrase cannot be served to other apps: keep its key in the system keyring (Settings > Privacy).": "受口令保护的配置不能提供给其他应用：请把密钥保存在系统钥匙环中（设置 > 隐私）。",
    "Documents:": "文档：",
    "That document is no longer in desktop-mem: it was removed.": "这个文档已不在 desktop-mem 中：它已被移除。",
    "That file was not added: desktop-mem reads Markdown, text, PDF, Word and HTML files that are not damaged, encrypted or too large.": "这个文件没有添加：desktop-mem 读取未损坏、未加密且不过大的 Markdown、文本、PDF、Word 和 HTML 文件。",
}


def sources(ts: Path = TS) -> list[tuple[str, bool]]:
    """(source text, numerus) of every message in the .ts file."""
    root = ET.parse(ts).getroot()
    return [(m.findtext("source") or "", m.get("numerus") == "yes") for m in root.iter("message")]


def fill(ts: Path = TS) -> list[str]:
    """Write the translations into the .ts; returns the sources still untranslated."""
    tree = ET.parse(ts)
    missing = []
    for m in tree.getroot().iter("message"):
        src = m.findtext("source") or ""
        tr = m.find("translation")
        if tr is None:
            tr = ET.SubElement(m, "translation")
        value = ZH.get(src)
        if value is None:
            missing.append(src)
            continue
        tr.attrib.pop("type", None)
        for child in list(tr):
            tr.remove(child)
        if m.get("numerus") == "yes":
            tr.text = None
            for form in value if isinstance(value, list) else [value]:
                ET.SubElement(tr, "numerusform").text = form
        else:
            tr.text = value if isinstance(value, str) else value[0]
    tree.write(ts, encoding="utf-8", xml_declaration=True)
    return missing


def main() -> int:
    bin_dir = Path(sys.executable).parent
    ui = sorted(str(p) for p in (ROOT / "desktop_mem" / "ui").glob("*.py"))
    subprocess.run(
        [str(bin_dir / "pyside6-lupdate"), *ui, "-no-obsolete", "-ts", str(TS)], check=True
    )
    missing = fill()
    subprocess.run([str(bin_dir / "pyside6-lrelease"), str(TS), "-qm", str(QM)], check=True)
    for src in missing:
        print(f"untranslated: {src!r}", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    raise SystemExit(main())
