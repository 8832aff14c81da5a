"""d20 (seed 001): one test per rule of issue 3, each quoting the passage it checks."""

from __future__ import annotations

import random

import pytest

import rules

ROUND = 6
HOUR = 3600
DAY = 86400


def sheet(**fields: object) -> rules.D20Sheet:
    base: dict[str, object] = {"name": "Aldric", "level": 3, "base_maximum": 30, "current": 30}
    base.update(fields)
    return rules.new_sheet("d20", **base)


def run(s: rules.D20Sheet, action: rules.Action, seed: int | None = None) -> rules.Outcome:
    return rules.apply(s, action, rng=random.Random(seed) if seed is not None else None)


def text(outcome: rules.Outcome) -> str:
    return "\n".join(outcome.log)


def state(s: rules.D20Sheet) -> str:
    return rules.derive(s).state


def dying(current: int = -1, **fields: object) -> rules.D20Sheet:
    """A character who has just fallen to ``current`` PV (by damage, so the fall is dated)."""
    s = sheet(current=0, **fields)
    return run(s, rules.Damage(amount=-current)).sheet if current < 0 else s


# --- Points de vie and their states ---------------------------------------------------------------


def test_above_zero_unhindered() -> None:
    """« un personnage à qui il reste au moins 1 point de vie n'est aucunement handicapé par ses blessures. »"""
    # At full PV nothing is « ramené au maximum ».
    assert run(sheet(), rules.Heal(amount=0)).log == ("Soins 0 : 30 → 30 PV.",)
    assert run(sheet(), rules.Edit(changes={"fortitude": 2})).log == ("Vigueur (bonus au jet) : 0 → 2.",)
    out = run(sheet(), rules.Damage(amount=29))
    assert out.sheet.current == 1
    d = rules.derive(out.sheet)
    assert d.state == "en_forme"
    assert d.actions == "normal"
    assert d.roll_penalty == 0


def test_exactly_zero_is_hors_de_combat() -> None:
    """« Lorsque les points de vie d'un personnage tombent exactement à 0, il se retrouve hors de combat. Son
    activité est restreinte à une action simple ou une action de mouvement par round »"""
    out = run(sheet(), rules.Damage(amount=30))
    assert out.sheet.current == 0
    d = rules.derive(out.sheet)
    assert d.state == "hors_de_combat"
    assert d.actions == "simple_or_move"
    assert "hors_de_combat" in d.conditions
    assert "fell" in out.events


def test_minus_one_to_minus_nine_is_dying_and_unconscious() -> None:
    """« De –1 à –9 points de vie, il est mourant. » « Il sombre immédiatement dans l'inconscience et ne peut
    plus rien faire. »"""
    for pv in range(-1, -10, -1):
        s = run(sheet(), rules.Damage(amount=30 - pv)).sheet
        d = rules.derive(s)
        assert d.state == "mourant", pv
        assert d.actions == "none"
        assert set(d.conditions) == {"mourant", "inconscient", "sans_defense"}
        assert d.condition_reasons["inconscient"].startswith("découle")


def test_minus_ten_is_death() -> None:
    """« À partir de –10 points de vie, il est mort. »"""
    out = run(sheet(), rules.Damage(amount=40))
    assert out.sheet.dead
    assert state(out.sheet) == "mort"
    assert "died" in out.events
    d = rules.derive(out.sheet)
    assert d.death_threshold == -10
    # The state says why (issue 19: the cause was lost when health_state did not look it up).
    assert d.explain("state") == "état : Mort (−10 PV) — Mort (−10 PV ou moins, dégâts excessifs ou Constitution à 0)."
    assert rules.derive(rules.new_sheet("d20", current=-12)).explain("state").startswith("état : Mort (−12 PV) —")


def test_constitution_falling_to_zero_kills() -> None:
    """« Il peut également perdre la vie si un affaiblissement temporaire ou une diminution permanente de
    caractéristique fait tomber sa valeur de Constitution à 0. »"""
    for drain in (False, True):
        s = sheet(constitution=12)
        s = run(s, rules.AbilityDamage(ability="constitution", points=11, drain=drain)).sheet
        assert not s.dead and rules.derive(s).constitution_score == 1
        out = run(s, rules.AbilityDamage(ability="constitution", points=1, drain=drain))
        assert out.sheet.dead
        assert "Constitution à 0" in out.sheet.death_cause
        assert "died" in out.events
    # Even when the PV lost with the Constitution would also reach −10, the cause is the Constitution.
    low = sheet(level=10, constitution=12, current=5)
    out = run(low, rules.AbilityDamage(ability="constitution", points=12))
    assert out.sheet.dead and out.sheet.death_cause == "Constitution à 0"


# --- Massive damage -------------------------------------------------------------------------------


def test_massive_damage_failed_fortitude_kills_whatever_the_pv() -> None:
    """« Si le personnage subit une attaque si terrible qu'elle lui inflige au moins 50 points de dégâts, il
    doit réussir un jet de Vigueur (DD 15). S'il le rate, il meurt sur le coup, et ce quel que soit son nombre
    de points de vie. »"""
    big = sheet(base_maximum=120, current=120, fortitude=4)
    out = run(big, rules.Damage(amount=50, rolls=(10,)))  # 10 + 4 = 14 < 15
    assert out.sheet.current == 70
    assert out.sheet.dead
    assert "massive_damage" in out.events and "died" in out.events
    assert "Jet de Vigueur (dégâts excessifs) : 1d20 = 10 (valeur donnée) +4 = 14 contre DD 15 → échec." in text(out)
    saved = run(big, rules.Damage(amount=50, rolls=(11,)))  # 11 + 4 = 15
    assert not saved.sheet.dead and saved.sheet.current == 70
    under = run(big, rules.Damage(amount=49))
    assert "massive_damage" not in under.events and not under.sheet.dead


def test_massive_damage_save_is_a_d20_natural_twenty_saves_natural_one_fails() -> None:
    """« il doit réussir un jet de Vigueur (DD 15). S'il le rate, il meurt sur le coup » — a d20 (20 faces): a
    natural 20 saves whatever the bonus, a natural 1 fails whatever the bonus (T2)."""
    weak = sheet(base_maximum=120, current=120, fortitude=-10)
    out = run(weak, rules.Damage(amount=50, rolls=(20,)))
    assert not out.sheet.dead and out.sheet.current == 70
    assert (
        "Jet de Vigueur (dégâts excessifs) : 1d20 = 20 (valeur donnée) −10 = 10 contre DD 15 (20 naturel) → réussite."
        in (text(out))
    )
    strong = sheet(base_maximum=120, current=120, fortitude=20)
    out = run(strong, rules.Damage(amount=50, rolls=(1,)))
    assert out.sheet.dead and "(1 naturel) → échec" in text(out)
    with pytest.raises(rules.Refused, match="impossible sur 1d20"):
        run(weak, rules.Damage(amount=50, rolls=(21,)))


