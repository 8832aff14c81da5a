"""Pieces both documents use: the sheet window and the GM table (health bar, messages, prompts, texts…)."""
