"""A GM's own rule table (``rules.load_rules_table``): the same limits and French errors as sheet files.

Issue 16 item 19: « A FIFO hangs the loader; a symlink to `/dev/zero` eats memory; `[`×100k raises
`RecursionError` and a 5,000-digit integer `ValueError`, both escaping `RulesetError`; TOML syntax
errors carry English (« Invalid statement (at line 1, column 1) »); a UTF-8 BOM is refused. Same
limits and French errors as sheet files. »
"""

from __future__ import annotations

import codecs
import os
from pathlib import Path

import pytest

import rules
from tests.files.test_hostile import english_in

SHIPPED = Path(rules.__file__).resolve().parents[1] / "resources" / "rulesets"


def _refused(path: Path, system_id: str = "douaratil") -> str:
    with pytest.raises(rules.RulesetError) as caught:
        rules.load_rules_table(system_id, path)
    message = str(caught.value)
    assert message.startswith(f"{path} : "), message
    assert not english_in(message, path), message
    return message


def _shipped(system_id: str = "douaratil") -> str:
    return (SHIPPED / f"{system_id}.toml").read_text(encoding="utf-8")


@pytest.mark.timeout(20)
def test_a_fifo_is_refused_without_waiting(tmp_path: Path) -> None:
    path = tmp_path / "maison.toml"
    os.mkfifo(path)
    assert "ce n'est pas un fichier ordinaire" in _refused(path)


@pytest.mark.timeout(20)
def test_a_link_to_dev_zero_is_refused_without_reading(tmp_path: Path) -> None:
    path = tmp_path / "maison.toml"
    path.symlink_to("/dev/zero")
    assert "ce n'est pas un fichier ordinaire" in _refused(path)


def test_a_folder_a_loop_and_a_missing_file(tmp_path: Path) -> None:
    assert "c'est un dossier" in _refused(tmp_path)
    loop = tmp_path / "boucle.toml"
    loop.symlink_to(loop)
    assert "lecture impossible (trop de liens symboliques)" in _refused(loop)
    assert "lecture impossible (fichier ou dossier introuvable)" in _refused(tmp_path / "absent.toml")


def test_deep_nesting_and_giant_integers_are_ruleset_errors(tmp_path: Path) -> None:
    deep = tmp_path / "profond.toml"
    deep.write_text("x = " + "[" * 100_000)
    assert "données imbriquées trop profondément" in _refused(deep)
    big = tmp_path / "nombre.toml"
    big.write_text("x = " + "9" * 5000 + "\n" + _shipped())
    assert "nombre démesuré" in _refused(big)


def test_a_file_over_the_limit_is_refused_before_reading(tmp_path: Path) -> None:
    path = tmp_path / "gros.toml"
    with open(path, "wb") as handle:
        handle.truncate(2_000_001)
    assert "fichier trop gros pour une table de règles" in _refused(path)


@pytest.mark.parametrize(
    ("toml", "line", "french"),
    [
        ("a = 1\nb = 2\n?? = 3\n", 3, "instruction invalide"),
        ("a = 1\n[b]\n.c = 3\n", 3, "instruction invalide"),
        ("a.? = 1\n", 1, "caractère invalide au début d'une clé"),
        ("a = 1\n[table\n", 2, "« ] » attendu à la fin du nom de table"),
        ("a = 1\nb 2\n", 2, "« = » attendu après la clé"),
        ("a = [1, 2\nb = 3\n", 2, "liste non fermée"),
        ('a = "ouvert\n', 1, "caractère interdit dans un texte"),
        ('a = """ouvert\n', None, "texte sans guillemet fermant"),
        ("a = 1\na = 2\n", 2, "une valeur est définie deux fois"),
        ("a = { b = 1\n", 1, "table en ligne non fermée"),
        ("a = 1980-13-45\n", 1, "fin de ligne attendue après la valeur"),
        ("a = 1980-02-30\n", 1, "date invalide"),
        ("a = \n", 1, "valeur invalide"),
        ('a = "\\q"\n', 1, "« \\ » non échappé dans un texte"),
        ("[a]\n[a]\n", 2, "une table est déclarée deux fois"),
    ],
)
def test_toml_syntax_errors_are_french_with_their_line(
    tmp_path: Path, toml: str, line: int | None, french: str
) -> None:
    path = tmp_path / "maison.toml"
    path.write_text(toml, encoding="utf-8")
    message = _refused(path)
    where = f"ligne {line} (colonne " if line is not None else "fin du fichier : "
    assert where in message and f"syntaxe TOML invalide : {french}." in message, message


def test_a_utf8_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    for system_id in rules.SYSTEMS:
        path = tmp_path / f"{system_id}.toml"
        path.write_bytes(codecs.BOM_UTF8 + _shipped(system_id).encode("utf-8"))
        assert rules.load_rules_table(system_id, path) == rules.ruleset(system_id)


def test_another_encoding_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "latin1.toml"
    path.write_bytes(_shipped().encode("utf-8").replace("é".encode(), "é".encode("latin-1"), 1))
    text = _shipped()
    line = text[: text.index("é")].count("\n") + 1
    assert f"ligne {line} : le fichier n'est pas en UTF-8" in _refused(path)
