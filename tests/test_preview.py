"""`pnpgen preview`: the snapshot of a game (faces, labels, sources, findings) without a
server; the HTTP side against a server on a free loopback port; and the designer's loop in
a real headless Chromium (Debian's chromium and chromedriver, driven by Selenium): edit a
card title in a copy of a game, see it on the page without a reload; break the YAML, see
the error banner over the last good faces; fix it, see the banner go."""

from __future__ import annotations

import io
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

from pnpgen.build import Project, load
from pnpgen.cli import main
from pnpgen.errors import InputError
from pnpgen.preview import start
from pnpgen.preview.live import Live
from pnpgen.preview.snapshot import Images, take
from pnpgen.preview.watch import affected

from .minigame import make_game

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM, CHROMEDRIVER = Path("/usr/bin/chromium"), Path("/usr/bin/chromedriver")

GAME = "title: Mini Quest\ncode: MQ\n"
FACE = """size: poker
code: {color: "#ffffff"}
elements:
  - rect: {x: 0, y: 0, w: 63.5, h: 88.9, fill: "#2a6f3a", bleed: true}
  - text: {x: 5, y: 40, w: 53.5, h: 12, text: "{{ title }}", size: 14, color: "#ffffff"}
"""
BACK = """size: poker
elements:
  - rect: {x: 0, y: 0, w: 63.5, h: 88.9, fill: "#6a2a2a", bleed: true}
"""
DECK = """name: Heroes
template: face
back: {template: back}
fields:
  title: {required: true}
cards:
  - {title: Alpha}
  - {title: Beta}
  - {title: Gamma}
"""
RULES = """rules:
  - id: ONCE
    text: Every title once.
    unique: title
"""


def mini(tmp_path: Path, deck: str = DECK) -> Project:
    make_game(tmp_path, GAME, deck, {"face": FACE, "back": BACK}, RULES)
    return Project(tmp_path)


def deck_file(project: Project) -> Path:
    return project.cards / "mini" / "decks" / "deck.yaml"


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1))


def game_of(state: dict, game: str = "mini") -> dict:
    return next(g for g in state["games"] if g["id"] == game)


def cards_of(state: dict, game: str = "mini") -> dict:
    return {c["key"]: c for d in game_of(state, game)["decks"] for c in d["cards"]}


def state_of(live: Live) -> dict:
    return json.loads(live.state_json())


