from desktop_mem.cli import main

raise SystemExit(main())
