"""Benchmark: build a synthetic deck of poker cards (title, three lines of text, a number,
a common back) with pnpgen, and draw the same content with bare reportlab and no pipeline.
Both run as fresh processes, so start-up is included, and by turns, so a machine whose speed
drifts weighs on both alike. Prints cards per second, peak memory, PDF size and the pnpgen /
bare-reportlab time ratio.

    python benchmarks/bench.py            # 1,000, 10,000 and 20,000 cards, best of 5 runs each
    python benchmarks/bench.py 2000       # other sizes

Then peak memory by deck size (1,000, 5,000 and 20,000 cards, with and without the build
cache), each against 1,000 cards: it should stay within 20 %. Then the build cache: a clean
build, a rebuild with nothing changed and a rebuild after a one-card edit (checked byte for
byte against a clean build), wall and CPU seconds: `python benchmarks/bench.py incremental`
runs that part alone. Then art (`python benchmarks/bench.py art` alone): 100 cards, each with
its own full-bleed 3000 x 4200 RGBA PNG, against the time Pillow alone takes to decode those
files in one process: a clean build, its peak memory and PDF, the finest image in the PDF,
and rebuilds with the art unchanged. Then boards: a generated hex
board of 10 x 10 and 20 x 10 hexes (generation, drawing and tiling, in process, so without
start-up), and the whole bundled project (`pnpgen build`, every game, as a fresh process).
Last, a 2,000-card deck loaded from .xlsx, .ods and .csv card sheets against the same deck in
YAML (`python benchmarks/bench.py spreadsheets` runs that part alone).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GAME = """title: Bench
code: BEN
paper: letter
card_size: poker
"""

TEMPLATE = """size: poker
elements:
  - rect: {x: 0, y: 0, w: 63.5, h: 88.9, fill: "#e8e0c8", bleed: true}
  - rect: {x: 4, y: 4, w: 55.5, h: 80.9, r: 2, stroke: "#333333", stroke_width: 0.4}
  - text: {x: 6, y: 6, w: 51.5, h: 9, text: "{{ title }}", font: sans-bold, size: 13, align: center, valign: middle}
  - text: {x: 7, y: 40, w: 49.5, h: 30, text: "{{ body }}", size: 9}
  - text: {x: 6, y: 74, w: 12, h: 8, text: "{{ value }}", font: sans-bold, size: 16}
"""

BACK = """size: poker
code: false
elements:
  - rect: {x: 0, y: 0, w: 63.5, h: 88.9, fill: "#1f3a5f", bleed: true}
  - text: {x: 5, y: 40, w: 53.5, h: 10, text: "BENCH", font: sans-bold, size: 24, align: center, color: white}
