"""Chatting with memory: conversations, the read path (context), the write path (extraction, commands, sleep-time consolidation) and the session that runs a turn."""
