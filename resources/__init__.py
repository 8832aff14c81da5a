"""Data shipped with sheet_app: rule tables (``rulesets/``) and demo sheets (``examples/``)."""
