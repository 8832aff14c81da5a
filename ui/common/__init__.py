"""Pieces both documents use: the sheet window and the GM table (health bar, messages, prompts, texts…)."""

import os

# Qt's raster engine hands every fill of 96 lines or more (a scroll bar, a column's background, the journal)
# to a pool of threads and waits for them: on a loaded machine the hand-off costs more than the fill (a
# 700-pixel scroll bar painted in 1.6 ms instead of 0.4 ms, the same pixels; issue 15). Qt reads this once,
# when it first fills that much: every window of the app is made after this package is imported. A value
# the user set is kept.
os.environ.setdefault("QT_NO_GUI_THREADPOOL", "1")
