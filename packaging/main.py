"""Entry point of the packaged application: pyside6-deploy (Nuitka) compiles this file.

With no command it opens the window; every command of `desktop-mem --help` works too,
including `self-test`, which the smoke test runs inside the bundle.
"""

import sys

from desktop_mem.cli import main

if __name__ == "__main__":
    sys.exit(main())