def png(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(io.BytesIO(data))


def line_of(path: Path, needle: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if needle in line)


# --- the snapshot, no server ---------------------------------------------------------------------

@pytest.fixture(scope="module")
def swarm():
    images = Images()
    return take(load(Project(ROOT), "swarm"), images), images


def test_every_deck_and_board_of_a_bundled_game_is_shown_with_labels_and_sources(swarm):
    snap, images = swarm
    decks = {d.id: d for d in snap.decks}
    assert set(decks) == {"common", "optional", "counters", "aids", "markers", "board"}
    common = decks["common"]
    assert common.kind == "cards" and common.copies == 73 and len(common.cards) == 73
    assert common.common_back is not None                     # one back for the whole deck
    first = common.cards[0]
    assert (first.code, first.title) == ("SWM-001", "Swarm")
    deck_path = ROOT / "cards/swarm/decks/common.yaml"
    assert first.entry[0].endswith("cards/swarm/decks/common.yaml")
    assert first.entry[1] == line_of(deck_path, '{title: "Swarm"')
    assert first.template[0].endswith("templates/swarm/evolution.yaml") and first.template[1] >= 1
    assert decks["counters"].kind == "tokens" and all(c.back for c in decks["counters"].cards)  # own backs
    counter = decks["counters"].cards[0]
    assert counter.title != counter.code and "player 1" in counter.title   # no title field: its values
    assert decks["board"].kind == "board" and decks["board"].cards[0].title == "Swarm board"
    # thumbnails: trimmed, at 100 DPI; round tokens keep transparent corners; boards stay small
    with png(images.thumb(first.front.digest)) as im:
        assert im.size == (250, 350)
    with png(images.thumb(counter.front.digest)) as im:
        assert im.mode == "RGBA" and im.getpixel((0, 0))[3] == 0
    with png(images.thumb(decks["board"].cards[0].front.digest)) as im:
        assert max(im.size) <= 1000
    # identical faces share one picture: 225 faces, fewer renders
    faces = [f for d in snap.decks for c in d.cards for f in (c.front, c.back) if f] + \
            [d.common_back for d in snap.decks if d.common_back]
    assert len(faces) > snap.rendered == len({f.digest for f in faces})


def test_a_one_card_edit_renders_that_face_again_and_no_other(tmp_path):
    project = mini(tmp_path)
    live = Live(project)
    live.refresh()
    before = cards_of(state_of(live))
    rendered = len(live.images.log)
    assert rendered == 4                                       # three fronts and the common back
    edit(deck_file(project), "{title: Beta}", "{title: Bravo}")
    live.refresh()
    after = cards_of(state_of(live))
    assert live.images.log[rendered:] == [after["MQ-002"]["front"]["digest"]]
    assert after["MQ-002"]["title"] == "Bravo"
    assert after["MQ-002"]["front"]["digest"] != before["MQ-002"]["front"]["digest"]
    for code in ("MQ-001", "MQ-003"):
        assert after[code]["front"] == before[code]["front"]
    # a template edit redraws the faces drawn with it (the three fronts), not the back
    edit(project.templates / "mini" / "face.yaml", "#2a6f3a", "#2a3a6f")
    live.refresh()
    assert len(live.images.log) == rendered + 1 + 3
    # the faces no snapshot shows are let go
    assert before["MQ-002"]["front"]["digest"] not in live.images.thumbs


def test_bad_input_is_listed_as_the_cli_prints_it_over_the_last_good_faces_until_fixed(tmp_path):
    project = mini(tmp_path)
    live = Live(project)
    live.refresh()
    good = cards_of(state_of(live))
    path = deck_file(project)
    edit(path, "{title: Gamma}", "{title: Gamma, colour: red}")
    with pytest.raises(InputError) as exc:
        load(project, "mini")
    expected = [str(p) for p in exc.value.problems]
    assert len(expected) == 1 and expected[0].startswith(f"{path}:{line_of(path, 'Gamma')}: cards[2]: unknown field")
    cli = CliRunner().invoke(main, ["--root", str(tmp_path), "check", "mini"])
    assert cli.exit_code == 2 and cli.stderr.splitlines() == expected     # the same lines as the CLI
    live.refresh()
    state = state_of(live)
    game = game_of(state)
    assert game["errors"] == expected and game["stale"] and state["errors"] == 1
    assert cards_of(state) == {**good, "MQ-003": {**good["MQ-003"], "marks": [
        {"text": expected[0], "severity": "error", "kind": "input"}]}}     # the last good faces, the card marked
    # a YAML syntax error, at its line
    path.write_text(DECK.replace("{title: Gamma}", "{title: Gamma"))
    live.refresh()
    (error,) = game_of(state_of(live))["errors"]
    assert error.startswith(f"{path}:") and "Traceback" not in error
    # fixed: the errors go, the page draws the fixed card
    path.write_text(DECK.replace("Gamma", "Gamma Ray"))
    live.refresh()
    state = state_of(live)
    assert game_of(state)["errors"] == [] and not game_of(state)["stale"]
    assert cards_of(state)["MQ-003"]["title"] == "Gamma Ray" and cards_of(state)["MQ-003"]["marks"] == []


def test_rule_findings_and_layout_warnings_are_listed_and_marked_on_their_cards(tmp_path):
    long_title = "word " * 300
    project = mini(tmp_path, DECK.replace("{title: Gamma}", "{title: Alpha}\n  - {title: " + long_title + "}"))
    live = Live(project)
    live.refresh()
    assert game_of(state_of(live))["warnings_pending"]
    live.settle()
    state = state_of(live)
    game, cards = game_of(state), cards_of(state)
    (rule,) = game["rules"]
    assert rule["severity"] == "error" and "ONCE" in rule["text"] and set(rule["cards"]) == {"MQ-001", "MQ-003"}
    assert game["rule_errors"] == 1 and state["errors"] == 1
    assert [m["text"] for m in cards["MQ-003"]["marks"]] == [rule["text"]]
    (warning,) = game["warnings"]
    path = deck_file(project)
    assert warning["text"].startswith(f"warning: {path}:{line_of(path, 'word word')}: card MQ-004: text does not fit")
    assert warning["cards"] == ["MQ-004"] and not game["warnings_pending"]
    assert cards["MQ-004"]["marks"] == [{"text": warning["text"], "severity": "warning", "kind": "layout"}]
    assert cards["MQ-002"]["marks"] == []


def test_a_face_opened_is_drawn_at_print_resolution_with_the_bleed(tmp_path):
    live = Live(mini(tmp_path))
    live.refresh()
    face = cards_of(state_of(live))["MQ-001"]["front"]
    with png(live.image("mini", face["digest"], full=True)) as im:
        assert im.size == (825, 1125) and round(im.info["dpi"][0]) == 300    # (63.5 + 2 x 3.175) mm at 300 DPI
        assert im.getpixel((3, 3))[:3] == (0x2a, 0x6f, 0x3a)                    # art runs into the bleed
    assert live.image("mini", "0" * 32, full=True) is None


def test_a_touched_up_image_redraws_the_faces_that_show_it(tmp_path):
    face = 'size: poker\nelements:\n  - image: {src: "art.png", x: 0, y: 0, w: 63.5, h: 88.9, fit: stretch}\n'
    make_game(tmp_path, GAME, DECK, {"face": face, "back": BACK})
    art = tmp_path / "cards" / "mini" / "art.png"
    Image.new("RGB", (20, 20), (255, 0, 0)).save(art)
    live = Live(Project(tmp_path))
    live.refresh()

    def front():
        digest = cards_of(state_of(live))["MQ-001"]["front"]["digest"]
        with png(live.images.thumb(digest)) as im:
            return digest, im.getpixel((125, 175))[:3]

    before = front()
    assert before[1] == (255, 0, 0)
    Image.new("RGB", (20, 20), (0, 0, 255)).save(art)
    assert affected(live, [art]) == {"mini"}
    rendered = len(live.images.log)
    live.refresh()
    after = front()
    assert after[1] == (0, 0, 255) and after[0] != before[0]
    assert len(live.images.log) == rendered + 3        # the three fronts; the back shows no image


def test_changed_files_reload_only_their_game(tmp_path):
    live = Live(Project(tmp_path))
    cards, templates = tmp_path / "cards", tmp_path / "templates"
    assert affected(live, [cards / "swarm" / "decks" / "common.yaml", templates / "bad-maps" / "map.yaml"]) \
        == {"swarm", "bad-maps"}
    assert affected(live, [templates / "shared" / "frame.yaml"]) is None      # used by any game
    assert affected(live, [cards / "README.md"]) is None


# --- HTTP and server-sent events on a loopback port ------------------------------------------------

@pytest.fixture
def served(tmp_path):
    project = mini(tmp_path)
    running = start(project, ("mini",), port=0, workers=1)
    assert running.watcher.ready.wait(10)
    try:
        yield project, running
    finally:
        running.close()


def get(url: str, headers: dict | None = None):
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}), timeout=10) as response:
        return response.status, response.headers.get("Content-Type"), response.read()


