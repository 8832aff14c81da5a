"""Qt view-models and widgets. Widgets compute no rule: everything goes through the ``rules`` facade."""
