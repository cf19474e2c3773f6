"""`pnpgen preview --since REF`: the page lists what prints differently than at REF, with a
picture of each change. Against a temporary git repository holding a copy of Swarm: edit a
title, see the card listed as changed with a before / now / difference picture (magenta
where the title moved), drawn once however often the game reloads; a bad REF stops before
serving, as `pnpgen changes` does; and in a real headless Chromium the changes section shows
the edited title without a page reload, the card marked in the grid."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

from pnpgen.build import Project
from pnpgen.cli import main
from pnpgen.errors import InputError
from pnpgen.preview import start
from pnpgen.revisions.pictures import DPI, HEADER, LABEL, MAGENTA, MARGIN

from .test_preview import _browser, edit, mini, wait_for

ROOT = Path(__file__).resolve().parent.parent
GIT_ENV = {"GIT_AUTHOR_DATE": "2026-01-02T03:04:05+00:00", "GIT_COMMITTER_DATE": "2026-01-02T03:04:05+00:00",
           "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}
HIVE = '{title: "Hive",'
SWARM = '{title: "Swarm",'


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), "-c", "user.name=Tester", "-c", "user.email=tester@example.org",
                           *args], check=True, capture_output=True, text=True,
                          env={**os.environ, **GIT_ENV}).stdout.strip()


@pytest.fixture
def repo(tmp_path) -> Project:
    """Swarm (with every template) committed in a fresh git repository."""
    shutil.copytree(ROOT / "cards" / "swarm", tmp_path / "cards" / "swarm")
    shutil.copytree(ROOT / "templates", tmp_path / "templates")
    git(tmp_path, "-c", "init.defaultBranch=main", "init", "-q")
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-q", "-m", "Swarm")
    return Project(tmp_path)


def common_deck(project: Project) -> Path:
    return project.cards / "swarm" / "decks" / "common.yaml"


def get(url: str) -> tuple[str, bytes]:
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.headers.get("Content-Type"), response.read()


def changes_of(url: str) -> dict:
    state = json.loads(get(url + "state.json")[1])
    (game,) = state["games"]
    return game["changes"]


def wait_until(what, seconds: float = 15.0):
    """Poll until `what()` is truthy (bounded); its value."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = what()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"not within {seconds:g} s")


def changed(url: str, code: str, title: str):
    """The change listed for `code` once it shows `title` (and the comparison is done), else None."""
    found = changes_of(url)
    if found["pending"]:
        return None
    return next((c for c in found["items"] if c["code"] == code and c["title"] == title), None)


@pytest.fixture
def served(repo):
    running = start(repo, ("swarm",), port=0, workers=1, since="HEAD")
    try:
        assert running.watcher.ready.wait(10)
        yield repo, running
    finally:
        running.close()


def test_an_edited_title_is_listed_as_changed_with_a_picture_drawn_once(served):
    project, running = served
    url = running.url
    first = changes_of(url)
    sha = git(project.root, "rev-parse", "--short", "HEAD")
    assert first["since"] == f"HEAD ({sha})" and first["ready"] and not first["problems"]
    assert first["status"] == "compared" and first["items"] == [] and not any(first["counts"].values())

    edit(common_deck(project), HIVE, '{title: "Hive Mind",')
    change = wait_until(lambda: changed(url, "SWM-003", "Hive Mind"))
    assert change["kind"] == "changed" and change["old_title"] == "Hive" and change["sides"] == ["front"]
    assert change["tile"] == "cards:common/SWM-003" and change["deck_name"] == "Common deck"
    counts = changes_of(url)["counts"]
    assert counts == {"changed": 1, "added": 0, "removed": 0, "copies": 0, "renumbered": 0}

    # the picture: before | now | difference at 150 DPI, the title's pixels in magenta
    (picture,) = change["pictures"]
    assert picture["side"] == "front"
    kind, body = get(url + picture["url"].lstrip("/"))
    assert kind == "image/png" and body[:8] == b"\x89PNG\r\n\x1a\n"
    pw, ph = round(63.5 / 25.4 * DPI), round(88.9 / 25.4 * DPI)            # a poker card, trimmed
    with Image.open(io.BytesIO(body)) as im:
        assert im.size == (MARGIN + 3 * (pw + MARGIN), MARGIN + HEADER + LABEL + ph + MARGIN)
        top = MARGIN + HEADER + LABEL
        panels = [im.crop((MARGIN + i * (pw + MARGIN), top, MARGIN + i * (pw + MARGIN) + pw, top + ph)).convert("RGB")
                  for i in range(3)]
    magenta = [[(x, y) for x in range(0, pw, 2) for y in range(0, ph, 2) if p.getpixel((x, y)) == MAGENTA]
               for p in panels]
    assert not magenta[0] and not magenta[1] and len(magenta[2]) > 100
    assert max(y for _, y in magenta[2]) < 16 / 25.4 * DPI              # only the title band moved

    # drawn once: another card's edit leaves this picture as it was, and it is not drawn again
    drawn = list(running.live.pictures.log)
    assert len(drawn) == 1
    edit(common_deck(project), SWARM, '{title: "Swarm Lord",')
    other = wait_until(lambda: changed(url, "SWM-001", "Swarm Lord"))
    again = changed(url, "SWM-003", "Hive Mind")
    assert again["pictures"] == change["pictures"]
    assert get(url + picture["url"].lstrip("/"))[1] == body
    get(url + other["pictures"][0]["url"].lstrip("/"))
    assert running.live.pictures.log == drawn + [other["pictures"][0]["url"].rsplit("/", 1)[1][:-4]]

    # reverted: no longer listed, its picture let go
    edit(common_deck(project), '{title: "Hive Mind",', HIVE)
    wait_until(lambda: not changes_of(url)["pending"] and [c["code"] for c in changes_of(url)["items"]] == ["SWM-001"])
    with pytest.raises(urllib.error.HTTPError) as gone:
        get(url + picture["url"].lstrip("/"))
    assert gone.value.code == 404

    # the earlier side is read out of git once, into a folder that goes with the preview
    folder = running.revision.project.root
    assert folder.is_dir() and (folder / "cards" / "swarm" / "game.yaml").is_file()
    running.close()
    assert not folder.exists()


