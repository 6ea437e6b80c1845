"""numpy, loaded on first use.

numpy costs about a tenth of a second to import, and a command such as `memory list`
or `memory delete` never computes with a vector. Modules write::

    if TYPE_CHECKING:
        import numpy as np
    else:
        from desktop_mem.core.lazy import numpy as np

and the real import happens at the first attribute used (``np.float32``), in whatever
thread gets there first (the import lock makes that safe). Type checkers see numpy.
"""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType


def _lazy(name: str) -> ModuleType:
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        raise ImportError(f"No module named {name!r}")
    loader = importlib.util.LazyLoader(spec.loader)
    spec.loader = loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    loader.exec_module(module)
    return module


numpy = _lazy("numpy")
