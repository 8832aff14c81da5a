"""Printing: a sheet as it stands, a blank sheet of a system, a GM table, on paper or as PDF.

``layout`` builds the printed content (``blocks``) from the rules facade and a document; ``render``
paints it with QPainter on a ``QPdfWriter`` or a ``QPrinter``; ``dialogs`` holds the questions the
print commands ask (so tests replace them).
"""
