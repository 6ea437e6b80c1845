"""The `ollama` package, imported on first use.

Importing it costs about a quarter of a second (httpx, pydantic, its types), which a
command that never talks to the model server should not pay. And it builds a default
client from the environment at import time, so an ``ALL_PROXY=socks5://…`` there made
every command fail: it is imported with the proxy variables set aside. The app's own
clients never use a proxy (``trust_env=False``): text goes only to the configured
server.
"""

from __future__ import annotations

import os
import threading
from types import ModuleType

_lock = threading.Lock()
_module: ModuleType | None = None


def load() -> ModuleType:
    global _module
    if _module is not None:
        return _module
    with _lock:
        if _module is None:
            names = [
                n for n in os.environ if n.lower() in ("all_proxy", "http_proxy", "https_proxy")
            ]
            saved = {n: os.environ.pop(n) for n in names}
            try:
                import ollama

                _module = ollama
            finally:
                os.environ.update(saved)
    return _module
