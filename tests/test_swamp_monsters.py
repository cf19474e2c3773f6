"""Swamp Monsters as printed: no print findings, and the old Utility/Event space split in two
on the playmat and on every card that says where it goes."""

from __future__ import annotations

from pnpgen.build import load

from .clirun import pnpgen
from .pdfread import page_texts


def _text(built, deck):
    path = next(r for r in built["swamp-monsters"] if r.id == deck).path
    return " ".join(" ".join(page_texts(path)).split())


def test_the_kit_has_no_print_findings_and_keeps_its_rules(project):
    ran = pnpgen("--root", project.root, "check", "swamp-monsters", "--strict")
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "0 errors, 0 warnings" in ran.stdout + ran.stderr


def test_each_card_names_the_space_it_goes_to(project, built):
    main = next(d for d in load(project, "swamp-monsters").decks if d.id == "main")

    def copies(**where):
        return sum(c.count for c in main.cards if all(c.fields.get(k) == v for k, v in where.items()))
    gambits, events, controls = copies(subtype="Gambit"), copies(type="Event"), copies(subtype="Control")
    assert gambits and events and controls
    text = _text(built, "main")
    assert "Utility/Event" not in text
    assert text.count("Goes to your Event / Gambit space") == gambits
    assert text.count("Stays in your Event / Gambit space until it ends.") == events
    assert text.count("Goes to your Utility space; it replaces your previous Control card.") == controls


def test_the_playmat_has_a_utility_space_and_an_event_space(built):
    text = _text(built, "swamp")
    assert "UTILITY / EVENT" not in text
    for words in ("UTILITY", "Your Control card: one at a time", "EVENT / GAMBIT", "Events until they end",
                  "turn a card sideways in its space to show its status"):
        assert words in text, words
