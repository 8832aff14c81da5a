"""Speed figures of sheet_app, each against a baseline measured in the same run: ``python -m bench``.

Sections (``python -m bench --only NAME``): ``startup`` (processes, against the floor script), ``edits``
(the real main window), ``apply`` (the rules, per system), ``save`` (a 1,000-NPC table's first save),
``table`` (the GM table of 1,000 creatures), ``printing``. See ``bench/__main__.py``.
"""
