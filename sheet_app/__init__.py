"""sheet_app: the desktop program (command line, settings, windows)."""

__version__ = "0.1.0"
