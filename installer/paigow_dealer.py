"""The station bundle's entry point: `paigow-dealer` (app/ui/main.py), arguments and all.

Everything a station run by systemd needs is in `app.ui.main.main`: the "main window
shown" line on stderr once the window is drawn, and a clean exit 0 on SIGTERM, SIGINT and
SIGHUP. PyInstaller builds the bundle from this file (installer/paigow-dealer.spec).
"""

import sys

from app.ui.main import main

if __name__ == "__main__":
    sys.exit(main())
