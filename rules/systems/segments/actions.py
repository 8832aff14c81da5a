"""Segments-specific actions (fatigue, standing up, surprise, harm from the world)."""

from typing import Literal

from pydantic import Field

from rules.actions import Action
from rules.model import plural
from rules.systems.segments.sheet import _metres
from rules.systems.segments.table import Need


class SetFatigue(Action):
    """The fatigue ladder: 0 none, 1 Fatigué, 2 Épuisé, 3 Vacillant (lowering it is a GM's correction)."""

    kind: Literal["set_fatigue"] = "set_fatigue"
    level: int = Field(ge=0, le=20)

    def title(self) -> str:
        return f"Fatigue degré {self.level}" if self.level else "Fatigue retirée"


class AddFatigue(Action):
    """« un personnage déjà fatigué qui se fatigue encore devient épuisé »."""

    kind: Literal["add_fatigue"] = "add_fatigue"
    steps: int = Field(1, ge=1, le=20)

    def title(self) -> str:
        return "Se fatiguer" if self.steps == 1 else f"Se fatiguer ({self.steps} degrés)"


class StandUp(Action):
    """« se relever coûte 1 segment »."""

    kind: Literal["stand_up"] = "stand_up"

    def title(self) -> str:
        return "Se relever"


class SetSurprise(Action):
    """Surpris by ``segments`` surprise segments (0: the surprise is over)."""

    kind: Literal["set_surprise"] = "set_surprise"
    segments: int = Field(ge=0, le=100)

    def title(self) -> str:
        return f"Surpris ({plural(self.segments, 'segment')})" if self.segments else "Fin de la surprise"


class Fall(Action):
    """A fall of ``metres``; the Agilité roll is rolled against ``agility_dd`` or given by ``agility_success``."""

    kind: Literal["fall"] = "fall"
    metres: float = Field(ge=0, le=100_000)
    agility_dd: int | None = Field(None, ge=1, le=100)
    agility_success: bool = False
    save_halves: bool = False

    def title(self) -> str:
        return f"Chute de {_metres(self.metres)} m"


class SetSuffocating(Action):
    """Drowning or suffocation starts (``active``) or the character breathes again."""

    kind: Literal["set_suffocating"] = "set_suffocating"
    active: bool = True

    def title(self) -> str:
        return "Sans air" if self.active else "Respire à nouveau"


class SetBurning(Action):
    """The character catches fire (``active``), or the fire goes out by itself."""

    kind: Literal["set_burning"] = "set_burning"
    active: bool = True

    def title(self) -> str:
        return "En feu" if self.active else "Ne brûle plus"


class Extinguish(Action):
    """« éteindre les flammes est une manœuvre, ou une action gratuite en se jetant à terre puis en roulant »."""

    kind: Literal["extinguish"] = "extinguish"
    method: Literal["maneuver", "roll"] = "maneuver"

    def title(self) -> str:
        return "Éteindre les flammes" if self.method == "maneuver" else "Se rouler au sol"


class SetExposure(Action):
    """Exposure to extreme cold or heat without protection ("" ends it); ``save_dd``: a save each hour halves."""

    kind: Literal["set_exposure"] = "set_exposure"
    exposure: Literal["", "froid", "chaleur"]
    save_dd: int | None = Field(None, ge=1, le=100)

    def title(self) -> str:
        return {"": "À l'abri", "froid": "Exposé au froid", "chaleur": "Exposé à la chaleur"}[self.exposure]


class SetPrivation(Action):
    """Going without food, water or sleep (``active``), or no longer."""

    kind: Literal["set_privation"] = "set_privation"
    need: Need
    active: bool = True

    def title(self) -> str:
        what = {"food": "manger", "water": "boire", "sleep": "dormir"}[self.need]
        return f"Sans {what}" if self.active else f"Peut {what}"
