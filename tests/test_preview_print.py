"""The preview shows what `pnpgen check` finds in print, as it shows rule findings: listed
for the game, marked on the cards it names, and updated when a save fixes or breaks it."""

from __future__ import annotations

from pathlib import Path

from pnpgen.build import Project
from pnpgen.preview.live import Live

from .minigame import make_game
from .test_preview import BACK, DECK, GAME, FACE, cards_of, edit, game_of, line_of, state_of

LABEL = '  - text: {x: 5, y: 70, w: 53.5, h: 6, text: "fine print", size: 4, color: "#ffffff"}\n'


def live_game(tmp_path, game: str = GAME) -> tuple[Live, Path]:
    make_game(tmp_path, game, DECK, {"face": FACE + LABEL, "back": BACK})
    live = Live(Project(tmp_path))
    live.refresh()
    live.settle()
    return live, tmp_path / "templates" / "mini" / "face.yaml"


def test_print_findings_are_listed_and_marked_on_their_cards_and_go_when_fixed(tmp_path):
    live, face = live_game(tmp_path)
    state = state_of(live)
    game, cards = game_of(state), cards_of(state)
    (found,) = game["prints"]
    assert found["check"] == "print-size" and found["severity"] == "warning" and found["kind"] == "print"
    assert found["text"].startswith(f"{face}:{line_of(face, 'fine print')}: "
                                    "mini/deck: print-size (warning): elements[2]: text 'fine print' is 4.0 pt")
    assert found["cards"] == ["MQ-001", "MQ-002", "MQ-003"] and game["print_errors"] == 0 and state["errors"] == 0
    for card in cards.values():
        assert {"text": found["text"], "severity": "warning", "kind": "print"} in card["marks"]
    edit(face, "size: 4,", "size: 8,")         # the designer saves the fix
    live.refresh()
    assert game_of(state_of(live))["warnings_pending"]
    live.settle()
    state = state_of(live)
    assert game_of(state)["prints"] == [] and all(c["marks"] == [] for c in cards_of(state).values())


def test_a_print_error_counts_as_an_error_of_the_page(tmp_path):
    live, _ = live_game(tmp_path, GAME + "print: {severity: error}\n")
    state = state_of(live)
    game = game_of(state)
    assert game["print_errors"] == 1 and state["errors"] == 1 and game["prints"][0]["severity"] == "error"


def test_in_a_browser_the_findings_list_shows_print_findings_and_a_save_clears_them(tmp_path):
    from pnpgen.preview import start

    from .test_preview import _browser, wait_for

    make_game(tmp_path, GAME, DECK, {"face": FACE + LABEL, "back": BACK})
    face = tmp_path / "templates" / "mini" / "face.yaml"
    driver = _browser()
    running = None
    try:
        running = start(Project(tmp_path), ("mini",), port=0, workers=1)
        assert running.watcher.ready.wait(10)
        driver.get(running.url)
        wait_for(driver, "document.body.innerText.includes('1 print finding')")
        text = driver.execute_script("return document.querySelector('.findings').innerText")
        assert "text 'fine print' is 4.0 pt" in text and "PRINT" in text.upper()
        assert driver.execute_script("return document.querySelectorAll('.tile.warned').length") == 3
        driver.save_screenshot(str(tmp_path / "preview.png"))    # to look at when it fails
        edit(face, "size: 4,", "size: 8,")
        wait_for(driver, "document.body.innerText.includes('no print findings')")
        assert driver.execute_script("return document.querySelectorAll('.tile.warned').length") == 0
    finally:
        driver.quit()
        if running is not None:
            running.close()
