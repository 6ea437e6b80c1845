"""numpy, loaded on first use.

numpy costs about a tenth of a second to import, and a command such as `memory list`
or `memory delete` never computes with a vector. Modules write::

    if TYPE_CHECKING:
        import numpy as np
    else:
        from desktop_mem.core.lazy import numpy as np

and the real import happens at the first attribute used (``np.float32``), in whatever
thread gets there first. Type checkers see numpy.

Not importlib's LazyLoader: on Python 3.11 a second thread asking for an attribute
while the first is still importing sees the module half filled ("module 'numpy' has
no attribute 'asarray'": the MCP server's first search beside its background
preparation hit it). Here the real import is an ordinary import, under the import
lock, and the stand-in only copies the finished module's names.
"""

from __future__ import annotations

import importlib
import threading
from types import ModuleType
from typing import Any


class _Later(ModuleType):
    """Stands in for a module until an attribute is asked for, then imports it."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self._lock = threading.Lock()

    def __getattr__(self, attr: str) -> Any:
        # Only called for names not yet copied: the first use, or a name the module lacks.
        with self._lock:
            real = importlib.import_module(self.__name__)
            self.__dict__.update(real.__dict__)
        return getattr(real, attr)


numpy = _Later("numpy")
