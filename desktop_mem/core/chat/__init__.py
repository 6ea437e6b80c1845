"""Chatting with memory: conversations, the read path, the write path (extraction,
commands, forgetting, sleep-time consolidation) and the session that runs a turn."""