def test_the_page_its_state_and_its_images_are_served_on_loopback(served):
    _, running = served
    url = running.url
    assert url.startswith("http://127.0.0.1:") and running.server.port != 8765
    status, kind, body = get(url)
    assert status == 200 and kind.startswith("text/html") and b"pnpgen preview" in body
    assert b'src="/static/app.js"' in body and b'="http' not in body and b'="//' not in body   # nothing from afar
    for name in ("app.js", "style.css"):
        status, _, body = get(url + "static/" + name)
        assert status == 200 and len(body) > 1000 and b"http" not in body
    status, kind, body = get(url + "state.json")
    state = json.loads(body)
    assert kind == "application/json" and cards_of(state)["MQ-001"]["title"] == "Alpha"
    face = cards_of(state)["MQ-001"]["front"]
    status, kind, body = get(url + face["thumb"].lstrip("/"))
    assert kind == "image/png" and png(body).size == (250, 350)
    status, kind, body = get(url + face["full"].lstrip("/"))
    assert png(body).size == (825, 1125)
    with pytest.raises(urllib.error.HTTPError) as missing:
        get(url + "img/mini/" + "0" * 32 + ".png")
    assert missing.value.code == 404
    with pytest.raises(urllib.error.HTTPError) as foreign:      # another host name: DNS rebinding
        get(url + "state.json", {"Host": "attacker.example:80"})
    assert foreign.value.code == 403