def test_a_bad_ref_stops_before_serving_as_changes_does(repo):
    with pytest.raises(InputError) as exc:
        start(repo, ("swarm",), port=0, workers=1, since="no-such-ref")
    assert str(exc.value.problems[0]).startswith("pnpgen: --since no-such-ref: no such revision")
    runner = CliRunner()
    preview = runner.invoke(main, ["--root", str(repo.root), "preview", "swarm", "--port", "0",
                                   "--since", "no-such-ref"])
    changes = runner.invoke(main, ["--root", str(repo.root), "changes", "swarm", "--since", "no-such-ref"])
    assert preview.exit_code == changes.exit_code == 2
    assert preview.stderr == changes.stderr and "no such revision" in preview.stderr
    assert "pnpgen preview: http" not in preview.stdout          # nothing was served


def test_without_since_the_page_has_no_changes(tmp_path):
    # (a small game: what is asked does not depend on the game, and Swarm takes seconds to draw)
    running = start(mini(tmp_path), ("mini",), port=0, workers=1, watch=False)
    try:
        assert changes_of(running.url) is None and running.revision is None
    finally:
        running.close()


def test_in_a_browser_the_changes_section_shows_an_edit_without_a_reload(served):
    driver = _browser()
    project, running = served
    try:
        driver.get(running.url)
        wait_for(driver, "document.querySelectorAll('.tile').length > 150")
        wait_for(driver, "document.querySelector('#live').classList.contains('on')")
        wait_for(driver, "document.querySelector('.since').innerText.includes('nothing prints differently')")
        assert driver.execute_script("return document.querySelectorAll('.since-mark').length") == 0
        driver.execute_script("window.__previewMarker = 'no reload'")

        edit(common_deck(project), HIVE, '{title: "Hive Mind",')
        wait_for(driver, "[...document.querySelectorAll('.since .change')].some(r => "
                         "r.querySelector('.title').textContent === 'Hive Mind')")
        row = "[...document.querySelectorAll('.since .change')].find(r => r.querySelector('.title')" \
              ".textContent === 'Hive Mind')"
        assert "was \u201cHive\u201d" in driver.execute_script(f"return {row}.innerText")
        assert driver.execute_script("return window.__previewMarker") == "no reload"
        # the card is marked in its deck; its picture loads; a click on the row opens the card
        mark = "document.querySelector('.since-mark')"
        assert driver.execute_script(f"return {mark}.closest('.tile').querySelector('.title').textContent") \
            == "Hive Mind"
        assert "since HEAD" in driver.execute_script(f"return {mark}.title")
        wait_for(driver, f"{row}.querySelector('img').complete && {row}.querySelector('img').naturalWidth === "
                         f"{MARGIN + 3 * (round(63.5 / 25.4 * DPI) + MARGIN)}")
        driver.execute_script(f"{row}.click()")
        wait_for(driver, "!document.querySelector('#lightbox').hidden && "
                         "document.querySelector('#lb-info h2').textContent === 'Hive Mind'")
        assert "was \u201cHive\u201d" in driver.execute_script("return document.querySelector('#lb-info').innerText")
    finally:
        driver.quit()
