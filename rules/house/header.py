"""The header of a GM's house-rule file (``[house]``: its title, its system), read by
``rules.house.parse_house_rules``.

Apart from the package's ``__init__`` (issue 15): its two model classes, and the validator its field's default
instance builds, were made by every start (~2.4 M instructions) for a file only a GM's house rules have.
"""

from pydantic import Field

from rules.house import MAX_TITLE
from rules.ruleset import Table


class HouseHeader(Table):
    title: str = Field("", max_length=MAX_TITLE)
    """Le nom de ces règles maison, que la fiche montre en en-tête (« Règles maison : … »)."""
    system: str = ""
    """Le système de ces règles (ne pas le changer)."""


class _HouseFile(Table):
    house: HouseHeader = HouseHeader()
