"""The rulebook's "Printing and building this kit" section, in Markdown, from the facts of the
build itself (a Kit, which pnpgen.build.printing works out without drawing): which files to
print, what each holds, one- or double-sided and on which edge to flip, how many sheets (for
one copy and for each player count the game supports), on what stock, how to cut and what the marks mean, and how to put the boards together. `pnpgen
list` shows the same facts (Kit.as_dict)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

TITLE = "Printing and building this kit"
PAPER = {"letter": "US Letter (8.5 × 11 in)", "a4": "A4 (210 × 297 mm)"}
CARD_STOCK = "card stock of 200–300 g/m² (65–110 lb cover)"
BOARD_STOCK = "paper of 120–170 g/m², glued or sprayed onto thin card or foam board"


@dataclass
class KitFile:
    """One PDF of the kit: the deck's or board's id, its file name, kind ('cards', 'tokens' or
    'board'), its name, what it holds in words, the sheets of paper it prints on, its pages, whether it prints on both
    sides, and how its pieces are cut apart."""

    id: str
    file: str
    kind: str
    name: str
    holds: str
    sheets: int
    pages: int
    duplex: bool
    cut: str = ""        # 'shared' (one cut between neighbours), 'gutter' (two), 'outline', 'layout' or ''
    per_player: str = ""     # '' (the same for any players), 'copy' (one per player) or the field saying whose
    players: dict[int, int] = field(default_factory=dict)     # player count -> sheets it needs
    pages_for: dict[int, str] = field(default_factory=dict)   # player count -> pages to print ('': all)
    standee: str = ""        # the code of a card of it that folds into a standee (assembly.folds), if any
    spinner: str = ""        # the code of a round card of it named a spinner, if any

    @property
    def grows(self) -> bool:
        """Whether fewer players need less of it (one per player, or a set each that fills sheets of its own)."""
        return self.per_player == "copy" or any(self.pages_for.values())


@dataclass
class Kit:
    """How a game's kit prints: the paper, the duplex flip edge, each file, and whether some
    sheets have crop marks, cut ticks or tiled boards."""

    paper: str
    flip: str
    files: list[KitFile] = field(default_factory=list)
    crop_marks: bool = False
    ticks: bool = False
    rulebook: bool = False
    booklet: bool = False
    players: tuple[int, int] | None = None     # the player counts the game supports
    layouts: dict = field(default_factory=dict)  # board id -> its sheets.tile.Layout, for the assembly figures

    def sheets_for(self, n: int) -> tuple[int, int]:
        """Sheets of card stock and of board paper for `n` players."""
        def of(f: KitFile) -> int:
            return f.players.get(n, f.sheets)
        return (sum(of(f) for f in self.files if f.kind != "board"),
                sum(of(f) for f in self.files if f.kind == "board"))

    @property
    def card_sheets(self) -> int:
        return sum(f.sheets for f in self.files if f.kind != "board")

    @property
    def board_sheets(self) -> int:
        return sum(f.sheets for f in self.files if f.kind == "board")

    @property
    def duplex(self) -> bool:
        return any(f.duplex for f in self.files)

    def print_as(self, f: KitFile) -> str:
        """How to print a file, in a few words."""
        if f.kind == "board":
            return "one-sided, paper" + (" (each side its own pages)" if f.duplex else "")
        sides = f"double-sided, {self.flip}-edge flip" if f.duplex else "one-sided"
        return f"{sides}, card stock"

    @property
    def scales(self) -> bool:
        """Whether some file needs more or fewer sheets with the number of players."""
        return bool(self.players) and any(f.grows for f in self.files)

    def as_dict(self) -> dict:
        players = None
        if self.players:
            players = {"min": self.players[0], "max": self.players[1], "sheets": [
                {"players": n, "card_sheets": c, "board_sheets": b}
                for n in range(self.players[0], self.players[1] + 1) for c, b in [self.sheets_for(n)]]}
        return {"paper": self.paper, "flip": self.flip, "card_sheets": self.card_sheets,
                "board_sheets": self.board_sheets, "players": players, "files": [asdict(f) for f in self.files]}


def append(src, kit: Kit) -> None:
    """Add the section at the end of a loaded rulebook source, on a page of its own (its
    lines map to the source's last line: the section is the build's, not the author's)."""
    kit.booklet = kit.booklet or src.front.booklet
    kept = src.markdown.rstrip("\n").split("\n")
    added = ["", "---", ""] + section(kit).split("\n")
    last = src.lines[len(kept) - 1] if src.lines else 1
    src.markdown = "\n".join(kept + added)
    src.lines = src.lines[:len(kept)] + [last] * len(added)


def section(kit: Kit) -> str:
    """The section in Markdown, headed '# Printing and building this kit'."""
    parts = [f"# {TITLE}", _overview(kit), _table(kit), _players(kit), _stock(kit), _cutting(kit)]
    boards = [f for f in kit.files if f.kind == "board" and f.sheets > 1]
    if boards:
        parts.append(_boards(boards, kit.layouts))
    standees = [f for f in kit.files if f.standee]
    if standees:
        parts.append(_standees(standees))
    spinners = [f for f in kit.files if f.spinner]
    if spinners:
        parts.append(_spinners(spinners))
    return "\n\n".join(p for p in parts if p) + "\n"


def _overview(kit: Kit) -> str:
    paper = PAPER.get(kit.paper, kit.paper)
    duplex = (f" Files marked double-sided print their backs on the even pages: print them duplex, "
              f"flipping on the **{kit.flip} edge** (the printer's \"{_flip_name(kit.flip)}\" setting), "
              "and print one sheet first to check that each back lands behind its front; hold it "
              "to a window to see.") if kit.duplex else ""
    return (f"Every file is laid out for **{paper}** paper. Print at **actual size (100 %)**, never "
            f"\"fit to page\" or \"shrink to fit\": cards, backs and board pages line up only at full "
            f"size.{duplex} For one copy of the game you need {_sheets(kit.card_sheets, 'of card stock')}"
            + (f" and {_sheets(kit.board_sheets, 'of paper for the boards')}" if kit.board_sheets else "")
            + (", and plain paper for these rules" if kit.rulebook else "") + ".")


def _flip_name(flip: str) -> str:
    return "flip on long edge" if flip == "long" else "flip on short edge"


def _sheets(n: int, what: str) -> str:
    return f"{n} sheet{'s' if n != 1 else ''}" + (f" {what}" if what else "")


def _table(kit: Kit) -> str:
    rows = ["| File | What it holds | Sheets | Print |", "|---|---|---|---|"]
    for f in kit.files:
        rows.append(f"| {_escape(f.file)} | {_escape(f.holds)} | {f.sheets} | {kit.print_as(f)} |")
    if kit.rulebook:
        rows.append("| rulebook.pdf | these rules | – | either way, plain paper |")
    if kit.booklet:
        rows.append("| rulebook-booklet.pdf | these rules as a folded booklet | – | double-sided, flip on the "
                    "short edge, fold and staple |")
    return "\n".join(rows)


def _players(kit: Kit) -> str:
    """How many sheets each player count needs, and which files grow with the players."""
    if not kit.players:
        return ""
    low, high = kit.players
    counts = f"{low}" if low == high else f"{low} to {high}"
    if not kit.scales:
        return f"The game is for {counts} players; every file above is needed whatever the count."
    boards = any(f.kind == "board" for f in kit.files)
    rows = ["## Sheets for each player count", "",
            f"The game is for {counts} players. Some files are needed once for each player, or only in "
            "part with fewer players:", ""]
    rows += [f"- {_grows(f, kit.players)}" for f in kit.files if f.grows]
    rows += ["", "| Players | Card stock |" + (" Paper for boards |" if boards else ""),
             "|---|---|" + ("---|" if boards else "")]
    for n in range(low, high + 1):
        cards, paper = kit.sheets_for(n)
        rows.append(f"| {n} | {_sheets(cards, '')} |" + (f" {_sheets(paper, '')} |" if boards else ""))
    return "\n".join(rows)


def _grows(f: KitFile, players: tuple[int, int]) -> str:
    """One file's line: '**main.pdf** is one player's: print it once for each player (8 sheets).'"""
    name = f"**{_escape(f.file)}**"
    if f.per_player == "copy":
        return f"{name} is one player's: print it once for each player ({_sheets(f.sheets, 'each')})."
    counts = range(players[0], players[1] + 1)
    parts = [f"for {n} players print pages {f.pages_for[n]} ({_sheets(f.players[n], '')})"
             for n in counts if f.pages_for[n]]
    whole = [n for n in counts if not f.pages_for[n]]
    if whole:
        parts.append(f"for {whole[0]}{' or more' if whole[0] < players[1] else ''} players all of it")
    return f"{name} holds a set for each player (by their {_escape(f.per_player)}): " + "; ".join(parts) + "."


def _escape(text: str) -> str:
    for ch in "\\|*_[]<>`#":
        text = text.replace(ch, "\\" + ch)
    return text


def _stock(kit: Kit) -> str:
    lines = ["## Paper and card", "",
             f"- **Cards and tokens:** {CARD_STOCK}. On plain paper, slip each card into a sleeve in "
             "front of an old playing card instead."]
    if kit.board_sheets:
        lines.append(f"- **Boards:** {BOARD_STOCK}, so that they lie flat.")
    if kit.rulebook:
        lines.append("- **Rules:** plain paper.")
    return "\n".join(lines)


def _cutting(kit: Kit) -> str:
    lines = ["## Cutting", ""]
    if kit.crop_marks:
        lines.append("- **Crop marks** are the short lines in the margins of a card sheet. Each is in line "
                     "with a cut: lay a steel rule from a mark to the mark opposite and cut along it.")
    if kit.ticks:
        lines.append("- **Cut ticks** are short black marks on a white halo inside the coloured border round "
                     "the cards, where the margin has no room for crop marks: cut through them; they are cut "
                     "away with the border.")
    if any(f.cut == "shared" for f in kit.files):
        lines.append("- Where cards touch, **one cut** separates two cards: cut the long lines right across the "
                     "sheet first, then cut each strip into cards.")
    if any(f.cut == "gutter" for f in kit.files):
        lines.append("- Where cards have a coloured gap between them, **cut on both sides of the gap**; the gap "
                     "(the bleed) is waste.")
    if any(f.cut == "outline" for f in kit.files):
        lines.append("- **Tokens** each have their own cut line round them; a circle punch of the token's size "
                     "makes quick work of round ones.")
    lines.append("- Colour printed past a cut line (the *bleed*) is there so that a cut a little off shows no "
                 "white edge. A craft knife and steel rule, or a rotary trimmer, cut straighter than scissors.")
    lines.append("- Each card carries a small code (its game, deck and number), so that a stray card can be "
                 "sorted back and its two sides checked against each other.")
    return "\n".join(lines)


def _boards(boards: list[KitFile], layouts: dict) -> str:
    names = ", ".join(f.name for f in boards)
    text = ("## Putting the boards together\n\n"
            f"{names}: {'each is' if len(boards) > 1 else 'it is'} printed over several pages. The first page of each "
            "side is a small map of how its pages fit. Trim each page along its \"cut here\" line (the side that "
            "overlaps a neighbour) and lay it over the page it meets: its cut edge on the tips of the little arrows "
            "printed beyond the board, the short lines at its edge running straight on from the arrows' "
            "lines. Tape or glue it there. Work from one corner outwards, in the order the figure numbers the "
            "pages, then trim the outer edge along the crop marks.")
    figures = [f"![{_escape(f.name)}: each page's name and the order to tape it; the dashed red lines are where a "
               f"page is cut to lie over the one before](<kit:tiles/{f.id}>)"
               for f in boards if f.id in layouts and len(layouts[f.id].tiles) > 1]
    return "\n\n".join([text] + figures)


def _standees(files: list[KitFile]) -> str:
    names = ", ".join(f.name for f in files)
    figures = [f"![{_escape(f.name)}: cut out flat, and folded as it stands](<kit:standee/{f.id}/{f.standee}>)"
               for f in files]
    return "\n\n".join([
        "## Folding the standees\n\n"
        f"{names}: cut each out along its outline, then fold it at its three dashed lines. The middle fold is the "
        "top of the figure: fold the two pictures back to back there (a dab of glue between them keeps the figure "
        "straight). Then turn the two end tabs out, one to each side: they are the base it stands on."] + figures)


def _spinners(files: list[KitFile]) -> str:
    figures = [f"![The spinner of {_escape(f.file)}, mounted on a pencil point with a paper clip]"
               f"(<kit:spinner/{f.id}/{f.spinner}>)" for f in files]
    return "\n\n".join([
        "## Mounting the spinner\n\n"
        "Glue the dial onto thin card so that it lies flat. Open a paper clip's end loop a little, hold a "
        "pencil upright with its point on the dial's centre through that loop, and flick the clip: where its "
        "far end stops is the spin. A paper fastener through the centre holds an arrow instead, where the kit "
        "has one."] + figures)