def test_massive_damage_not_from_several_attacks() -> None:
    """« Cette règle ne s'applique pas si le personnage subit 50 points de dégâts infligés par des attaques
    multiples. »"""
    big = sheet(base_maximum=120, current=120)
    several = run(big, rules.Damage(amount=55, single_attack=False))
    assert "massive_damage" not in several.events
    assert several.sheet.current == 65
    hits = run(big, rules.Damage(amount=25, hits=2))
    assert "massive_damage" not in hits.events
    assert hits.sheet.current == 70


# --- Localised wounds -----------------------------------------------------------------------------


def test_localised_wound_gives_minus_two_until_healed() -> None:
    """« Lorsqu'il reçoit ce genre de blessure, le personnage subit un malus de -2 à toute action qu'il
    entreprend en se servant de la partie du corps blessée. »"""
    out = run(sheet(), rules.Damage(amount=4, body_part="main_droite"))
    s = out.sheet
    assert [w.body_part for w in s.wounds] == ["main_droite"]
    d = rules.derive(s)
    assert d.body_part_penalties == {"main_droite": -2}
    assert d.roll_penalty == 0  # only actions with that hand
    s = run(s, rules.AddLocalWound(body_part="oeil_gauche", note="flèche")).sheet
    assert rules.derive(s).body_part_penalties == {"main_droite": -2, "oeil_gauche": -2}
    # Still listed after other events, until healed.
    s = run(s, rules.AdvanceTime(unit="hour", count=3)).sheet
    assert len(s.wounds) == 2
    s = run(s, rules.HealLocalWound(wound_id=1)).sheet
    assert rules.derive(s).body_part_penalties == {"oeil_gauche": -2}
    # Healing at the maximum is not healing back to it: the wound stays.
    full = run(sheet(), rules.AddLocalWound(body_part="tete")).sheet
    assert len(run(full, rules.Heal(amount=5)).sheet.wounds) == 1
    # Healing back to the maximum heals what is left.
    s = run(s, rules.Heal(amount=10)).sheet
    assert s.wounds == ()


def test_unknown_body_part_refused() -> None:
    with pytest.raises(rules.Refused, match="Partie du corps inconnue"):
        run(sheet(), rules.Damage(amount=3, body_part="queue"))


# --- Dying ----------------------------------------------------------------------------------------


def test_dying_rolls_d100_from_the_round_after_the_fall() -> None:
    """« Lors de chacun de ses tours de jeu, un personnage mourant doit lancer 1d100 pour savoir s'il devient
    stable ou s'il s'enfonce. Le premier de ces jets a lieu le round suivant sa chute à –1 point de vie ou
    moins. Il a 10% de chances de se stabiliser, et s'il ne réussit pas, il perd 1 point de vie. »"""
    s = dying(-2)
    assert s.current == -2  # nothing rolled in the round of the fall
    fall_round = run(s, rules.AdvanceTime(unit="round", count=1))
    assert fall_round.sheet.current == -2 and not fall_round.rolls  # the round of the fall ends: no roll yet
    out = run(fall_round.sheet, rules.AdvanceTime(unit="round", count=1, rolls=(11,)))
    assert out.sheet.current == -3
    assert "Round 1 : 1d100 = 11 (valeur donnée) > 10 — s'enfonce." in text(out)
    assert state(out.sheet) == "mourant"
    out = run(out.sheet, rules.AdvanceTime(unit="round", count=1, rolls=(10,)))
    assert out.sheet.current == -3
    assert out.sheet.recovery == "alone"
    assert state(out.sheet) == "stabilise"
    assert "stabilised" in out.events
    # Stable: no more loss each round.
    later = run(out.sheet, rules.AdvanceTime(unit="round", count=20))
    assert later.sheet.current == -3 and not later.rolls


def test_dying_loses_one_pv_each_round_until_dead_at_minus_ten() -> None:
    """« Un personnage mourant perd 1 point de vie chaque round. Cela continue tant qu'il n'est pas stabilisé. »
    « Si ses points de vie tombent à –10 (ou en dessous), le personnage meurt aussitôt. »"""
    s = dying(-7)
    out = run(s, rules.AdvanceTime(unit="minute", count=1, rolls=(50, 50, 50, 50)))
    assert out.sheet.dead and out.sheet.current == -10
    assert len(out.rolls) == 3  # −8, −9, −10: dead, no more rolls
    assert "Valeurs de dés non utilisées : 50" in text(out)


def test_first_aid_dd_15_stabilises() -> None:
    """« Un test de Premiers secours de DD 15 réussi permet de stabiliser l'état d'un personnage mourant, avec
    pour conséquence qu'il cesse de perdre des points de vie. »"""
    s = dying(-4)
    failed = run(s, rules.Stabilise(method="first_aid", modifier=3, rolls=(11,)))  # 14
    assert failed.sheet.recovery == "" and state(failed.sheet) == "mourant"
    ok = run(s, rules.Stabilise(method="first_aid", modifier=3, rolls=(12,)))  # 15
    assert ok.sheet.recovery == "assisted"
    assert state(ok.sheet) == "stabilise"
    after = run(ok.sheet, rules.AdvanceTime(unit="round", count=30))
    assert after.sheet.current == -4


def test_healing_spell_of_one_point_stabilises() -> None:
    """« Si un sort de guérison lui rend ne serait-ce qu'un point de vie, il cesse de perdre des points de vie
    et son état se stabilise. »"""
    s = dying(-6)
    out = run(s, rules.Heal(amount=1, magical=True))
    assert out.sheet.current == -5
    assert out.sheet.recovery == "assisted"
    assert state(out.sheet) == "stabilise"
    mundane = run(s, rules.Heal(amount=1, magical=False))
    assert mundane.sheet.recovery == "" and state(mundane.sheet) == "mourant"


def test_a_spell_that_heals_nothing_does_not_stabilise_and_says_so() -> None:
    """« Si un sort de guérison lui rend ne serait-ce qu'un point de vie, il cesse de perdre des points de vie
    et son état se stabilise. » — a spell that gives back no PV is not “des soins non magiques” (issue 13
    item 15)."""
    s = dying(-6)
    out = run(s, rules.Heal(amount=0, magical=True))
    assert out.sheet.recovery == "" and state(out.sheet) == "mourant"
    assert "Un sort qui ne rend aucun PV ne stabilise pas (au moins 1 PV nécessaire)" in text(out)
    assert "non magiques" not in text(out) and "stabilised" not in out.events
    mundane = run(s, rules.Heal(amount=2))
    assert "Des soins non magiques ne stabilisent pas" in text(mundane)


