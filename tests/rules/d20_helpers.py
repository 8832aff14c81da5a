"""What the d20 speed tests (sessions 5 and 6) build their sheets and house tables with."""

import random
from typing import Any

import rules

RS = rules.system("d20").ruleset()
# ``derive.SETTLED`` forgotten: no sheet settled yet (figures, Constitution, death reason, death PV, state…).
FORGOTTEN = (None, None, "", 0, None, 0, 0, False)


def d20_sheet(**fields: Any) -> Any:
    return rules.new_sheet("d20", name="Brenna", **fields)


def apply_d20(sheet: Any, action: Any, table: Any = None) -> Any:
    return rules.apply(sheet, action, random.Random(1), table)


def house(section: str, **fields: Any) -> Any:
    """The shipped d20 table with ``fields`` of its ``section`` changed."""
    return RS.model_copy(update={section: getattr(RS, section).model_copy(update=fields)})
