"""desktop-mem: a local language model with a long-term memory the user controls."""

import logging

__version__ = "0.1.0"

# Until the app configures its log file (core/logs.py), records go nowhere: not to
# stderr through logging's last-resort handler, where they would double the one
# sentence an error gets.
logging.getLogger("desktop_mem").addHandler(logging.NullHandler())


def _import_ollama() -> None:
    """`import ollama` builds a default client from the environment at import time, and
    an ALL_PROXY=socks5://... there made every command fail, --version included. The
    app never uses that client (its own ignore proxies: messages go only to the
    configured server), so it is imported with the proxy variables set aside."""
    import os

    names = [n for n in os.environ if n.lower() in ("all_proxy", "http_proxy", "https_proxy")]
    saved = {n: os.environ.pop(n) for n in names}
    try:
        import ollama  # noqa: F401
    except ImportError:
        pass
    finally:
        os.environ.update(saved)


_import_ollama()