def test_healed_to_zero_conscious_but_hors_de_combat_to_one_acts_normally() -> None:
    """« Si des soins ramènent le personnage à 0 point de vie, il reprend conscience mais est hors de combat.
    S'il remonte à 1 point de vie ou plus, il peut recommencer à agir normalement, comme s'il n'avait jamais
    été mourant. »"""
    s = dying(-3)
    zero = run(s, rules.Heal(amount=3, magical=True))
    assert zero.sheet.current == 0
    assert state(zero.sheet) == "hors_de_combat"
    assert "woke" in zero.events
    # Back at 0, not « stabilisé »: no stabilisation line or event, with or without magic.
    assert "stabilised" not in zero.events and "stabilise son état" not in text(zero)
    bandaged = run(s, rules.Heal(amount=3))
    assert state(bandaged.sheet) == "hors_de_combat" and "ne stabilisent pas" not in text(bandaged)
    one = run(s, rules.Heal(amount=4, magical=True))
    assert state(one.sheet) == "en_forme"
    assert one.sheet.recovery == "" and one.sheet.dying_roll_at is None and one.sheet.recovery_roll_at is None


# --- Hors de combat -------------------------------------------------------------------------------


def test_strenuous_action_at_zero_costs_one_pv_and_drops_to_dying() -> None:
    """« n'importe quelle action simple (ainsi que d'autres actions fatigantes) lui fait perdre 1 point de vie
    dès qu'il l'a accomplie. À moins que l'action ait eu pour conséquence de soigner le personnage, celui-ci
    se retrouve à –1 point de vie et passe au stade de mourant. »"""
    s = sheet(current=0)
    out = run(s, rules.StrenuousAction())
    assert out.sheet.current == -1
    assert state(out.sheet) == "mourant"
    assert "dying" in out.events
    # The action healed him (a potion of 3): he loses the point but is not dying.
    potion = run(s, rules.StrenuousAction(healing=3, magical=True))
    assert potion.sheet.current == 2
    assert state(potion.sheet) == "en_forme"
    # Healed by only 1: back at 0, still hors de combat, not dying.
    small = run(s, rules.StrenuousAction(healing=1))
    assert small.sheet.current == 0 and state(small.sheet) == "hors_de_combat"


def test_strenuous_action_refused_when_not_hors_de_combat() -> None:
    """« Il peut entreprendre une action de mouvement sans aggraver son état » — only simple actions at 0 PV
    cost; at 1 PV or more nothing is lost, and the dying do nothing at all."""
    with pytest.raises(rules.Refused, match="pas hors de combat"):
        run(sheet(current=5), rules.StrenuousAction())
    with pytest.raises(rules.Refused, match="état Mourant, plus aucune action possible"):
        run(dying(-2), rules.StrenuousAction())


def test_back_to_positive_recovers_all_means() -> None:
    """« Si les points de vie de l'aventurier redeviennent positifs, il retrouve instantanément tous ses
    moyens, comme s'il n'était jamais descendu à 0 point de vie ou moins. »"""
    s = sheet(current=0)
    out = run(s, rules.Heal(amount=1))
    assert state(out.sheet) == "en_forme"
    assert rules.derive(out.sheet).actions == "normal"


# --- Recovery with help ---------------------------------------------------------------------------


def test_recovery_with_help_hourly_ten_percent_to_wake() -> None:
    """« Jetez 1d100 une heure après que l'état d'un personnage mourant a été stabilisé. Le personnage a 10 % de
    chances de reprendre connaissance, auquel cas il se retrouve hors de combat (comme s'il avait 0 point de
    vie). Si le jet est raté, on le rejoue toutes les heures. »"""
    s = run(dying(-5), rules.Stabilise(method="magic")).sheet
    assert s.recovery_roll_at == s.clock + HOUR
    nothing = run(s, rules.AdvanceTime(unit="minute", count=59))
    assert not nothing.rolls
    out = run(s, rules.AdvanceTime(unit="hour", count=3, rolls=(11, 50, 10)))
    assert len(out.rolls) == 3
    assert out.sheet.current == -5  # no loss with help
    assert out.sheet.recovery == "awake"
    d = rules.derive(out.sheet)
    assert d.state == "hors_de_combat"
    assert d.actions == "simple_or_move"
    assert "woke" in out.events


def test_recovery_with_help_heals_at_the_normal_rate() -> None:
    """« Même si le personnage ne reprend pas connaissance, il récupère ses points de vie au rythme habituel et
    redevient opérationnel dès que ses points de vie repassent en positif (1 ou plus). »"""
    s = run(dying(-2, level=4), rules.Stabilise(method="magic")).sheet
    out = run(s, rules.LongRest(rolls=(50,) * 8))  # eight failed wake rolls during the night
    assert out.sheet.current == 2
    assert state(out.sheet) == "en_forme"


# --- Recovery alone -------------------------------------------------------------------------------


def test_recovery_alone_hourly_wake_or_lose_one() -> None:
    """« Un personnage dont l'état se stabilise sans assistance … continue de perdre des points de vie, mais
    moins rapidement. Chaque heure, il a 10 % de chances de reprendre connaissance. Chaque fois qu'il rate ce
    jet, il perd 1 point de vie (il ne récupère pas de points de vie normalement). »"""
    s = run(dying(-2), rules.AdvanceTime(unit="round", count=2, rolls=(1,))).sheet
    assert s.recovery == "alone"
    out = run(s, rules.AdvanceTime(unit="hour", count=3, rolls=(50, 50, 7)))
    assert out.sheet.current == -4
    assert out.sheet.recovery == "alone_awake"
    assert state(out.sheet) == "hors_de_combat"
    night = run(out.sheet, rules.LongRest(interrupted=False))
    assert night.sheet.current == -4  # no natural healing while alone
    assert "ni PV ni caractéristique ne reviennent" in text(night)


def test_recovery_alone_daily_ten_percent_else_relapse() -> None:
    """« Chaque jour (en commençant par le premier), il a 10 % de chances de commencer à récupérer des points
    de vie normalement. En cas d'échec, il rechute et perd 1 point de vie. Une fois que le personnage
    recommence à récupérer des points de vie, il ne risque plus d'en perdre (même si son nombre de points de
    vie actuels est toujours négatif). »"""
    s = sheet(current=-3, recovery="alone_awake")
    first_day = run(s, rules.AdvanceTime(unit="hour", count=23))
    assert not first_day.rolls  # the first roll comes at the end of the first day
    out = run(s, rules.AdvanceTime(unit="day", count=3, rolls=(90, 11, 10)))
    assert len(out.rolls) == 3
    assert out.sheet.current == -5
    assert out.sheet.recovery == "awake"
    calm = run(out.sheet, rules.AdvanceTime(unit="day", count=10))
    assert calm.sheet.current == -5 and not calm.rolls
    healed = run(calm.sheet, rules.LongRest())
    assert healed.sheet.current == -2


