"""One character sheet: its view-model (``viewmodel``) and the panels of its window."""
