"""Point-to-point trail boards written in YAML (the Swamp Fox board): parsing, validation,
the graph of spaces a piece moves on, and where each space is drawn.

A board is two fields, `places` and `trails`:

    places:
      snows-island: {x: 210, y: 210, kind: hub, name: "Snow's Island"}
      rn:           {x: 210, y: 120, kind: safety}
      georgetown:   {x: 330, y: 40, kind: town, name: Georgetown}
    trails:
      - {from: snows-island, to: rn, spaces: 6}
      - {from: rn, to: georgetown, spaces: 7, via: [[260, 90], [300, 60]]}

A place sits at (x, y), board mm with y down. Its kind is one of

- `hub`: the start, where every piece begins and must come back (drawn large, named);
- `safety`: a red intersection where nobody can be bumped;
- `town`: the end of one trail, ringed by `circles` red circles (3 unless given);
- `space`: a plain space that is also a junction, where a trail leaves another one.

A trail runs from one place to another through its `via` bend points and holds `spaces`
plain spaces strung evenly along it (its two end places are not counted). A trail into a
town ends on the town's circle 1, the circle facing the trail; the circles form a loop,
1 -> 2 -> ... -> n -> back to 1, so that a piece can walk round the town and out again.

Every space is a node of the graph: each place (a town is its circles, not one node), and
each plain space of each trail. Pure Python, so that the rules-check and the drawing share
it without pulling in the renderer."""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, field

KINDS = ("hub", "safety", "town", "space")
PLAIN = "plain"
"""The kind of a space strung along a trail."""
DIRECTIONS = {"n": (0, -1), "ne": (1, -1), "e": (1, 0), "se": (1, 1),
              "s": (0, 1), "sw": (-1, 1), "w": (-1, 0), "nw": (-1, -1)}
"""Where a name may be put beside its place (compass points, y down)."""
MAX_SPACES = 200
MAX_CIRCLES = 8
LIMIT = 10_000  # mm: a coordinate beyond 10 m is a typo
PLACE_KEYS = {"x", "y", "kind", "name", "circles", "label"}
TRAIL_KEYS = {"from", "to", "spaces", "via"}


class TrailError(ValueError):
    """A trail board that cannot be read. `where` locates the problem in the data, e.g.
    ("places", "rn") or ("trails", 3, "to"), so that callers can point at its line."""

    def __init__(self, message: str, where: tuple = ()):
        super().__init__(message)
        self.where = where


@dataclass(frozen=True)
class Place:
    """A named place on a trail map."""

    id: str
    kind: str
    x: float
    y: float
    name: str = ""
    circles: int = 0          # towns only: circles in the ring
    label: str | None = None  # compass point where the name goes (None: the default)

    @property
    def title(self) -> str:
        """The name people read, or the id when the place has none."""
        return self.name or self.id


@dataclass(frozen=True)
class Trail:
    """A trail between two places, with its stops."""

    index: int                # 0-based position in the trails list
    start: str                # place ids
    end: str
    spaces: int
    via: tuple = ()           # ((x, y), ...)

    @property
    def title(self) -> str:
        return f"trail {self.index + 1} ({self.start} -> {self.end})"


@dataclass(frozen=True)
class Node:
    """One space a piece can stand on."""

    id: str                   # place id; '<town>#<k>' for circle k; '<trail>.<k>' for a plain space
    kind: str                 # hub, safety, space, circle (of a town) or plain
    place: str | None = None  # the place it belongs to (None for a plain space)
    trail: int | None = None  # the trail a plain space is on
    k: int = 0                # circle number, or position along the trail (1 = next to its start)
    label: str = ""           # how messages name it