def test_recovery_alone_can_die() -> None:
    """« Un aventurier gravement blessé et sans personne pour s'occuper de lui succombe généralement. »"""
    s = sheet(current=-8, recovery="alone")
    out = run(s, rules.AdvanceTime(unit="hour", count=5, rolls=(50, 50)))
    assert out.sheet.dead and out.sheet.current == -10


# --- Natural healing ------------------------------------------------------------------------------


def test_night_heals_level_full_day_twice_level() -> None:
    """« Grâce à une bonne nuit de repos (8 heures de sommeil ou plus), un personnage regagne un nombre de
    points de vie égal à son niveau global. » « Si un personnage reste au lit ou se repose pendant toute une
    journée, il récupère un nombre de points de vie égal à deux fois son niveau global. »"""
    s = sheet(level=4, current=5)
    night = run(s, rules.LongRest())
    assert night.sheet.current == 9
    assert night.sheet.clock == 8 * HOUR
    day = run(s, rules.FullDayRest())
    assert day.sheet.current == 13
    assert day.sheet.clock == DAY
    with pytest.raises(rules.Refused, match="8 heures"):
        run(s, rules.LongRest(hours=6))


def test_interrupted_night_gives_nothing() -> None:
    """« Toute interruption conséquente durant ce repos empêche toute récupération pour cette nuit. »"""
    s = sheet(level=4, current=5, constitution_damage=2)
    out = run(s, rules.LongRest(interrupted=True))
    assert out.sheet.current == 5
    assert out.sheet.constitution_damage == 2
    assert out.sheet.clock == 8 * HOUR


def test_healing_never_above_maximum_nor_more_than_lost() -> None:
    """« Il est impossible de récupérer plus de points de vie qu'on en a perdu. Même les sorts de guérison ne
    permettent pas de faire passer le nombre de points de vie actuels du personnage au- dessus de son
    maximum. »"""
    s = sheet(level=10, current=27)
    assert run(s, rules.LongRest()).sheet.current == 30
    out = run(s, rules.Heal(amount=50, magical=True))
    assert out.sheet.current == 30
    assert "47 sans effet" in text(out)


def test_ability_damage_heals_one_per_night_two_per_full_day() -> None:
    """« Les caractéristiques temporairement affaiblies se régénèrent comme les points de vie perdus, au rythme
    de 1 point par nuit de repos (8 heures) et par caractéristique et de 2 points par journée complète de repos
    et par caractéristique. »"""
    s = sheet(strength_damage=3, wisdom_damage=1, dexterity_drain=2)
    night = run(s, rules.LongRest()).sheet
    assert (night.strength_damage, night.wisdom_damage, night.dexterity_drain) == (2, 0, 2)
    day = run(s, rules.FullDayRest()).sheet
    assert (day.strength_damage, day.wisdom_damage, day.dexterity_drain) == (1, 0, 2)


def test_advance_time_nights_and_full_days_are_rests() -> None:
    """“AdvanceTime drives the timed rules: … nights and full days of rest” (issue 3): « Grâce à une bonne nuit
    de repos (8 heures de sommeil ou plus), un personnage regagne un nombre de points de vie égal à son niveau
    global. » — a night is one a day: three nights are three days, not 24 hours (issue 13, T14)."""
    s = sheet(level=2, current=10)
    nights = run(s, rules.AdvanceTime(unit="night", count=3))
    assert nights.sheet.current == 16
    assert nights.sheet.clock == 3 * DAY
    days = run(s, rules.AdvanceTime(unit="full_day", count=2))
    assert days.sheet.current == 18
    assert days.sheet.clock == 2 * DAY
    plain = run(s, rules.AdvanceTime(unit="day", count=2))
    assert plain.sheet.current == 10  # time without rest heals nothing


def test_one_night_of_rest_a_day() -> None:
    """« Grâce à une bonne nuit de repos (8 heures de sommeil ou plus), un personnage regagne un nombre de
    points de vie égal à son niveau global. » « Si un personnage reste au lit ou se repose pendant toute une
    journée, il récupère un nombre de points de vie égal à deux fois son niveau global. » — so nights never
    beat the full day: one natural healing a day (issue 13 item 14, T14)."""
    s = sheet(level=4, current=2, base_maximum=40)
    night = run(s, rules.LongRest()).sheet
    assert (night.current, night.clock, night.last_rest_at) == (6, 8 * HOUR, 8 * HOUR)
    # A second night right after: refused, nothing changes (not 3 × level in 24 h by three nights).
    with pytest.raises(rules.Refused, match="une seule guérison naturelle par période de 24 h") as err:
        run(night, rules.LongRest())
    assert "en commençant dans 16 heures" in err.value.reason
    # A whole day in bed after the night ends 24 h after it: it is the next day's rest (2 × level).
    assert run(night, rules.FullDayRest()).sheet.current == 14
    # The day goes on; the next evening's night heals again.
    evening = run(night, rules.AdvanceTime(unit="hour", count=16)).sheet
    assert run(evening, rules.LongRest()).sheet.current == 10
    # Or a full day in bed from that evening: twice the level.
    bed = run(evening, rules.FullDayRest()).sheet
    assert (bed.current, bed.clock) == (14, 48 * HOUR)
    # Three nights by « Le temps passe » are three days, with three times the hourly nonlethal recovery.
    hurt = sheet(level=1, current=2, base_maximum=40, nonlethal=40)
    three = run(hurt, rules.AdvanceTime(unit="night", count=3)).sheet
    assert (three.current, three.clock, three.nonlethal) == (5, 3 * DAY, 0)
    # Versus the full day in bed, nights are never ahead: 3 nights (3 days) give 3, 3 full days give 6.
    beds = run(hurt, rules.AdvanceTime(unit="full_day", count=3)).sheet
    assert (beds.current, beds.clock) == (8, 3 * DAY)


def test_time_unit_labels_in_refusals() -> None:
    """“Every text a user can see is French and uses the labels the sheet shows” (issue 13 item 18)."""
    with pytest.raises(rules.Refused) as err:
        run(sheet(), rules.AdvanceTime(unit="semaine"))
    assert "jour avec sa nuit de repos" in err.value.reason and "full_day" not in err.value.reason


# --- Temporary PV ---------------------------------------------------------------------------------