def test_a_save_sends_an_event_and_the_new_state_follows(served):
    project, running = served
    url = running.url
    with urllib.request.urlopen(url + "events", timeout=10) as events:
        assert events.headers.get("Content-Type") == "text/event-stream"

        def next_event() -> dict:
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                line = events.readline()
                assert line, "the event stream closed"
                if line.startswith(b"data: "):
                    return json.loads(line[6:])
            raise AssertionError("no event within 10 s")

        first = next_event()                                  # the state as it is, on connecting
        assert first["version"] >= 1
        start_time = time.monotonic()
        edit(deck_file(project), "{title: Alpha}", "{title: Aleph}")
        for _ in range(20):
            news = next_event()
            if news["version"] > first["version"]:
                state = json.loads(get(url + "state.json")[2])
                if cards_of(state)["MQ-001"]["title"] == "Aleph":
                    break
        else:
            raise AssertionError("the edit never reached the state")
        assert time.monotonic() - start_time < 10


def _after_ctrl_c(proc: subprocess.Popen, seconds: float = 20) -> tuple[str, str]:
    """Ctrl-C, then the process's output once it has ended. A process still running after
    `seconds` is stopped with SIGABRT, which (PYTHONFAULTHANDLER) prints every thread's stack:
    the test fails with it (as it would have when serve() could lose a Ctrl-C: seen once)."""
    proc.send_signal(signal.SIGINT)
    try:
        return proc.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGABRT)
        _, err = proc.communicate(timeout=30)
        raise AssertionError(f"still running {seconds:g} s after Ctrl-C; its threads then:\n{err[-8000:]}") from None


def test_the_command_prints_the_address_serves_and_stops_on_ctrl_c(tmp_path):
    mini(tmp_path)
    proc = subprocess.Popen([sys.executable, "-m", "pnpgen", "--root", str(tmp_path), "preview", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONFAULTHANDLER": "1"})
    try:
        first = proc.stdout.readline()                        # printed as soon as the port is bound
        assert first.startswith("pnpgen preview: http://127.0.0.1:"), first
        url = first.split(": ", 1)[1].strip()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:                    # the page fills in once every face is drawn
            state = json.loads(get(url + "state.json")[2])
            if state["games"]:
                break
            time.sleep(0.1)
        assert cards_of(state)["MQ-001"]["title"] == "Alpha"
    finally:
        out, err = _after_ctrl_c(proc)
    assert proc.returncode == 0 and "Traceback" not in err and "mini: 4 faces rendered" in err


def test_the_command_refuses_an_unknown_game_and_a_taken_port(tmp_path):
    mini(tmp_path)
    result = CliRunner().invoke(main, ["--root", str(tmp_path), "preview", "minu"])
    assert result.exit_code == 2 and "no game 'minu'" in result.stderr and "did you mean 'mini'" in result.stderr
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner().invoke(main, ["--root", str(tmp_path), "preview", "--port", str(port)])
    assert result.exit_code == 2 and result.stderr.startswith(f"127.0.0.1:{port}: cannot serve the preview")
    assert "choose another with --port N" in result.stderr and "Traceback" not in result.stderr


# --- a real browser ------------------------------------------------------------------------------

def _browser():
    if not (CHROMIUM.exists() and CHROMEDRIVER.exists()):
        pytest.skip("needs Debian's chromium and chromium-driver (/usr/bin/chromium, /usr/bin/chromedriver): "
                    "apt-get install chromium chromium-driver")
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,900"):
        options.add_argument(arg)
    # the driver's own path: selenium-manager is never asked to find (or download) one
    return webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)), options=options)