@dataclass
class TrailMap:
    """A trail map: its places and trails."""

    places: dict[str, Place]
    trails: tuple[Trail, ...]
    nodes: dict[str, Node] = field(default_factory=dict)
    adj: dict[str, list[str]] = field(default_factory=dict)

    # --- what the board holds ---------------------------------------------------------------
    def of_kind(self, kind: str) -> list[Place]:
        """The places of a kind, in the order they are written."""
        return [p for p in self.places.values() if p.kind == kind]

    def plain_spaces(self) -> list[Node]:
        """Every plain space: those strung along trails and the junction places of kind space."""
        return [n for n in self.nodes.values() if n.kind in (PLAIN, "space")]

    def degree(self, place: str) -> int:
        """How many trail ends meet at a place (a trail out and back counts twice)."""
        return sum((t.start == place) + (t.end == place) for t in self.trails)

    def trails_at(self, place: str) -> list[Trail]:
        return [t for t in self.trails if place in (t.start, t.end)]

    def dead_ends(self) -> list[Place]:
        """The places where at most one trail ends: where a piece walking a trail cannot
        go on (a town is one by design, its ring aside)."""
        return [p for p in self.places.values() if self.degree(p.id) <= 1]

    def circle(self, town: str, k: int) -> str:
        """The node id of circle k (1-based) of a town."""
        return f"{town}#{k}"

    def node_of(self, place: str) -> str:
        """The node a trail meets at a place: the place itself, or circle 1 of a town."""
        return self.circle(place, 1) if self.places[place].kind == "town" else place

    # --- movement ---------------------------------------------------------------------------
    def neighbours(self, node: str) -> list[str]:
        return self.adj[node]

    def reachable(self, start: str) -> set[str]:
        """Every node a piece can get to from `start` (a node id, or a place id)."""
        start = self.node_of(start) if start in self.places else start
        seen = {start}
        todo = deque([start])
        while todo:
            for nxt in self.adj[todo.popleft()]:
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return seen

    def walks(self, start: str, steps: int, stop=frozenset()) -> set[str]:
        """The nodes where a walk of exactly `steps` steps from `start` can end, never
        stepping straight back to the node it just left (a piece may not reverse during a
        turn) and never going on from a node in `stop` (it may end there)."""
        ends: set[str] = set()
        seen: set = set()
        todo = [(None, start, steps)]
        while todo:
            state = todo.pop()
            if state in seen:
                continue
            seen.add(state)
            prev, cur, left = state
            if left == 0:
                ends.add(cur)
                continue
            if cur in stop and cur != start:
                continue
            for nxt in self.adj[cur]:
                if nxt != prev:
                    todo.append((cur, nxt, left - 1))
        return ends


def parse(places, trails) -> TrailMap:
    """Read a board's places and trails, or raise TrailError naming the first problem."""
    read = _places(places)
    paths = _trails(trails, read)
    towns = {}
    for t in paths:
        for end in (t.start, t.end):
            if read[end].kind == "town":
                towns.setdefault(end, []).append(t)
    for town, ts in towns.items():
        if len(ts) > 1:
            listed = ", ".join(str(t.index + 1) for t in ts)
            raise TrailError(f"town '{town}' ends {len(ts)} trails ({listed}); a town sits at the end of "
                             f"one trail, its ring of circles closing it", ("places", town))
    tm = TrailMap(read, tuple(paths))
    _graph(tm)
    return tm


def _number(value, what, where):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise TrailError(f"{what} is {value!r}; it should be a number of millimetres", where)
    if abs(value) > LIMIT:
        raise TrailError(f"{what} is {value:g} mm, beyond any board; positions are millimetres", where)
    return float(value)