def test_temporary_pv_note_and_fall_back() -> None:
    """« notez le nombre de points de vie actuels du personnage, avant de prendre en compte l'effet magique.
    Quand les points de vie temporaires disparaissent, le total de points de vie de l'aventurier retombe à la
    valeur notée, à moins qu'il se trouve déjà en dessous (auquel cas il reste stable). »"""
    s = run(sheet(current=20), rules.GainTemporary(amount=10)).sheet
    assert s.temporary_noted == 20
    assert rules.derive(s).total == 30
    hit = run(s, rules.Damage(amount=4)).sheet  # total 26
    back = run(hit, rules.LoseTemporary())
    assert rules.derive(back.sheet).total == 20
    assert "retombe à la valeur notée" in text(back)
    deep = run(s, rules.Damage(amount=15)).sheet  # total 15, below the noted 20
    stays = run(deep, rules.LoseTemporary())
    assert rules.derive(stays.sheet).total == 15


def test_real_pv_and_total_with_temporary_pv_never_look_alike() -> None:
    """« notez le nombre de points de vie actuels du personnage, avant de prendre en compte l'effet magique » —
    the real PV and the total with temporary PV are two numbers: every text says which one it gives (issue 10
    item 7: “13 / 38 PV” in the header and “En forme (18 PV)” in the state line)."""
    s = run(sheet(base_maximum=38, current=13), rules.GainTemporary(amount=5)).sheet
    d = rules.derive(s)
    assert (d.current, d.maximum, d.temporary, d.total) == (13, 38, 5, 18)
    assert d.explain("current") == "PV 13 sur 38 : les vrais points de vie, sans les 5 PV temporaires (total 18)"
    assert d.explain("total") == "total de points de vie (celui des états) 18 = 13 (PV) + 5 (PV temporaires)"
    assert "(13 PV + 5 PV temporaires = 18 au total)" in d.explain("state")
    assert "18 PV)" not in d.explain("state")
    # Nonlethal damage is compared with the total, and says so.
    staggered = rules.derive(run(s, rules.Damage(amount=18, nonlethal=True)).sheet)
    assert staggered.state == "chancelant"
    assert staggered.explain("state") == (
        "état : Chancelant (dégâts non létaux 18 = 18 PV au total, soit 13 PV + 5 PV temporaires) — Dégâts non "
        "létaux égaux aux PV : une action simple par round."
    )
    # The demo: « 9/52 » and « 14 PV » are the real PV and the total.
    demo = rules.derive(rules.demo_sheet("d20"))
    assert (demo.current, demo.total) == (9, 14)
    assert "9 PV + 5 PV temporaires" in demo.explain("state") and "sans les 5 PV temporaires" in demo.explain("current")
    # Without temporary PV the state line gives the one number.
    assert rules.derive(sheet(current=13)).explain("state").startswith("état : En forme (13 PV) —")


def test_lost_temporary_pv_never_come_back() -> None:
    """« Quand les points de vie temporaires sont perdus, il n'existe aucun moyen de les récupérer, pas même
    par magie. »"""
    s = run(sheet(current=20), rules.GainTemporary(amount=10)).sheet
    s = run(s, rules.Damage(amount=6)).sheet
    assert (s.current, s.temporary) == (20, 4)
    healed = run(s, rules.Heal(amount=20, magical=True)).sheet
    assert healed.temporary == 4
    assert healed.current == 30


def test_temporary_pv_count_in_the_total_that_decides_states() -> None:
    """« le total de points de vie de l'aventurier retombe à la valeur notée » — temporary PV are part of the
    total; when they go, a character noted at 0 is hors de combat again."""
    s = run(sheet(current=0), rules.GainTemporary(amount=5)).sheet
    assert state(s) == "en_forme"
    out = run(s, rules.LoseTemporary())
    assert state(out.sheet) == "hors_de_combat"


def test_constitution_increase_raises_real_pv() -> None:
    """« une augmentation, même temporaire, de la valeur de Constitution du personnage peut se traduire par une
    augmentation ponctuelle de son nombre de points de vie. Dans ce cas, il ne s'agit pas de points de vie
    temporaires. Si on les perd, on peut les récupérer, et ils ne disparaissent pas en premier en cas de
    blessure. »"""
    s = sheet(level=5, constitution=14, base_maximum=40, current=40, temporary=3)
    up = run(s, rules.SetConstitutionBonus(level=4)).sheet  # +2 modifier × 5 levels
    d = rules.derive(up)
    assert (d.maximum, d.current, d.temporary) == (50, 50, 3)
    assert "Constitution" in d.explain("maximum")
    hit = run(up, rules.Damage(amount=13)).sheet  # the 3 temporary go first, not the CON PV
    assert (hit.current, hit.temporary) == (40, 0)
    back = run(hit, rules.Heal(amount=20)).sheet  # lost, they come back
    assert back.current == 50
    down = run(back, rules.SetConstitutionBonus(level=0)).sheet
    assert (rules.derive(down).maximum, down.current) == (40, 40)
    # A plain edit of the increase moves the PV the same way, both ways (T13).
    assert run(s, rules.Edit(changes={"constitution_bonus": 4})).sheet.current == 50
    edited = run(back, rules.Edit(changes={"constitution_bonus": 0}))
    assert (rules.derive(edited.sheet).maximum, edited.sheet.current) == (40, 40)
    assert "PV 50 → 40" in text(edited)


def test_constitution_damage_lowers_pv_and_heals_back() -> None:
    """« Les caractéristiques temporairement affaiblies se régénèrent comme les points de vie perdus » and the
    Constitution in play sets the PV: damage to it removes PV that come back with it."""
    s = sheet(level=4, constitution=12, base_maximum=30, current=30)
    hurt = run(s, rules.AbilityDamage(ability="constitution", points=2)).sheet  # +1 → +0
    assert (rules.derive(hurt).maximum, hurt.current) == (26, 26)
    day = run(hurt, rules.FullDayRest()).sheet
    assert day.constitution_damage == 0
    assert (rules.derive(day).maximum, day.current) == (30, 30)


def test_a_low_constitution_leaves_at_least_one_pv_per_level() -> None:
    """« une augmentation, même temporaire, de la valeur de Constitution du personnage peut se traduire par une
    augmentation ponctuelle de son nombre de points de vie » — and a fall of it by a loss, never below 1 PV per
    level of maximum (T13); the PV lose what the maximum loses, no more."""
    s = sheet(level=5, constitution=18, base_maximum=10, current=10)  # +4
    low = run(s, rules.AbilityDamage(ability="constitution", points=17))  # Constitution 1: −5, so −45 PV…
    d = rules.derive(low.sheet)
    assert (d.maximum, low.sheet.current, d.state) == (5, 5, "en_forme")  # … but at least 5 × 1
    assert "relevé à 5 (au moins 1 PV par niveau)" in d.explain("maximum")
    assert "maximum 10 → 5, PV 10 → 5" in text(low)
    back = run(low.sheet, rules.RestoreAbility(ability="constitution", points=17)).sheet
    assert (rules.derive(back).maximum, back.current) == (10, 10)