def wait_for(driver, script: str, seconds: float = 15.0):
    """Poll a JavaScript expression until it is truthy (bounded); its value."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = driver.execute_script("return " + script)
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"not true within {seconds:g} s: {script}")


@pytest.fixture
def swarm_copy(tmp_path):
    (tmp_path / "templates").mkdir()
    shutil.copytree(ROOT / "cards" / "swarm", tmp_path / "cards" / "swarm")
    shutil.copytree(ROOT / "templates" / "swarm", tmp_path / "templates" / "swarm")
    return Project(tmp_path)


def test_in_a_browser_an_edit_shows_without_a_reload_and_bad_input_shows_a_banner_until_fixed(swarm_copy):
    driver = _browser()
    running = None
    try:
        running = start(swarm_copy, ("swarm",), port=0, workers=1)
        assert running.watcher.ready.wait(10)
        driver.get(running.url)
        wait_for(driver, "document.querySelectorAll('.tile').length > 150")
        wait_for(driver, "document.querySelector('#live').classList.contains('on')")
        assert "Hive" in driver.execute_script("return document.body.innerText")
        driver.execute_script("window.__previewMarker = 'no reload'")
        deck = swarm_copy.cards / "swarm" / "decks" / "common.yaml"
        hive = '{title: "Hive",'

        # edit one card's title: the page shows it by itself, in about a second
        saved = time.monotonic()
        edit(deck, hive, '{title: "Hive Mind",')
        wait_for(driver, "document.body.innerText.includes('Hive Mind')")
        latency = time.monotonic() - saved
        assert driver.execute_script("return window.__previewMarker") == "no reload"
        assert latency < 15
        print(f"edit to page: {latency:.2f} s")

        # the card opens at print resolution beside its file:line
        line = line_of(deck, "Hive Mind")
        driver.execute_script("""[...document.querySelectorAll('.tile')]
            .find(t => t.querySelector('.title').textContent === 'Hive Mind').click()""")
        wait_for(driver, f"document.querySelector('#lb-info').innerText.includes('common.yaml:{line}')")
        wait_for(driver, "[...document.querySelectorAll('#lb-stage img')].every(i => i.complete && i.naturalWidth"
                         " === 825)")
        driver.execute_script("document.querySelector('#lb-close').click()")

        # break the YAML: a banner with the CLI's lines, over the last good faces
        edit(deck, '{title: "Hive Mind",', '{title: "Hive Mind"')
        with pytest.raises(InputError) as exc:
            load(swarm_copy, "swarm")
        first = str(exc.value.problems[0])
        wait_for(driver, "!document.querySelector('#banner').hidden")
        wait_for(driver, f"document.querySelector('#banner').innerText.includes({json.dumps(first)})")
        assert driver.execute_script("return document.querySelectorAll('.tile').length") > 150
        assert driver.execute_script("return document.querySelector('.game').classList.contains('stale')")

        # fix it: the banner goes
        edit(deck, '{title: "Hive Mind"', '{title: "Hive Mind",')
        wait_for(driver, "document.querySelector('#banner').hidden")
        assert not driver.execute_script("return document.querySelector('.game').classList.contains('stale')")
        assert driver.execute_script("return window.__previewMarker") == "no reload"
    finally:
        driver.quit()
        if running is not None:
            running.close()
