"""The action models are built when first used (issue 15: start-up): ``rules.Action`` has
``defer_build``, so importing the rules and a system builds no action's validator, and an action checks
its fields as before the first time it is made."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CODE = """
import rules

def built():
    found, todo = [], [rules.Action]
    while todo:
        for sub in todo.pop().__subclasses__():
            todo.append(sub)
            if sub.__dict__.get("__pydantic_complete__"):
                found.append(sub.__name__)
    return sorted(found)

before = built()
death = rules.DeathSave  # the Douaratil system imported with its actions
after_system = built()
damage = rules.build_action(rules.Damage, amount="2d6+3", hits=2)
try:
    rules.build_action(rules.Heal, amount=1.5)
except rules.SheetError as error:
    refused = str(error)
else:
    refused = ""
print(before, after_system, built(), damage.amount, damage.hits, "décimales" in refused)
"""


def test_no_action_is_built_before_it_is_used_and_then_it_validates() -> None:
    done = subprocess.run([sys.executable, "-c", CODE], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[] [] ['Damage', 'Heal'] 2d6+3 2 True"