def _places(places) -> dict[str, Place]:
    if not isinstance(places, dict):
        raise TrailError("places should be a mapping of place id -> {x:, y:, kind:, name:}, e.g. "
                         "{snows-island: {x: 210, y: 210, kind: hub, name: \"Snow's Island\"}}", ("places",))
    if not places:
        raise TrailError("places is empty; a board needs at least its hub", ("places",))
    out = {}
    for pid, spec in places.items():
        where = ("places", pid)
        pid = str(pid)
        if not isinstance(spec, dict):
            raise TrailError(f"place '{pid}' should be a mapping {{x:, y:, kind:, name:}}", where)
        unknown = sorted(set(map(str, spec)) - PLACE_KEYS)
        if unknown:
            raise TrailError(f"place '{pid}': unknown key '{unknown[0]}'; a place takes "
                             f"{', '.join(sorted(PLACE_KEYS))}", where)
        for key in ("x", "y", "kind"):
            if key not in spec:
                raise TrailError(f"place '{pid}' has no {key}:", where)
        kind = spec["kind"]
        if kind not in KINDS:
            raise TrailError(f"place '{pid}': kind {kind!r} is not one of {', '.join(KINDS)}", where + ("kind",))
        name = spec.get("name", "")
        if name is None or not isinstance(name, (str, int, float)) or isinstance(name, bool):
            raise TrailError(f"place '{pid}': name should be text", where + ("name",))
        name = str(name)
        if kind in ("hub", "town") and not name.strip():
            raise TrailError(f"{kind} '{pid}' has no name:; a {kind} is printed with its name", where)
        circles = spec.get("circles")
        if circles is not None and kind != "town":
            raise TrailError(f"place '{pid}': circles: is for towns (this is a {kind})", where + ("circles",))
        if kind == "town":
            circles = 3 if circles is None else circles
            if isinstance(circles, bool) or not isinstance(circles, int) or not 1 <= circles <= MAX_CIRCLES:
                raise TrailError(f"town '{pid}': circles is {circles!r}; give a whole number from 1 to "
                                 f"{MAX_CIRCLES}", where + ("circles",))
        label = spec.get("label")
        if label is not None and label not in DIRECTIONS:
            raise TrailError(f"place '{pid}': label {label!r} is not a compass point "
                             f"({', '.join(DIRECTIONS)})", where + ("label",))
        out[pid] = Place(pid, kind, _number(spec["x"], f"place '{pid}': x", where + ("x",)),
                         _number(spec["y"], f"place '{pid}': y", where + ("y",)), name, circles or 0, label)
    return out


def _trails(trails, places) -> list[Trail]:
    if not isinstance(trails, (list, tuple)):
        raise TrailError("trails should be a list of {from:, to:, spaces:, via:}", ("trails",))
    out = []
    for i, spec in enumerate(trails):
        where = ("trails", i)
        what = f"trail {i + 1}"
        if not isinstance(spec, dict):
            raise TrailError(f"{what} should be a mapping {{from:, to:, spaces:}}", where)
        unknown = sorted(set(map(str, spec)) - TRAIL_KEYS)
        if unknown:
            raise TrailError(f"{what}: unknown key '{unknown[0]}'; a trail takes from, to, spaces and via", where)
        ends = []
        for key in ("from", "to"):
            if key not in spec:
                raise TrailError(f"{what} has no {key}:", where)
            pid = str(spec[key])
            if pid not in places:
                raise TrailError(f"{what}: {key}: unknown place '{pid}'{_suggest(pid, places)}", where + (key,))
            ends.append(pid)
        what = f"{what} ({ends[0]} -> {ends[1]})"
        if ends[0] == ends[1]:
            raise TrailError(f"{what} leads from a place to itself; a loop needs a place on the way", where)
        spaces = spec.get("spaces")
        if isinstance(spaces, bool) or not isinstance(spaces, int):
            raise TrailError(f"{what}: spaces is {spaces!r}; give the number of plain spaces on it "
                             f"(0 when the places are next to each other)", where + ("spaces",))
        if not 0 <= spaces <= MAX_SPACES:
            raise TrailError(f"{what}: spaces is {spaces}; it should be 0 to {MAX_SPACES}", where + ("spaces",))
        via = spec.get("via") or []
        if not isinstance(via, (list, tuple)):
            raise TrailError(f"{what}: via should be a list of [x, y] bend points", where + ("via",))
        points = []
        for j, point in enumerate(via):
            if not isinstance(point, (list, tuple)) or len(point) != 2:
                raise TrailError(f"{what}: via point {j + 1} is {point!r}; write it [x, y]", where + ("via", j))
            points.append(tuple(_number(v, f"{what}: via point {j + 1}", where + ("via", j)) for v in point))
        out.append(Trail(i, ends[0], ends[1], spaces, tuple(points)))
    return out