"""

LINES = ["Draw two cards, then discard one.",
         "Each opponent loses one point.",
         "Your pieces cannot be moved."]

# The same content drawn with reportlab alone: the cards, their backs, crop marks and a
# slug line per page; what any tool must at least spend.
BARE = r'''
import sys, time
from reportlab import rl_config
rl_config.useA85 = 0
from reportlab.pdfgen.canvas import Canvas
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
import pnpgen.fonts as F
n, out = int(sys.argv[1]), sys.argv[2]
pdfmetrics.registerFont(TTFont("sans", str(F.BUILTIN["sans"])))
pdfmetrics.registerFont(TTFont("sans-bold", str(F.BUILTIN["sans-bold"])))
MM = 72 / 25.4
W, H = 63.5 * MM, 88.9 * MM
c = Canvas(out, pagesize=(612, 792), invariant=1, initialFontName="sans")
c.beginForm("back", 0, 0, W, H)
c.setFillColorRGB(0.12, 0.23, 0.37); c.rect(0, 0, W, H, stroke=0, fill=1)
c.setFillColorRGB(1, 1, 1); c.setFont("sans-bold", 24); c.drawCentredString(W / 2, H / 2, "BENCH")
c.endForm()
lines = %r
slots = [(36 + (i %% 2) * 270, 36 + (i // 2) * 180) for i in range(8)]
marks = [(x, 768, x, 778) for x in (54, 306, 558)] + [(x, 24, x, 14) for x in (54, 306, 558)] + \
        [(42, y, 28, y) for y in (36, 216, 396, 576, 756)] + [(570, y, 584, y) for y in (36, 216, 396, 576, 756)]
for s in range(0, n, 8):
    k = min(8, n - s)
    for i in range(k):
        x, y = slots[i]
        c.saveState(); c.translate(x + H, y); c.rotate(90)
        c.setFillColorRGB(0.91, 0.88, 0.78); c.rect(0, 0, W, H, stroke=0, fill=1)
        c.setStrokeColorRGB(0.2, 0.2, 0.2); c.roundRect(11, 11, W - 22, H - 22, 6, stroke=1, fill=0)
        c.setFillColorRGB(0, 0, 0)
        c.setFont("sans-bold", 13); c.drawCentredString(W / 2, H - 30, "Card %%d" %% (s + i + 1))
        c.setFont("sans", 9)
        for j, line in enumerate(lines):
            c.drawString(20, H - 120 - j * 11, line)
        c.setFont("sans-bold", 16); c.drawString(18, 25, str((s + i) %% 10))
        c.setFont("sans", 4.5); c.drawCentredString(W / 2, 6.5, "BEN-%%03d" %% (s + i + 1))
        c.restoreState()
    c.setLineWidth(0.25); c.lines(marks)
    c.saveState(); c.translate(20, 396); c.rotate(90); c.setFont("sans", 6)
    c.drawCentredString(0, 0, "Bench - sheet %%d - FRONT - print at 100 %%%%" %% (s // 8 + 1)); c.restoreState()
    c.showPage()
    for i in range(k):
        x, y = slots[i]
        c.saveState(); c.translate(x, y); c.doForm("back"); c.restoreState()
    c.saveState(); c.translate(20, 396); c.rotate(90); c.setFont("sans", 6)
    c.drawCentredString(0, 0, "Bench - sheet %%d - BACK - print at 100 %%%%" %% (s // 8 + 1)); c.restoreState()
    c.showPage()
c.save()
''' % (LINES,)


def make_game(root: Path, n: int) -> None:
    game = root / "cards" / "bench"
    (game / "decks").mkdir(parents=True)
    (root / "templates" / "bench").mkdir(parents=True)
    (game / "game.yaml").write_text(GAME)
    (root / "templates" / "bench" / "card.yaml").write_text(TEMPLATE)
    (root / "templates" / "bench" / "back.yaml").write_text(BACK)
    body = "\\n".join(LINES)
    rows = ["name: Bench deck", "template: card", "back: {template: back}",
            "fields: {title: {required: true}, body: {}, value: {type: int}}", "cards:"]
    rows += [f'  - {{title: "Card {i + 1}", body: "{body}", value: {i % 10}}}' for i in range(n)]
    (game / "decks" / "deck.yaml").write_text("\n".join(rows) + "\n")


def run(cmd, cwd=None) -> tuple[float, float]:
    """Wall seconds and peak resident memory (MB) of a child process."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    if status:
        sys.exit(f"command failed: {' '.join(map(str, cmd))}")
    return elapsed, usage.ru_maxrss / 1024


def best(cmd, repeat):
    """Fastest of `repeat` runs (the others measure the machine's noise), with its peak memory."""
    return min(run(cmd) for _ in range(repeat))


def best_pair(cmd, other, repeat):
    """The fastest of `repeat` runs of `cmd` and of `other`, run by turns (so a machine whose
    speed drifts, as a shared one does, weighs on both alike), each with its peak memory."""
    runs = [(run(cmd), run(other)) for _ in range(repeat)]
    return min(a for a, _ in runs), min(b for _, b in runs)


def compiled() -> None:
    """Start-up is timed as a user sees it after the first run: from compiled bytecode (this
    machine sets PYTHONDONTWRITEBYTECODE, so Python would recompile on every run)."""
    import pnpgen
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(Path(pnpgen.__file__).parent)], check=True)


def main(sizes, repeat=5):
    compiled()
    print(f"{'cards':>7} {'pnpgen s':>9} {'cards/s':>8} {'peak MB':>8} {'PDF KB':>8} "
          f"{'bare s':>7} {'bare MB':>8} {'ratio':>6}")
    for n in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            make_game(root, n)
            bare_pdf = root / "bare.pdf"
            (root / "bare.py").write_text(BARE)
            (t, mem), (tb, memb) = best_pair(
                [sys.executable, "-m", "pnpgen", "--root", str(root), "build", "-q", "--no-cache"],
                [sys.executable, str(root / "bare.py"), str(n), str(bare_pdf)], repeat)
            size_kb = sum(p.stat().st_size for p in (root / "out" / "bench").glob("deck*.pdf")) / 1024
            print(f"{n:>7} {t:>9.2f} {n / t:>8.0f} {mem:>8.0f} {size_kb:>8.0f} {tb:>7.2f} {memb:>8.0f} {t / tb:>6.2f}")


