"""`python -m desktop_mem`: the command line (and, with no command, the window)."""

from desktop_mem.cli import main

raise SystemExit(main())