def _suggest(word, choices) -> str:
    import difflib
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


def _graph(tm: TrailMap) -> None:
    nodes, adj = tm.nodes, tm.adj

    def add(node: Node):
        nodes[node.id] = node
        adj[node.id] = []

    def link(a, b):
        if b not in adj[a]:
            adj[a].append(b)
            adj[b].append(a)

    for p in tm.places.values():
        if p.kind == "town":
            for k in range(1, p.circles + 1):
                add(Node(tm.circle(p.id, k), "circle", p.id, k=k, label=f"circle {k} of {p.title}"))
            for k in range(1, p.circles):
                link(tm.circle(p.id, k), tm.circle(p.id, k + 1))
            if p.circles > 2:
                link(tm.circle(p.id, p.circles), tm.circle(p.id, 1))
        else:
            add(Node(p.id, p.kind, p.id, label=p.title))
    for t in tm.trails:
        chain = [tm.node_of(t.start)]
        for k in range(1, t.spaces + 1):
            node = Node(f"{t.index + 1}.{k}", PLAIN, trail=t.index, k=k, label=f"space {k} of {t.title}")
            add(node)
            chain.append(node.id)
        chain.append(tm.node_of(t.end))
        for a, b in zip(chain, chain[1:]):
            link(a, b)


# --- where things are drawn ------------------------------------------------------------------

@dataclass(frozen=True)
class Sizes:
    """Diameters, mm, of what is drawn, and the gap between the circles of a town's ring."""

    space: float = 18
    safety: float = 20
    circle: float = 24
    hub: float = 50
    ring_gap: float = 5

    def of(self, kind: str) -> float:
        return {"plain": self.space, "space": self.space, "safety": self.safety, "circle": self.circle,
                "hub": self.hub}[kind]


