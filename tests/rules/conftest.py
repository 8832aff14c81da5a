"""Rules tests never import Qt: they also run with PySide6 made unimportable (test_no_qt.py)."""
