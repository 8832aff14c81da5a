"""The game master's table: many sheets in one document (model, view-model, widgets)."""