# --- Nonlethal damage -----------------------------------------------------------------------------


def test_nonlethal_counted_apart_never_from_pv() -> None:
    """« Si votre personnage subit des dégâts non-létaux, faites-en le total à part. Ne les déduisez surtout
    pas de son nombre de points de vie ! »"""
    s = sheet(current=20, temporary=4)
    out = run(s, rules.Damage(amount=7, nonlethal=True))
    assert (out.sheet.current, out.sheet.temporary, out.sheet.nonlethal) == (20, 4, 7)
    out = run(out.sheet, rules.Damage(amount=2, nonlethal=True))
    assert out.sheet.nonlethal == 9


def test_nonlethal_equal_staggers_above_knocks_out() -> None:
    """« Si les dégâts non-létaux encaissés par le personnage égalent son nombre de points de vie actuels, il
    chancelle ; s'ils le dépassent, il perd connaissance. »"""
    s = sheet(current=10)
    equal = run(s, rules.Damage(amount=10, nonlethal=True)).sheet
    d = rules.derive(equal)
    assert d.state == "chancelant"
    assert d.actions == "simple"
    assert d.condition_reasons["chancelant"].startswith("découle des dégâts non létaux")
    above = run(equal, rules.Damage(amount=1, nonlethal=True))
    d = rules.derive(above.sheet)
    assert d.state == "inconscient"
    assert "sans_defense" in d.conditions
    assert "unconscious" in above.events


def test_nonlethal_states_follow_falling_pv_too() -> None:
    """« À noter que cela se produit que les dégâts non-létaux augmentent ou que le total des points de vie du
    personnage diminue. » « Elle cesse de chanceler quand ses points de vie remontent au-dessus des dégâts
    non-létaux subis. »"""
    s = sheet(current=12, nonlethal=8)
    assert state(s) == "en_forme"
    s = run(s, rules.Damage(amount=4)).sheet
    assert state(s) == "chancelant"
    s = run(s, rules.Damage(amount=1)).sheet
    assert state(s) == "inconscient"
    s = run(s, rules.Heal(amount=2, magical=True)).sheet  # PV 9, nonlethal 6
    assert (s.current, s.nonlethal) == (9, 6)
    assert state(s) == "en_forme"


def test_nonlethal_heals_one_per_hour_per_level() -> None:
    """« Les dégâts non-létaux disparaissent au rythme de 1 point par heure et par niveau global. »"""
    s = run(sheet(level=3), rules.Damage(amount=10, nonlethal=True)).sheet
    three = run(s, rules.AdvanceTime(unit="hour", count=3))
    assert [line for line in three.log if line.startswith("Dégâts non létaux")] == [
        "Dégâts non létaux : −9 en 3 heures (3 par heure) : 10 → 1."
    ]
    assert run(s, rules.AdvanceTime(unit="minute", count=59)).sheet.nonlethal == 10
    assert run(s, rules.AdvanceTime(unit="hour", count=1)).sheet.nonlethal == 7
    assert run(s, rules.AdvanceTime(unit="hour", count=3)).sheet.nonlethal == 1
    done = run(s, rules.AdvanceTime(unit="hour", count=30)).sheet
    assert done.nonlethal == 0 and done.nonlethal_heal_at is None
    # Round by round, the hour still comes.
    by_rounds = run(s, rules.AdvanceTime(unit="round", count=600)).sheet
    assert by_rounds.nonlethal == 7


def test_pv_healing_removes_as_much_nonlethal() -> None:
    """« Les sorts permettant de récupérer des points de vie font également disparaître un nombre égal de
    points de dégâts non-létaux, le cas échéant. »"""
    s = sheet(current=25, nonlethal=12)
    out = run(s, rules.Heal(amount=8, magical=True))
    assert out.sheet.current == 30
    assert out.sheet.nonlethal == 4  # the spell's 8, even though the PV took only 5
    assert "Les soins effacent aussi 8 dégâts non létaux : 12 → 4." in text(out)


def test_only_spells_remove_nonlethal_beyond_the_hourly_rate() -> None:
    """« Les sorts permettant de récupérer des points de vie font également disparaître un nombre égal de
    points de dégâts non-létaux » — spells, not bandages nor a night's sleep, which leave only « 1 point par
    heure et par niveau global » (issue 13 item 17, T9 revised)."""
    s = sheet(level=2, current=20, nonlethal=12)
    mundane = run(s, rules.Heal(amount=3, magical=False))
    assert (mundane.sheet.current, mundane.sheet.nonlethal) == (23, 12)
    night = run(s, rules.LongRest()).sheet
    # 8 hours × 2 per hour = 16 ≥ 12 by the hourly rate; the night's healing adds nothing to it.
    assert (night.current, night.nonlethal) == (22, 0)
    short_night = run(sheet(level=1, current=20, nonlethal=12), rules.LongRest()).sheet
    assert (short_night.current, short_night.nonlethal) == (21, 4)  # 8 h × 1: the rest removes no more


def test_wrong_weapon_gives_minus_four_to_attack() -> None:
    """« Il est possible d'utiliser une arme de corps à corps infligeant des dégâts létaux pour infliger des
    dégâts non-létaux, mais le jet d'attaque subit alors un malus de –4. » « on peut utiliser une arme
    infligeant habituellement des dégâts non-létaux de manière à infliger des dégâts létaux, mais le jet
    d'attaque s'accompagne là aussi d'un malus de –4. »"""
    assert rules.derive(sheet()).attack_modifier == 0
    sap_on_sword = rules.derive(sheet(weapon_lethal=True, strike_nonlethal=True))
    assert sap_on_sword.attack_modifier == -4
    assert "arme létale" in sap_on_sword.explain("attack_modifier")
    assert rules.derive(sheet(weapon_lethal=False, strike_nonlethal=False)).attack_modifier == -4
    assert rules.derive(sheet(weapon_lethal=False, strike_nonlethal=True)).attack_modifier == 0
    bow = rules.derive(sheet(weapon_lethal=True, weapon_melee=False, strike_nonlethal=True))
    assert bow.nonlethal_strike_possible is False


# --- Resurrection ---------------------------------------------------------------------------------


def dead(**fields: object) -> rules.D20Sheet:
    return run(sheet(**fields), rules.Damage(amount=40)).sheet


def test_resurrection_dd_base_ten_plus_one_per_earlier() -> None:
    """« Le DD de base pour le test de résurrection final est de 10, augmentant de 1 pour chaque résurrection
    réussie précédente que le personnage a subie »"""
    assert rules.derive(dead()).resurrection_dd == 10
    d = rules.derive(dead(resurrections=2))
    assert d.resurrection_dd == 12
    assert "2 résurrections réussies" in d.explain("resurrection_dd")


