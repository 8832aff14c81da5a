"""Make the GM table's pictures in ``docs/screenshots``: a dozen creatures in mixed states, seen by the
game master and by the players.

    .venv/bin/python -m sheet_app.tools.table_screenshots [DOSSIER]

Writes ``table-meneur.png`` (the main window, GM view), ``table-joueurs.png`` (the players' window on
a second screen) and ``table-vue-joueur.png`` (the main window switched to the players' view). Runs off
screen at 1280×800 with a seeded dice generator; settings go to a temporary folder, never the user's.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

from sheet_app.tools.screenshots import prepare

SIZE = (1400, 820)


def play(vm: Any) -> None:
    """An ambush at a ford, two rounds in: wolves from a template, named NPCs, the four demo PCs."""
    import rules
    from ui.table.viewmodel import BulkRequest

    vm.set_title("Embuscade au gué")
    wolf = rules.new_sheet("douaratil", name="Loup", is_npc=True, dies_at_zero=True, base_maximum=9, current=9)
    wolves = vm.add_creatures(wolf, 6, maximum="2d8+4")
    brann = vm.add_creatures(
        rules.new_sheet("douaratil", name="Brann le Rouge", is_npc=True, base_maximum=16, current=16)
    )[0]
    chief = vm.add_creatures(rules.demo_sheet("d20"), name="Chef bandit", npc=True)[0]
    pcs = [vm.add_creatures(rules.demo_sheet(s))[0] for s in rules.SYSTEMS]
    vm.roll_initiative([c.id for c in vm.creatures], "1d20+2")
    vm.next_turn()
    vm.bulk(wolves[:4], BulkRequest("damage", "2d6", factors={wolves[0]: "half", wolves[1]: "half"}))
    vm.bulk([wolves[5]], BulkRequest("damage", "30"))
    vm.bulk([brann], BulkRequest("damage", "16"))
    vm.bulk([wolves[2]], BulkRequest("condition_on", condition="a_terre"))
    vm.bulk([pcs[0]], BulkRequest("temporary", "5"))
    vm.bulk([chief], BulkRequest("damage", "9"))
    vm.set_note(chief, "fuit si Brann tombe")
    vm.set_note(wolves[3], "chef de meute")
    vm.next_turn()
    vm.next_turn()
    # A fireball on the pack, but not on the wolf whose turn it is.
    vm.bulk([w for w in wolves[:5] if w != vm.state.turn], BulkRequest("damage", "2d6"))


def shoot(folder: Path) -> list[Path]:
    app = prepare(folder)
    from sheet_app.main_window import MainWindow

    def settle() -> None:
        for _ in range(10):
            app.processEvents()

    window = MainWindow(rng=random.Random(2026))
    window.resize(*SIZE)
    window.show()
    window.set_gm_view(True)
    view = window.new_table()
    play(view.vm)
    view.select_ids([c.id for c in view.vm.creatures if c.name in ("Loup 1", "Loup 3")])
    view.vm.undo_stack.setClean()
    settle()
    written = []
    path = folder / "table-meneur.png"
    window.grab().save(str(path))
    written.append(path)
    players = view.show_player_window()
    players.resize(760, 560)
    settle()
    path = folder / "table-joueurs.png"
    players.grab().save(str(path))
    written.append(path)
    window.set_gm_view(False)
    settle()
    path = folder / "table-vue-joueur.png"
    window.grab().save(str(path))
    written.append(path)
    window.close()
    return written


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    folder = Path(args[0]) if args else Path(__file__).resolve().parents[2] / "docs" / "screenshots"
    for path in shoot(folder):
        print(f"écrit : {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