@dataclass
class Geometry:
    """Where every node of a parsed board goes: centres and diameters (board mm), the line
    each trail follows, and each town's ring."""

    centre: dict[str, tuple[float, float]]
    size: dict[str, float]
    lines: list[list[tuple[float, float]]]     # per trail, the points of the drawn line
    rings: dict[str, tuple[float, float, float]]  # town -> (cx, cy, radius through circle centres)
    outward: dict[str, tuple[float, float]]    # town -> unit vector away from its trail
    sizes: Sizes = Sizes()

    def label_box(self, place: Place, w: float, h: float, gap: float = 2.0):
        """The box (x, y, w, h) where a place's name of w x h mm goes: just clear of the
        place (a town's whole ring) towards the compass point `place.label`; by default a
        town's name goes away from its trail and any other name above its place."""
        if place.kind == "town":
            cx, cy, r = self.rings[place.id]
            reach = r + self.sizes.circle / 2
            default = self.outward[place.id]
        else:
            (cx, cy), reach = self.centre[place.id], self.size[place.id] / 2
            default = (0.0, -1.0)
        dx, dy = DIRECTIONS[place.label] if place.label else _compass(*default)
        k = math.hypot(dx, dy)
        d = reach + gap
        bx = cx + dx / k * d + dx * w / 2 - w / 2
        by = cy + dy / k * d + dy * h / 2 - h / 2
        return (bx, by, w, h)

    def overlaps(self, gap: float = 0.0) -> list[tuple[str, str]]:
        """Pairs of nodes whose circles come closer than `gap` mm (touching at gap 0)."""
        ids = sorted(self.centre)
        cell = max(self.size.values()) + gap
        buckets: dict = {}
        for n in ids:
            x, y = self.centre[n]
            buckets.setdefault((int(x // cell), int(y // cell)), []).append(n)
        out = []
        for n in ids:
            x, y = self.centre[n]
            bx, by = int(x // cell), int(y // cell)
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    for m in buckets.get((bx + dx, by + dy), ()):
                        if m <= n:
                            continue
                        mx, my = self.centre[m]
                        if math.hypot(x - mx, y - my) < (self.size[n] + self.size[m]) / 2 + gap - 1e-9:
                            out.append((n, m))
        return sorted(out)

    def crossings(self) -> list[tuple[int, int]]:
        """Pairs of trails (0-based) whose lines cross somewhere other than a shared end."""
        out = []
        segs = [list(zip(line, line[1:])) for line in self.lines]
        for i in range(len(segs)):
            for j in range(i + 1, len(segs)):
                if _lines_cross(segs[i], segs[j], self.lines[i], self.lines[j]):
                    out.append((i, j))
        return out


def geometry(tm: TrailMap, sizes: Sizes = Sizes(), bend: float = 10.0) -> Geometry:
    """Lay the board out: each town's ring turned so that circle 1 faces its trail, each
    trail's plain spaces spread along the straight legs from bend point to bend point so that
    the gaps between neighbouring circles are equal, the end places included; the line drawn
    under them is rounded at each bend (radius `bend` mm; 0 for sharp corners)."""
    centre: dict = {}
    size: dict = {}
    rings, outward = {}, {}
    for p in tm.places.values():
        if p.kind != "town":
            centre[p.id], size[p.id] = (p.x, p.y), sizes.of(p.kind)
    for p in tm.of_kind("town"):
        trails = tm.trails_at(p.id)
        if trails:
            t = trails[0]
            toward = (t.via[-1] if t.end == p.id else t.via[0]) if t.via else _at(tm, t.start if t.end == p.id else t.end)
        else:
            toward = (p.x, p.y - 1)
        ux, uy = _unit(toward[0] - p.x, toward[1] - p.y)
        n = p.circles
        radius = 0.0 if n == 1 else (sizes.circle + sizes.ring_gap) / (2 * math.sin(math.pi / n))
        rings[p.id] = (p.x, p.y, radius)
        outward[p.id] = (-ux, -uy)
        a0 = math.atan2(uy, ux)
        for k in range(1, n + 1):
            a = a0 + 2 * math.pi * (k - 1) / n     # clockwise on the page (y down)
            node = tm.circle(p.id, k)
            centre[node] = (p.x + radius * math.cos(a), p.y + radius * math.sin(a))
            size[node] = sizes.circle
    lines = []
    for t in tm.trails:
        a, b = tm.node_of(t.start), tm.node_of(t.end)
        control = [centre[a], *t.via, centre[b]]
        lines.append(_rounded(control, bend))
        trim0 = (size[a] - sizes.space) / 2
        trim1 = (size[b] - sizes.space) / 2
        for k, point in enumerate(_spread(control, t.spaces, trim0, trim1), 1):
            node = f"{t.index + 1}.{k}"
            centre[node] = point
            size[node] = sizes.space
    return Geometry(centre, size, lines, rings, outward, sizes)


def _spread(line, n, trim0, trim1):
    """n points spread evenly along the polyline by length, leaving trim0 and trim1 more at
    its ends (the end places are larger circles than the spaces, so the gaps stay equal)."""
    if n == 0:
        return []
    lengths = [0.0]
    for p, q in zip(line, line[1:]):
        lengths.append(lengths[-1] + math.dist(p, q))
    total = lengths[-1]
    if total - trim0 - trim1 <= 0:      # a line too short for its ends: spread over all of it
        trim0 = trim1 = 0.0
    step = (total - trim0 - trim1) / (n + 1)
    return [_along(line, lengths, trim0 + k * step) for k in range(1, n + 1)]


def _compass(dx, dy):
    """The compass step (e.g. (1, -1) for ne) nearest a direction."""
    a = round(math.atan2(dy, dx) / (math.pi / 4)) * (math.pi / 4)
    return (round(math.cos(a)), round(math.sin(a)))


def _at(tm, place):
    p = tm.places[place]
    return (p.x, p.y)


def _unit(dx, dy):
    d = math.hypot(dx, dy)
    return (0.0, -1.0) if d < 1e-9 else (dx / d, dy / d)


def _along(line, lengths, s):
    """The point at arc length s along a polyline."""
    s = min(max(s, 0.0), lengths[-1])
    lo, hi = 0, len(lengths) - 1
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if lengths[mid] <= s:
            lo = mid
        else:
            hi = mid
    span = lengths[hi] - lengths[lo]
    f = 0.0 if span <= 0 else (s - lengths[lo]) / span
    (x0, y0), (x1, y1) = line[lo], line[hi]
    return (x0 + f * (x1 - x0), y0 + f * (y1 - y0))


def _rounded(points, radius, per=8):
    """A polyline through the points whose corners are rounded into circular arcs of the
    given radius (smaller where the legs are too short for it)."""
    pts = [tuple(map(float, p)) for p in points]
    pts = [p for i, p in enumerate(pts) if i == 0 or math.dist(p, pts[i - 1]) > 1e-6]
    if radius <= 0 or len(pts) < 3:
        return pts
    out = [pts[0]]
    for i in range(1, len(pts) - 1):
        a, b, c = pts[i - 1], pts[i], pts[i + 1]
        u = _unit(a[0] - b[0], a[1] - b[1])
        v = _unit(c[0] - b[0], c[1] - b[1])
        cos = max(-1.0, min(1.0, u[0] * v[0] + u[1] * v[1]))
        angle = math.acos(cos)                 # the angle between the two legs at b
        if angle > math.pi - 1e-3 or angle < 1e-3:
            out.append(b)
            continue
        # the arc touches each leg at distance d from the corner; at most half a leg
        d = min(radius / math.tan(angle / 2), math.dist(a, b) / 2, math.dist(b, c) / 2)
        r = d * math.tan(angle / 2)
        p0 = (b[0] + u[0] * d, b[1] + u[1] * d)
        p1 = (b[0] + v[0] * d, b[1] + v[1] * d)
        bis = _unit(u[0] + v[0], u[1] + v[1])
        h = r / math.sin(angle / 2)
        cx, cy = b[0] + bis[0] * h, b[1] + bis[1] * h
        a0 = math.atan2(p0[1] - cy, p0[0] - cx)
        a1 = math.atan2(p1[1] - cy, p1[0] - cx)
        sweep = (a1 - a0 + math.pi) % (2 * math.pi) - math.pi
        out.append(p0)
        for j in range(1, per):
            t = a0 + sweep * j / per
            out.append((cx + r * math.cos(t), cy + r * math.sin(t)))
        out.append(p1)
    out.append(pts[-1])
    return out


def _lines_cross(sa, sb, la, lb) -> bool:
    shared = {la[0], la[-1]} & {lb[0], lb[-1]}
    for (p1, p2) in sa:
        for (q1, q2) in sb:
            if max(p1[0], p2[0]) < min(q1[0], q2[0]) or max(q1[0], q2[0]) < min(p1[0], p2[0]):
                continue
            if max(p1[1], p2[1]) < min(q1[1], q2[1]) or max(q1[1], q2[1]) < min(p1[1], p2[1]):
                continue
            hit = _intersection(p1, p2, q1, q2)
            if hit is not None and not any(math.dist(hit, s) < 1.0 for s in shared):
                return True
    return False


def _intersection(p1, p2, q1, q2):
    d = (p2[0] - p1[0]) * (q2[1] - q1[1]) - (p2[1] - p1[1]) * (q2[0] - q1[0])
    if abs(d) < 1e-12:
        return None
    t = ((q1[0] - p1[0]) * (q2[1] - q1[1]) - (q1[1] - p1[1]) * (q2[0] - q1[0])) / d
    u = ((q1[0] - p1[0]) * (p2[1] - p1[1]) - (q1[1] - p1[1]) * (p2[0] - p1[0])) / d
    if 0 <= t <= 1 and 0 <= u <= 1:
        return (p1[0] + t * (p2[0] - p1[0]), p1[1] + t * (p2[1] - p1[1]))
    return None