def test_resurrection_contributions_minus_three_plus_one_then_final_roll() -> None:
    """« Pour chaque test de compétence de contribution réussi, ce DD est diminué de 3, alors que chaque test de
    compétence de contribution raté augmente le DD de 1. » « Une fois toutes les contributions terminées, le
    MD lance un seul et dernier test de Résurrection sans modificateurs. »"""
    s = dead(resurrections=1)  # DD 11
    prayer = rules.ResurrectionContribution(label="prière", modifier=4, dd=12)
    shout = rules.ResurrectionContribution(label="Intimidation", modifier=2, dd=25)
    # Rolls: prayer 10+4=14 ok (−3), shout 5+2=7 failed (+1), one more success given (−3): DD 11−3+1−3 = 6.
    out = run(s, rules.Resurrection(contributions=(prayer, shout), contribution_successes=1, rolls=(10, 5, 6)))
    assert "DD du test final 6" in text(out)
    assert not out.sheet.dead
    assert out.sheet.resurrections == 2
    assert out.sheet.current == 3  # 1 PV per level (T15)
    assert "revived" in out.events
    failed = run(s, rules.Resurrection(contributions=(prayer, shout), contribution_successes=1, rolls=(10, 5, 5)))
    assert failed.sheet.dead


def test_resurrection_at_most_three_contributors() -> None:
    """« Jusqu'à 3 membres du groupe d'aventuriers peuvent proposer de contribuer au rituel »"""
    with pytest.raises(rules.Refused, match="Au plus 3"):
        run(dead(), rules.Resurrection(contribution_successes=2, contribution_failures=2))


def test_failed_ritual_loses_the_soul() -> None:
    """« En cas d'échec, l'âme ne revient pas et le personnage est perdu. »"""
    out = run(dead(), rules.Resurrection(rolls=(9,)))
    assert out.sheet.dead and out.sheet.soul_lost
    assert "soul_lost" in out.events
    with pytest.raises(rules.Refused, match="perdue"):
        run(out.sheet, rules.Resurrection(rolls=(20,)))
    with pytest.raises(rules.Refused, match="perdue"):
        run(out.sheet, rules.Resurrection(procedure="quick", caster_level=20, rolls=(20,)))


def test_supreme_resurrection_and_wish_bypass_even_a_lost_soul() -> None:
    """« Seules les incantations magiques les plus puissantes peuvent contourner ce défi de résurrection, sous
    la forme des sorts Résurrection suprême ou Souhait. Ces sorts peuvent également redonner vie à un
    personnage qui a été perdu à cause d'un échec du rituel de résurrection. »"""
    lost = run(dead(), rules.Resurrection(rolls=(1,))).sheet
    for procedure in ("resurrection_supreme", "souhait"):
        out = run(lost, rules.Resurrection(procedure=procedure))
        assert not out.sheet.dead and not out.sheet.soul_lost
        assert not out.rolls
        assert out.sheet.current == 30


def test_quick_resurrection_caster_level_check() -> None:
    """« Si un sort avec un temps d'incantation de 1 action simple est utilisé pour tenter de restaurer la vie,
    aucun test de compétence de contribution n'est autorisé. Le personnage qui lance le sort effectue un test
    de Résurrection rapide qui est un test de niveau de lanceur de sort. Le DD est de 10, augmentant de 1 pour
    chaque résurrection réussie précédente »"""
    s = dead(resurrections=1)
    with pytest.raises(rules.Refused, match="contribution"):
        run(s, rules.Resurrection(procedure="quick", caster_level=5, contribution_successes=1))
    ok = run(s, rules.Resurrection(procedure="quick", caster_level=5, rolls=(6,)))  # 11 vs 11
    assert not ok.sheet.dead and ok.sheet.resurrections == 2
    no = run(s, rules.Resurrection(procedure="quick", caster_level=5, rolls=(5,)))
    assert no.sheet.dead


def test_failed_quick_resurrection_raises_dd_and_blocks_until_a_ritual() -> None:
    """« En cas d'échec, l'âme du personnage n'est pas perdue, mais la résurrection échoue et augmente le DD
    des futurs tests de Résurrection de 1. Aucune autre tentative ne peut être faite pour ramener ce
    personnage à la vie jusqu'à ce qu'un sort de résurrection avec un temps d'incantation supérieur à 1 action
    est tenté. »"""
    out = run(dead(), rules.Resurrection(procedure="quick", caster_level=3, rolls=(2,)))
    s = out.sheet
    assert s.dead and not s.soul_lost and s.quick_blocked
    assert rules.derive(s).resurrection_dd == 11
    assert rules.derive(s).quick_resurrection is False
    with pytest.raises(rules.Refused, match="plus d'une action"):
        run(s, rules.Resurrection(procedure="quick", caster_level=20, rolls=(20,)))
    ritual = run(s, rules.Resurrection(rolls=(11,)))  # DD 11
    assert not ritual.sheet.dead and not ritual.sheet.quick_blocked


def test_sheet_records_resurrections_and_current_dd() -> None:
    """“The sheet records resurrections and the current DD” (issue 3)."""
    s = sheet(resurrections=3, quick_failures=1)
    d = rules.derive(s)
    assert d.resurrections == 3
    assert d.resurrection_dd == 14
    again = rules.sheet_from_json(rules.sheet_to_json(s))
    assert rules.derive(again).resurrection_dd == 14


def test_resurrection_of_the_living_refused() -> None:
    with pytest.raises(rules.Refused, match="Aldric est en vie : pas de résurrection"):
        run(sheet(), rules.Resurrection(procedure="souhait"))


# --- Time -----------------------------------------------------------------------------------------


def test_advance_time_drives_rounds_hours_and_days() -> None:
    """“AdvanceTime drives the timed rules: rounds (dying), hours (nonlethal recovery, recovery rolls), days
    (recovery alone)” (issue 3): one long advance runs every roll in order."""
    s = dying(-1, level=2)
    s = evolve_nonlethal(s, 4)
    # Round 1: stabilises alone (5). Then each hour: wake roll (50, 50, 8) with −1 per failure. Then after a
    # day awake: daily roll 3 → recovering. Nonlethal heals 2 per hour meanwhile.
    out = run(s, rules.AdvanceTime(unit="day", count=2, rolls=(5, 50, 50, 8, 3)))
    assert out.sheet.recovery == "awake"
    assert out.sheet.current == -3
    assert out.sheet.nonlethal == 0
    assert out.sheet.clock == s.clock + 2 * DAY
    assert not out.sheet.dead


def evolve_nonlethal(s: rules.D20Sheet, amount: int) -> rules.D20Sheet:
    return run(s, rules.Damage(amount=amount, nonlethal=True)).sheet


