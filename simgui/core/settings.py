"""What the user chose, remembered between runs: folders, tolerances, search options.

A JSON file in the user config directory (``$SIMGUI_CONFIG`` overrides it), written
atomically; a missing or unreadable file gives the defaults, never an error, since
these are preferences, not data.  A saved *session* is the same document with the
store it refers to and the marked files.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from simgui.core.search.methods import DEFAULT_THRESHOLD
from simgui.core.search.simfind import (
    DEFAULT_KEY_TOLERANCE, DEFAULT_MIN_CONTENT, DEFAULT_MIN_SIMILAR_SIZE, DEFAULT_SIZE_FACTOR,
    DEFAULT_SUM_TOLERANCE,
)

ENV_CONFIG = "SIMGUI_CONFIG"


def default_settings_path() -> Path:
    override = os.environ.get(ENV_CONFIG)
    if override:
        return Path(override).expanduser()
    import platformdirs

    return platformdirs.user_config_path("simgui", appauthor=False) / "settings.json"


@dataclass
class Settings:
    folders: list[str] = field(default_factory=list)
    references: list[str] = field(default_factory=list)  # folders never acted on
    excludes: list[str] = field(default_factory=list)  # glob patterns of names to skip
    min_size: int = 0  # bytes; smaller files are not scanned
    # the user's choice: the lower ceiling a large collection needs (to fit in memory)
    # applies to that collection's analysis only and is never saved here
    key_tolerance: float = DEFAULT_KEY_TOLERANCE
    sum_tolerance: float = DEFAULT_SUM_TOLERANCE
    size_factor: float = DEFAULT_SIZE_FACTOR
    scheme: str = "skew"  # a name in keys.SCHEMES, or "custom"
    custom_weights: dict[str, float] = field(default_factory=dict)  # tag hex -> weight
    use_extensions: bool = True
    method: str = "paper"  # one of methods.METHODS
    simhash_bits: int = DEFAULT_THRESHOLD["simhash"]  # simhash: differing bits allowed
    minhash_resemblance: float = DEFAULT_THRESHOLD["minhash"]  # MinHash: smallest resemblance, %
    # paper's method: a pair that is not a copy is called similar only if the files have at
    # least min_content percent of their content in common (named anew: simgui 0.1 saved
    # "check_by_content", off, which must not carry over)
    content_check: bool = True
    min_content: float = DEFAULT_MIN_CONTENT
    # paper's method: fixed tolerances per extension, "ps=3.2,0.23; pdf=1,0.24"
    # (simfind.parse_overrides)
    overrides: str = ""
    min_similar_size: int = DEFAULT_MIN_SIMILAR_SIZE
    reference_rule: str = "oldest"  # see analysis.REFERENCE_RULES
    default_action: str = "trash"  # what Delete does to marked files: "trash" or "move"
    move_target: str = ""  # the folder "move" uses by default ("" asks)
    workers: int = 0  # reading threads; 0: one per core
    store: str | None = None  # None: the default store
    marked: list[str] = field(default_factory=list)  # sessions only
    window: dict[str, str] = field(default_factory=dict)  # opaque GUI state (geometry, ...)
    # the window's language, applied at the next start: "system" (follow the system's),
    # "en" or "de"; an unknown value counts as "system".  The command line stays English.
    language: str = "system"

    def to_json(self) -> str:
        return json.dumps(dataclasses.asdict(self), indent=1, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Settings:
        """Known keys of the right type are taken; anything else is ignored."""
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError("settings must be a JSON object")
        defaults = cls()
        values = {}
        for f in dataclasses.fields(cls):
            if f.name not in data:
                continue
            value, default = data[f.name], getattr(defaults, f.name)
            if isinstance(default, float) and isinstance(value, int):
                value = float(value)
            if isinstance(value, float) and not math.isfinite(value):
                continue  # JSON allows NaN and Infinity; no setting does
            if default is None or isinstance(value, type(default)) and not (
                    isinstance(value, bool) and not isinstance(default, bool)):
                values[f.name] = value
        return cls(**values)


def load_settings(path: str | os.PathLike | None = None) -> Settings:
    path = Path(path) if path is not None else default_settings_path()
    try:
        return Settings.from_json(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, TypeError):
        return Settings()


def save_settings(settings: Settings, path: str | os.PathLike | None = None) -> None:
    """Write atomically: a crash leaves the old file or the new one, never half of one."""
    path = Path(path) if path is not None else default_settings_path()
    if path.exists() and not path.is_file():
        # a device (/dev/null) or a folder: replacing it would be a disaster, not a save
        raise OSError(f"{path} is not a regular file; settings not saved there")
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=".settings-", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(settings.to_json())
            f.flush()
            os.fsync(f.fileno())
        os.replace(temp, path)
    except BaseException:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise
