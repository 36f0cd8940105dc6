from simgui.cli import main

raise SystemExit(main())