def test_dead_regain_nothing() -> None:
    """« À partir de –10 points de vie, il est mort. » — the dead regain nothing (issue 3)."""
    s = dead()
    for action in (
        rules.Heal(amount=5, magical=True),
        rules.LongRest(),
        rules.FullDayRest(),
        rules.GainTemporary(amount=3),
    ):
        with pytest.raises(rules.Refused, match=r"Aldric a perdu la vie : .* impossible"):
            run(s, action)
    out = run(s, rules.Damage(amount=5))
    assert out.sheet == s
    assert "Aldric a déjà perdu la vie : dégâts sans effet." in text(out)


def test_new_damage_breaks_stabilisation() -> None:
    """« Un personnage mourant perd 1 point de vie chaque round. Cela continue tant qu'il n'est pas
    stabilisé. » — new real damage makes a stabilised character dying again (docs/rules-notes.md T10)."""
    s = run(dying(-3), rules.Stabilise(method="magic")).sheet
    nonlethal = run(s, rules.Damage(amount=2, nonlethal=True))
    assert nonlethal.sheet.recovery == "assisted"
    out = run(s, rules.Damage(amount=1))
    assert out.sheet.recovery == ""
    assert state(out.sheet) == "mourant"
    assert "dying" in out.events
    assert out.sheet.dying_roll_at == out.sheet.clock + ROUND


def test_gm_edit_of_the_pv_follows_the_table() -> None:
    """« De –1 à –9 points de vie, il est mourant. À partir de –10 points de vie, il est mort. » — a GM's
    correction of the PV puts the character in the state of the table, with its timed rolls."""
    out = run(sheet(), rules.Edit(changes={"current": -4}))
    assert state(out.sheet) == "mourant"
    assert out.sheet.dying_roll_at == out.sheet.clock + ROUND
    assert "Mourant" in text(out)
    dead_edit = run(sheet(), rules.Edit(changes={"current": -12}))
    assert dead_edit.sheet.dead and "died" in dead_edit.events


def test_a_lower_maximum_brings_the_pv_down_and_typed_pv_above_it_are_refused() -> None:
    """« Quelle que soit la méthode utilisée, il est impossible de dépasser son maximum de points de vie. » — an
    edit that lowers the maximum lowers the PV with it, as Douaratil does; PV typed above the maximum are refused,
    without advice about a Constitution increase there is none of (issue 13 item 16, T13)."""
    out = run(sheet(), rules.Edit(changes={"base_maximum": 20}))
    assert (out.sheet.current, rules.derive(out.sheet).maximum) == (20, 20)
    assert text(out) == "PV maximum : 30 → 20.\nPV ramenés au maximum : 30 → 20."
    with pytest.raises(rules.Refused) as err:
        run(sheet(), rules.Edit(changes={"current": 35}))
    assert err.value.reason == "Les PV (35) ne peuvent pas dépasser le maximum (30)."
    # A lower level with a Constitution increase lowers the maximum too, and the PV follow.
    raised = run(sheet(constitution=12), rules.SetConstitutionBonus(level=4)).sheet  # +2 × 3 levels
    assert (raised.current, rules.derive(raised).maximum) == (36, 36)
    lower = run(raised, rules.Edit(changes={"level": 1})).sheet
    assert (lower.current, rules.derive(lower).maximum) == (32, 32)
    # The dead too (found by hypothesis, issue 19): Constitution 3 → 0 kills at 39/39, then a lower maximum.
    corpse = rules.new_sheet("d20", name="Essai", level=1, base_maximum=40, constitution=3)
    corpse = run(corpse, rules.AbilityDamage(ability="constitution", points=3)).sheet
    assert corpse.dead and corpse.current == rules.derive(corpse).maximum == 39
    out = run(corpse, rules.Edit(changes={"base_maximum": 39}))
    assert out.sheet.current == rules.derive(out.sheet).maximum == 38
    assert text(out) == "PV maximum : 40 → 39.\nPV ramenés au maximum : 39 → 38."


def test_conditions_list_everything_the_pv_imply() -> None:
    """« Si les dégâts non-létaux … le dépassent, il perd connaissance » also at 0 PV, where the character is
    « hors de combat » too: the sheet lists both, each with where it comes from."""
    d = rules.derive(sheet(current=0, nonlethal=2))
    assert d.state == "inconscient"
    assert set(d.conditions) == {"hors_de_combat", "inconscient", "sans_defense"}
    assert d.condition_reasons["hors_de_combat"] == "découle des points de vie (0 PV)"
    assert d.condition_reasons["inconscient"] == "découle des dégâts non létaux (2 > 0 PV)"
    assert d.condition_reasons["sans_defense"] == "découle d'Inconscient"
    asleep = rules.derive(run(sheet(current=0), rules.SetCondition(condition="inconscient")).sheet)
    assert asleep.state == "inconscient"
    assert asleep.condition_reasons["inconscient"] == "posé"
    with pytest.raises(rules.Refused, match="découle des points de vie"):
        run(sheet(current=0), rules.SetCondition(condition="hors_de_combat", active=False))
    # « Un test de Premiers secours de DD 15 réussi permet de stabiliser » : these follow the PV, never set.
    for derived in ("mourant", "stabilise", "hors_de_combat"):
        with pytest.raises(rules.Refused, match="on ne le pose pas à la main"):
            run(sheet(), rules.SetCondition(condition=derived))
        with pytest.raises(rules.SheetError, match="on ne le pose pas à la main"):
            rules.new_sheet("d20", conditions=[derived])


def test_lower_constitution_lowers_the_pv_of_the_dead_too() -> None:
    """« Quelle que soit la méthode utilisée, il est impossible de dépasser son maximum de points de vie » —
    found by hypothesis: temporary PV took a massive hit, the failed Vigueur killed a character still at full
    PV, then a lower Constitution bonus left those PV above the new maximum."""
    s = rules.new_sheet("d20", name="Essai", level=1, base_maximum=2, constitution=3)
    for action in (
        rules.GainTemporary(amount=100_000),
        rules.SetConstitutionBonus(level=2),
        rules.AbilityDamage(ability="constitution", points=2),
        rules.Damage(amount=100_000, rolls=(1,)),  # all absorbed; Vigueur 1 fails: dead at full PV
    ):
        s = rules.apply(s, action).sheet
    assert s.dead and s.current == rules.derive(s).maximum == 2
    after = rules.apply(s, rules.Edit(changes={"constitution_bonus": 0})).sheet
    assert after.current == rules.derive(after).maximum == 1
    back = rules.apply(after, rules.Edit(changes={"constitution_bonus": 2})).sheet
    assert rules.derive(back).maximum == 2 and back.current == 1  # the dead regain nothing
