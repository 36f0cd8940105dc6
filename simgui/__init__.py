"""simgui: find identical and similar files, and clean them up safely."""

__version__ = "0.1.0"
