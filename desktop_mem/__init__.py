"""desktop-mem: a local language model with a long-term memory the user controls."""

import logging

__version__ = "0.1.0"

# Until the app configures its log file (core/logs.py), records go nowhere: not to
# stderr through logging's last-resort handler, where they would double the one
# sentence an error gets.
logging.getLogger("desktop_mem").addHandler(logging.NullHandler())


def open(*args: object, **kwargs: object) -> object:
    """Open a profile's memory for a script: see desktop_mem.api (imported on use, so
    `import desktop_mem` stays instant)."""
    from desktop_mem.api import open as open_memory

    return open_memory(*args, **kwargs)  # type: ignore[arg-type]