def memory(sizes=(1000, 5000, 20000), repeat=3, limit=0.20):
    """Peak resident memory of `pnpgen build` (a fresh process) by deck size, without and with
    the build cache (first build, then a rebuild after a one-card edit), each against 1,000
    cards: memory should stay flat, within `limit`, however long the deck."""
    print(f"{'cards':>7} {'no cache MB':>12} {'cached MB':>10} {'edit MB':>8}   above {sizes[0]:,} cards")
    base = None
    for n in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            make_game(root, n)
            cmd = [sys.executable, "-m", "pnpgen", "--root", str(root), "build", "-q"]
            clean = min(run(cmd + ["--no-cache", "--out", str(root / "clean")])[1] for _ in range(repeat))
            cached = run(cmd)[1]
            deck = root / "cards" / "bench" / "decks" / "deck.yaml"
            deck.write_text(deck.read_text().replace('title: "Card 1"', 'title: "Card 1, edited"'))
            edit = run(cmd)[1]
        row = (clean, cached, edit)
        base = base or row
        growth = ", ".join(f"{(m / b - 1) * 100:+.0f} %" for m, b in zip(row, base))
        print(f"{n:>7} {clean:>12.0f} {cached:>10.0f} {edit:>8.0f}   {growth}")
    worst = max((m / b - 1) for m, b in zip(row, base))
    print(f"peak memory at {sizes[-1]:,} cards: at most {worst * 100:+.0f} % of that at {sizes[0]:,} "
          f"({'within' if worst <= limit else 'OVER'} the {limit * 100:.0f} % aim)")


def timed(cmd) -> tuple[float, float]:
    """Wall seconds and CPU seconds (user + system, the process and its workers) of a child process."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    if status:
        sys.exit(f"command failed: {' '.join(map(str, cmd))}")
    return elapsed, usage.ru_utime + usage.ru_stime


def incremental(sizes=(1000, 10000), repeat=3):
    """The build cache: seconds (wall, and CPU in brackets) for a clean build (no cache), a
    rebuild with nothing changed, and a rebuild after one card's title is edited, each a fresh
    `pnpgen build` process, best of `repeat` taken by turns (clean, unchanged, edited, clean...);
    and how many of the deck's PDFs the edit wrote again. The edited rebuild is checked byte for byte against a clean build of the edited deck."""
    import filecmp
    print(f"{'cards':>7} {'clean s':>13} {'unchanged s':>13} {'one edit s':>13} {'edit/clean':>11} {'PDFs written':>13}")
    for n in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            make_game(root, n)
            cmd = [sys.executable, "-m", "pnpgen", "--root", str(root), "build", "-q"]
            run(cmd)                                   # fills the cache
            deck = root / "cards" / "bench" / "decks" / "deck.yaml"
            text = deck.read_text()
            cleans, unchanged, edits, written = [], [], [], 0
            for i in range(repeat):   # by turns, so a drifting machine weighs on each alike
                cleans.append(timed(cmd + ["--no-cache", "--out", str(root / "clean")]))
                unchanged.append(timed(cmd))
                # a different card each time, so each is a real edit
                deck.write_text(text.replace(f'title: "Card {n // 2 + i}"', f'title: "Card {n // 2 + i}, edited"'))
                before = {p.name: p.stat().st_ino for p in (root / "out" / "bench").glob("*.pdf")}
                edits.append(timed(cmd))
                written = sum(p.stat().st_ino != before.get(p.name) for p in (root / "out" / "bench").glob("*.pdf"))
            clean, unchanged = min(cleans), min(unchanged)
            run(cmd + ["--no-cache", "--out", str(root / "clean")])
            pdfs = sorted((root / "clean" / "bench").glob("*.pdf"))
            same = all(filecmp.cmp(p, root / "out" / "bench" / p.name, shallow=False)
                       for p in pdfs + [root / "clean" / "bench" / "manifest.json"])
            if not same:
                sys.exit("the incremental build differs from a clean build")
            edit = min(edits)
            print(f"{n:>7} {clean[0]:>6.2f} ({clean[1]:.2f}) {unchanged[0]:>6.2f} ({unchanged[1]:.2f}) "
                  f"{edit[0]:>6.2f} ({edit[1]:.2f}) {edit[0] / clean[0]:>5.2f} ({edit[1] / clean[1]:.2f}) "
                  f"{written:>7} of {len(pdfs)}")


