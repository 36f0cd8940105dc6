"""Where simgui writes its log: the user log directory (``$SIMGUI_LOG_DIR`` overrides it).

One rotating file, so a long-running desktop session never fills a disk; a log
that cannot be written is not an error (the app works without it).
"""

from __future__ import annotations

import logging
import logging.handlers
import os
from pathlib import Path

ENV_LOG_DIR = "SIMGUI_LOG_DIR"
_FORMAT = "%(asctime)s %(levelname)s %(name)s [%(threadName)s] %(message)s"


def log_path() -> Path:
    override = os.environ.get(ENV_LOG_DIR)
    if override:
        return Path(override).expanduser() / "simgui.log"
    import platformdirs

    return platformdirs.user_log_path("simgui", appauthor=False) / "simgui.log"


def setup_logging(level: int = logging.INFO) -> Path | None:
    """Send the ``simgui`` loggers to the log file; returns its path, or None if unwritable."""
    path = log_path()
    logger = logging.getLogger("simgui")
    logger.setLevel(level)
    if any(getattr(h, "simgui_file", None) == str(path) for h in logger.handlers):
        return path
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # a file name that is not UTF-8 is logged as its escaped bytes, not dropped
        handler = logging.handlers.RotatingFileHandler(path, maxBytes=2 << 20, backupCount=3,
                                                       encoding="utf-8",
                                                       errors="backslashreplace")
    except OSError:
        return None
    handler.setFormatter(logging.Formatter(_FORMAT))
    handler.simgui_file = str(path)
    logger.addHandler(handler)
    return path
