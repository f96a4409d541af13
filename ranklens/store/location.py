"""Where the default SQLite store lives on disk."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

STORE_PATH_ENV = "RANKLENS_STORE"
STORE_FILENAME = "reports.sqlite3"


def default_store_path(environ: Mapping[str, str] | None = None) -> Path:
    """The store file: ``$RANKLENS_STORE`` if set, else under the user's data directory.

    The data directory is ``$XDG_DATA_HOME`` when it is an absolute path (the XDG spec says to
    ignore relative ones), ``%LOCALAPPDATA%`` on Windows, else ``~/.local/share``. Answers only
    the path; it creates nothing.
    """
    env = os.environ if environ is None else environ
    explicit = env.get(STORE_PATH_ENV, "").strip()
    if explicit:
        return Path(explicit).expanduser()
    xdg = env.get("XDG_DATA_HOME", "")
    if xdg and Path(xdg).is_absolute():
        base = Path(xdg)
    elif os.name == "nt" and env.get("LOCALAPPDATA"):
        base = Path(env["LOCALAPPDATA"])
    else:
        base = Path.home() / ".local" / "share"
    return base / "ranklens" / STORE_FILENAME