ART_TEMPLATE = """size: poker
elements:
  - image: {src: "art/{{ art }}", x: 0, y: 0, w: 63.5, h: 88.9, bleed: true}
  - text: {x: 6, y: 6, w: 51.5, h: 9, text: "{{ title }}", font: sans-bold, size: 13, align: center}
"""


def paint(args) -> None:
    """One card's art, 3000 x 4200 RGBA, from its seed: a smooth colour field, a gradient, a
    grain and strokes (deterministic; saved fast, as a paint program's export would be)."""
    from PIL import Image, ImageChops, ImageDraw
    import random
    seed, path = args
    w, h = 3000, 4200
    rnd = random.Random(seed)
    small = Image.new("RGB", (6, 8))
    small.putdata([tuple(rnd.randrange(256) for _ in range(3)) for _ in range(48)])
    base = small.resize((w, h), Image.Resampling.BICUBIC)
    gradient = Image.linear_gradient("L").resize((w, h))
    grain = Image.effect_noise((w // 4, h // 4), 40).resize((w, h), Image.Resampling.BILINEAR)
    r, g, b = base.split()
    base = Image.merge("RGB", [ImageChops.add(r, gradient, 2), ImageChops.multiply(g, grain.point(lambda v: 200 + v // 5)), b])
    draw = ImageDraw.Draw(base)
    for _ in range(12):
        x, y, radius = rnd.randrange(w), rnd.randrange(h), rnd.randrange(80, 600)
        draw.ellipse((x - radius, y - radius, x + radius, y + radius),
                     outline=tuple(rnd.randrange(256) for _ in range(3)), width=rnd.randrange(4, 30))
    base.convert("RGBA").save(path, compress_level=1)


def make_art_game(root: Path, n: int) -> list[Path]:
    """A deck of n cards, each drawing its own art file full bleed; the files it draws."""
    from multiprocessing import Pool
    game = root / "cards" / "bench"
    (game / "decks").mkdir(parents=True)
    (game / "art").mkdir()
    (root / "templates" / "bench").mkdir(parents=True)
    (game / "game.yaml").write_text(GAME)
    (root / "templates" / "bench" / "card.yaml").write_text(ART_TEMPLATE)
    (root / "templates" / "bench" / "back.yaml").write_text(BACK)
    rows = ["name: Art deck", "template: card", "back: {template: back}",
            "fields: {title: {required: true}, art: {required: true}}", "cards:"]
    rows += [f'  - {{title: "Card {i + 1}", art: "a{i:03}.png"}}' for i in range(n)]
    (game / "decks" / "deck.yaml").write_text("\n".join(rows) + "\n")
    paths = [game / "art" / f"a{i:03}.png" for i in range(n)]
    with Pool() as pool:
        pool.map(paint, list(enumerate(paths)))
    return paths


def decode_seconds(paths: list[Path]) -> float:
    """Pillow alone opening and fully decoding every file, one after another, in this process."""
    from PIL import Image
    start = time.perf_counter()
    for path in paths:
        with Image.open(path) as im:
            im.load()
    return time.perf_counter() - start


def finest_ppi(pdf: Path) -> tuple[float, int]:
    """The finest image in the PDF (pixels per inch at the size it is placed at, from the
    content streams' matrices) and how many images it places."""
    from pypdf import PdfReader
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))     # (the tests' PDF reader)
    from tests.pdfread import placed_images, ppi
    placed = placed_images(PdfReader(pdf))
    return max(map(ppi, placed), default=0.0), len(placed)


def art(n=100, repeat=3):
    """The art-heavy deck (see the module docstring). Targets: a clean build within Pillow's
    decode time + 1 s, peak memory (the build and its workers) under 150 MB, no image finer
    than about 460 ppi, a rebuild with the art unchanged under 1 s; with --keep-images, peak
    memory a few hundred MB at most, however much art."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        start = time.perf_counter()
        paths = make_art_game(root, n)
        made = time.perf_counter() - start
        size = sum(p.stat().st_size for p in paths) / 1e6
        decode = min(decode_seconds(paths) for _ in range(repeat))
        print(f"art: {n} cards, each its own 3000 x 4200 RGBA PNG ({size:.0f} MB in all, made in {made:.0f} s)")
        print(f"  Pillow alone, decoding the {n} files in one process: {decode:.2f} s")
        cmd = [sys.executable, "-m", "pnpgen", "--root", str(root), "build", "-q"]
        builds = []
        for k in range(repeat):
            out = root / f"clean{k}"
            t, mem = run(cmd + ["--out", str(out)])
            builds.append((t, mem, out))
        t, mem, out = min(builds)
        pdf = out / "bench" / "deck.pdf"
        finest, count = finest_ppi(pdf)
        aim = decode + 1
        print(f"  clean build: {t:.2f} s ({'within' if t <= aim else 'OVER'} {aim:.2f} s), peak {max(b[1] for b in builds):.0f} MB "
              f"(the build and its workers), PDF {pdf.stat().st_size / 1e6:.1f} MB, "
              f"{count} images placed, the finest at {finest:.0f} ppi")
        unchanged = min(run(cmd + ["--out", str(out)]) for _ in range(repeat))
        deck = root / "cards" / "bench" / "decks" / "deck.yaml"
        text = deck.read_text()
        edits = []
        for i in range(repeat):     # a title edited: the PDF is written again, every image put back in
            deck.write_text(text.replace(f'title: "Card {i + 2}"', f'title: "Card {i + 2}, edited"'))
            edits.append(run(cmd + ["--out", str(out)]))
        print(f"  rebuild, nothing changed: {unchanged[0]:.2f} s; one title edited (the PDF written again, "
              f"its art taken from out/.cache): {min(edits)[0]:.2f} s, peak {max(e[1] for e in edits):.0f} MB")
        deck.write_text(text)
        t, mem = run(cmd + ["--out", str(root / "kept"), "--keep-images", "--no-cache"])
        kept = root / "kept" / "bench" / "deck.pdf"
        print(f"  --keep-images (every original as it is, streamed into the PDF): {t:.2f} s, peak {mem:.0f} MB, "
              f"PDF {kept.stat().st_size / 1e6:.1f} MB, the finest at {finest_ppi(kept)[0]:.0f} ppi")


def boards(repeat=3):
    """Seconds to generate, lay out, tile and write a Swarm-style hex board, in process."""
    from pnpgen.build import Options, Project, build_loaded, load
    root = Path(__file__).resolve().parent.parent
    print(f"{'board':>10} {'hexes':>6} {'seconds':>8}")
    for cols, rows in ((10, 10), (20, 10)):
        game = load(Project(root), "swarm")
        game.decks = []
        (board,) = [b for b in game.boards if b.board.hexmap]
        gen = board.board.hexmap.model_copy(update={"cols": cols, "rows": rows})
        board.board = board.board.model_copy(update={"hexmap": gen})
        with tempfile.TemporaryDirectory() as tmp:
            times = []
            for _ in range(repeat):
                start = time.perf_counter()
                build_loaded(game, Options(out=Path(tmp), seed=7, rulebook=False))
                times.append(time.perf_counter() - start)
        print(f"{cols:>4} x {rows:<3} {cols * rows:>6} {min(times):>8.2f}")
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, "-m", "pnpgen", "--root", str(root), "build", "-q", "--out", tmp]
        t, mem = best(cmd + ["--no-cache"], repeat)
        run(cmd)
        again, _ = best(cmd, repeat)
    print(f"every bundled game (pnpgen build): {t:.2f} s, {mem:.0f} MB peak; "
          f"again with nothing changed (the build cache, rulebooks kept): {again:.2f} s")


def rulebooks(repeat=3):
    """Seconds to lay out and write each bundled rulebook (and its booklet), in process,
    once the game's decks are prepared (as a build has them)."""
    from pnpgen.build import Options, Project, load, plan_game
    from pnpgen.build.cache import PageCache
    from pnpgen.build.rulebooks import build_rulebook
    from pnpgen.rulebook.source import find
    root = Path(__file__).resolve().parent.parent
    print(f"{'rulebook':>16} {'pages':>6} {'seconds':>8} {'+booklet':>9}")
    for game_id in sorted(p.name for p in (root / "cards").iterdir() if find(p)):
        game = load(Project(root), game_id)
        plan = plan_game(game, Options())
        row = []
        for booklet in (False, True):
            with tempfile.TemporaryDirectory() as tmp:
                times, results = [], []
                for _ in range(repeat):
                    results.clear()
                    start = time.perf_counter()
                    for tmpfile, _target in build_rulebook(plan, Path(tmp), Options(out=Path(tmp), booklet=booklet),
                                                           results, PageCache(None)):     # (none kept)
                        Path(tmpfile).unlink()
                    times.append(time.perf_counter() - start)
                row.append((min(times), results[0].pages))
        print(f"{game_id:>16} {row[0][1]:>6} {row[0][0]:>8.2f} {row[1][0]:>9.2f}")


def exports(n=200):
    """PNG faces per second at 300 DPI and the time for a Tabletop Simulator deck, on a
    generated deck of n different cards (in process, every core)."""
    from pnpgen.build import Project, load
    from pnpgen.export import export_game
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        make_game(root, n)
        game = load(Project(root), "bench")
        for fmt in ("png", "tgc", "tts"):
            start = time.perf_counter()
            result = export_game(game, fmt, root / "out")
            t = time.perf_counter() - start
            print(f"export {fmt:>4}: {n} cards, {result.files} files in {t:.2f} s ({n / t:.0f} cards/s)")


def spreadsheets(n=2000, repeat=7, limit=1.5):
    """Loading a deck of n cards kept in an .xlsx card sheet (written here with openpyxl), an
    .ods one and a .csv one, each against the same deck written in YAML (in process, best of
    `repeat`): the .xlsx deck should load within `limit` times the YAML deck's time."""
    from pnpgen.build import Project, load
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))     # (the card sheet writers the tests use)
    from tests.sheetfiles import write_csv, write_ods, write_xlsx
    body = "\n".join(LINES)
    header = ["title", "body", "value"]
    rows = [[f"Card {i + 1}", body, i % 10] for i in range(n)]
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        make_game(root, n)
        deck = root / "cards" / "bench" / "decks" / "deck.yaml"
        yaml_deck = deck.read_text()
        write_xlsx(root / "cards" / "bench" / "deck.xlsx", {"Cards": [header, *rows]})
        write_ods(root / "cards" / "bench" / "deck.ods", {"Cards": [header, *rows]})
        write_csv(root / "cards" / "bench" / "deck.csv", [header, *rows])
        sheet_deck = yaml_deck.split("cards:")[0]
        times = {}
        for kind in ("yaml", "xlsx", "ods", "csv"):
            deck.write_text(yaml_deck if kind == "yaml" else sheet_deck + f"cards: deck.{kind}\n")
            assert len(load(Project(root), "bench").decks[0].cards) == n
            times[kind] = min(_timed_load(root) for _ in range(repeat))
        shown = ", ".join(f"{k} {t * 1000:.0f} ms ({t / times['yaml']:.2f}x)" for k, t in times.items())
        verdict = "ok" if times["xlsx"] <= limit * times["yaml"] else f"OVER {limit}x"
        print(f"spreadsheet decks, {n} cards loaded: {shown}: xlsx {verdict}")


def _timed_load(root: Path) -> float:
    from pnpgen.build import Project, load
    start = time.perf_counter()
    load(Project(root), "bench")
    return time.perf_counter() - start


if __name__ == "__main__":
    if any(not a.isdigit() for a in sys.argv[1:]) and sys.argv[1:] not in (["incremental"], ["spreadsheets"], ["art"]):
        print(__doc__)
        sys.exit(0 if sys.argv[1:] in (["-h"], ["--help"]) else 2)
    if sys.argv[1:] == ["incremental"]:
        compiled()
        incremental()
        sys.exit()
    if sys.argv[1:] == ["spreadsheets"]:
        spreadsheets()
        sys.exit()
    if sys.argv[1:] == ["art"]:
        compiled()
        art()
        sys.exit()
    main([int(a) for a in sys.argv[1:]] or [1000, 10000, 20000])
    memory()
    incremental()
    boards()
    rulebooks()
    exports()
    spreadsheets()
    art()     # last: reading its 1.35 GB --keep-images PDF grows this process, and a child started
    #          after that (vfork) would report this process's size as its own peak
