// pnpgen preview: the page keeps itself in step with the server. /events says when the
// state changed; the page fetches /state.json and updates what differs in place (keyed
// elements, an image swapped only when its face's digest changed), so scroll position, an
// open card and anything else on the page survive every save. No build step, no libraries.
"use strict";

const $ = (sel, root = document) => root.querySelector(sel);

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === "class") node.className = v;
    else if (k === "dataset") Object.assign(node.dataset, v);
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "style") node.style.cssText = v;
    else node.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) node.append(c);
  return node;
}

function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

function place(parent, child, index) {
  if (parent.children[index] !== child) parent.insertBefore(child, parent.children[index] || null);
}

function trimAfter(parent, count) {
  while (parent.children.length > count) parent.lastElementChild.remove();
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

// ---- state ---------------------------------------------------------------------------------
let state = null;
let shownVersion = -1;
let fetching = false;
let fetchAgain = false;
const sections = new Map();   // game id -> section element
const decks = new Map();      // game/deck -> deck element
const tiles = new Map();      // game/deck/card -> tile element
const sinceMarks = new Map(); // game/deck/card -> the change (--since) that concerns the card
const changeRows = new Map(); // game id -> Map(row key -> row element)

async function load() {
  if (fetching) { fetchAgain = true; return; }
  fetching = true;
  try {
    do {
      fetchAgain = false;
      const response = await fetch("/state.json", { cache: "no-store" });
      const next = await response.json();
      if (next.version !== shownVersion) apply(next);
    } while (fetchAgain);
  } catch (err) {
    setLive("off", "offline");
  } finally {
    fetching = false;
  }
}

function apply(next) {
  state = next;
  shownVersion = next.version;
  document.documentElement.dataset.version = String(next.version);
  renderNav(next);
  renderBanner(next);
  const main = $("#main");
  if (next.loading) return;
  const keep = new Set();
  next.games.forEach((game, i) => {
    const section = renderGame(game);
    keep.add(game.id);
    place(main, section, i);
  });
  for (const [id, section] of sections) if (!keep.has(id)) { section.remove(); sections.delete(id); }
  for (const child of [...main.children]) if (!child.classList.contains("game")) child.remove();
  if (!next.games.length) main.append(el("p", { class: "placeholder" }, "No games under cards/ yet."));
  const errors = next.errors;
  document.title = (errors ? `(${errors}) ` : "") + "pnpgen preview" +
    (next.games.length ? " \u00b7 " + next.games.map((g) => g.title).join(", ") : "");
  if (lightbox.key) showCard(lightbox.key, true);
}

// ---- header ----------------------------------------------------------------------------------
function gameStatus(game) {
  if (game.errors.length) return ["err", plural(game.errors.length, "error")];
  if (game.rule_errors) return ["err", plural(game.rule_errors, "rule error")];
  if (game.print_errors) return ["err", plural(game.print_errors, "print error")];
  const warnings = game.warnings.length + [...game.rules, ...game.prints].filter((r) => r.severity === "warning").length;
  if (warnings) return ["warn", `OK \u00b7 ${plural(warnings, "warning")}`];
  return ["ok", "OK"];
}

function renderNav(s) {
  const nav = $("#games");
  s.games.forEach((game, i) => {
    let chip = nav.children[i];
    if (!chip) {
      chip = el("a", { class: "chip" }, el("i"), el("span"), el("small"));
      nav.append(chip);
    }
    const [kind, text] = gameStatus(game);
    chip.className = `chip ${kind}`;
    chip.href = `#game-${game.id}`;
    setText(chip.children[1], game.title);
    setText(chip.children[2], text);
    chip.title = `${game.title}: ${text}`;
  });
  trimAfter(nav, s.games.length);
}

function setLive(kind, text) {
  const live = $("#live");
  live.className = `live ${kind}`;
  setText(live.querySelector("b"), text);
}

let busy = false;
let connected = null;   // null until the event stream first answers
function showLive() {
  if (connected === null) setLive("connecting", "connecting");
  else if (!connected) setLive("off", "reconnecting");
  else if (busy) setLive("on busy", "redrawing\u2026");
  else setLive("on", "live");
}

function renderBanner(s) {
  const banner = $("#banner");
  const bad = s.games.filter((g) => g.errors.length);
  if (!bad.length) { banner.hidden = true; banner.replaceChildren(); return; }
  banner.replaceChildren(...bad.map((game) => el("div", { class: "bad" },
    el("h2", {}, `${game.title}: ${plural(game.errors.length, "problem")} in the input`),
    el("p", {}, game.stale
      ? "The faces below are the last good render; save a fix and the page redraws by itself."
      : "Nothing could be drawn yet; save a fix and the page redraws by itself."),
    el("pre", {}, game.errors.join("\n")))));
  banner.hidden = false;
}

// ---- a game ----------------------------------------------------------------------------------
function renderGame(game) {
  let section = sections.get(game.id);
  if (!section) {
    section = el("section", { class: "game", id: `game-${game.id}` },
      el("h1", {}, el("span"), el("small")), el("div", { class: "meta" }),
      el("details", { class: "findings", open: "" }, el("summary"), el("ul")),
      el("details", { class: "since", open: "" }, el("summary"), el("pre", { class: "problems" }),
        el("ol", { class: "changes" })),
      el("div", { class: "decks" }));
    const since = section.querySelector(".since");
    since.querySelector("summary").addEventListener("click", (e) => {
      if (since.classList.contains("clean")) e.preventDefault();     // nothing to fold away
    });
    sections.set(game.id, section);
  }
  section.classList.toggle("stale", game.stale);
  setText(section.querySelector("h1 span"), game.title);
  setText(section.querySelector("h1 small"), `cards/${game.id}`);
  const faces = game.decks.reduce((n, d) => n + d.cards.length, 0);
  const parts = [plural(game.decks.filter((d) => d.kind !== "board").length, "deck")];
  const boards = game.decks.filter((d) => d.kind === "board").length;
  if (boards) parts.push(plural(boards, "board"));
  parts.push(plural(faces, "entry").replace("entrys", "entries"));
  if (game.updated) {
    const at = new Date(game.updated * 1000).toLocaleTimeString();
    parts.push(game.errors.length ? `input errors at ${at}` :
      `redrawn at ${at} in ${game.seconds.toFixed(2)} s (${plural(game.rendered, "face")} rendered anew)`);
  }
  setText(section.querySelector(".meta"), parts.join(" \u00b7 "));
  renderFindings(section.querySelector(".findings"), game);
  renderChanges(section.querySelector(".since"), game);
  const holder = section.querySelector(".decks");
  const keep = new Set();
  game.decks.forEach((deck, i) => {
    const node = renderDeck(game, deck);
    keep.add(`${game.id}/${deck.key}`);
    place(holder, node, i);
  });
  trimAfter(holder, game.decks.length);
  for (const key of [...decks.keys()]) if (key.startsWith(game.id + "/") && !keep.has(key)) decks.delete(key);
  return section;
}

function renderFindings(box, game) {
  const items = [...game.rules, ...game.prints, ...game.warnings];
  const ruleErrors = game.rules.filter((r) => r.severity === "error").length;
  const ruleWarnings = game.rules.length - ruleErrors;
  const summary = box.querySelector("summary");
  const pending = game.warnings_pending ? el("span", { class: "pending" }, " \u00b7 checking the layout and print\u2026") : null;
  box.classList.toggle("clean", !items.length);
  if (!items.length) {
    const rules = game.rule_count ? `\u2713 all ${plural(game.rule_count, "rule")} pass` : "\u2713 no rules.yaml";
    summary.replaceChildren(rules, pending || " \u00b7 no layout warnings \u00b7 no print findings");
    box.querySelector("ul").replaceChildren();
    return;
  }
  const bits = [];
  if (ruleErrors) bits.push(plural(ruleErrors, "rule error"));
  if (ruleWarnings) bits.push(plural(ruleWarnings, "rule warning"));
  if (game.prints.length) bits.push(plural(game.prints.length, "print finding"));
  if (game.warnings.length) bits.push(plural(game.warnings.length, "layout warning"));
  summary.replaceChildren("Findings", el("span", { class: "sum" }, bits.join(", ") +
    (game.rule_count ? ` (${plural(game.rule_count, "rule")} checked)` : "")), pending || "");
  box.querySelector("ul").replaceChildren(...items.map((item) => el("li", {},
    el("span", { class: `sev ${item.severity}` }, item.kind === "layout" || item.kind === "print" ? item.kind : item.severity),
    el("code", {}, item.text),
    ...item.cards.slice(0, 8).map((code) => el("button", {
      class: "cardchip", title: "Show this card",
      onclick: () => revealCode(game, code),
    }, code)))));
}

// ---- what changed since REF (pnpgen preview --since REF) ----------------------------------------
const KINDS = ["changed", "added", "removed", "copies", "renumbered"];
const COUNTED = { changed: "changed", added: "added", removed: "removed", copies: "with a new count",
  renumbered: "renumbered" };
const LIST_AT_MOST = 12;   // renumbered cards listed one by one up to this many; more are summed up

function sideName(change, side) {
  return change.board ? (side === "front" ? "side A" : "side B") : side;
}

function changeDetail(change) {
  const bits = [];
  if (change.common_back) bits.push("the common back: every card that wears it");
  if (change.old_title) bits.push(`was \u201c${change.old_title}\u201d`);
  if (change.old_code) bits.push(`was ${change.old_code}`);
  if (change.kind === "changed" && !change.common_back) bits.push(change.sides.map((s) => sideName(change, s)).join(" and "));
  const [was, now] = change.copies;
  if (was !== now && change.kind !== "added" && change.kind !== "removed") bits.push(`${was} \u2192 ${now} copies`);
  else if ((change.kind === "added" || change.kind === "removed") && Math.max(was, now) > 1) bits.push(`\u00d7${Math.max(was, now)}`);
  return bits.join(" \u00b7 ");
}

function changeLabel(change) {
  return change.common_back ? "back" : change.board ? "board" : change.code;
}

function renderChanges(box, game) {
  const ch = game.changes;
  box.hidden = !ch;
  sinceMarks.forEach((_, k) => { if (k.startsWith(game.id + "/")) sinceMarks.delete(k); });
  if (!ch) return;
  const summary = box.querySelector("summary");
  const list = box.querySelector("ol");
  const problems = box.querySelector(".problems");
  const items = ch.ready && ch.status !== "added" ? ch.items : [];
  for (const item of items) {
    if (item.tile && item.kind !== "renumbered") sinceMarks.set(`${game.id}/${item.tile}`, item);
  }
  const head = [el("span", { class: "label" }, "Changes since ", el("b", {}, ch.since))];
  const pending = ch.pending ? el("span", { class: "pending" }, " \u00b7 comparing\u2026") : null;
  const clean = ch.ready && !ch.problems.length && !ch.items.length;
  box.classList.toggle("clean", clean);
  box.classList.toggle("broken", ch.problems.length > 0);
  if (ch.problems.length) {
    head.push(el("span", { class: "sum" }, `cannot compare: ${plural(ch.problems.length, "problem")} at ${ch.since}`));
  } else if (!ch.ready) {
    head.push(el("span", { class: "sum" }, "comparing\u2026"));
  } else if (ch.status === "added") {
    head.push(el("span", { class: "sum" }, `a new game: all ${plural(ch.counts.added, "entry").replace("entrys", "entries")} are new`));
  } else if (clean) {
    head.push(el("span", { class: "sum" }, "\u2713 nothing prints differently"));
  } else {
    head.push(el("span", { class: "counts" }, ...KINDS.map((k) => el("span", {
      class: `count ${k}${ch.counts[k] ? "" : " zero"}`, title: `${plural(ch.counts[k], "entry").replace("entrys", "entries")} ${COUNTED[k]}`,
    }, el("b", {}, String(ch.counts[k])), ` ${COUNTED[k]}`)),
    ch.back_changed ? el("span", { class: "count back" }, "common back changed") : null));
  }
  summary.replaceChildren(...head, pending || "");
  setText(problems, ch.problems.join("\n"));
  problems.hidden = !ch.problems.length;

  // one row per change; renumbered cards summed up in one row when there are many
  const moved = items.filter((c) => c.kind === "renumbered");
  const shown = moved.length > LIST_AT_MOST ? items.filter((c) => c.kind !== "renumbered") : items;
  let rows = changeRows.get(game.id);
  if (!rows) { rows = new Map(); changeRows.set(game.id, rows); }
  const keep = new Set();
  const nodes = shown.map((change) => {
    const key = `${change.kind}|${change.deck}|${change.common_back ? "~back" : change.code}`;
    keep.add(key);
    let row = rows.get(key);
    const fresh = !row;
    if (fresh) { row = changeRow(game); rows.set(key, row); }
    updateRow(game, row, change, ch.since, fresh && shownVersion > 0 && box.dataset.filled === "1");
    return row;
  });
  if (moved.length > LIST_AT_MOST) {
    const first = moved[0], last = moved[moved.length - 1];
    nodes.push(el("li", { class: "change summary-row" },
      el("div", { class: "what" }, el("span", { class: "ckind renumbered" }, "renumbered"),
        el("span", { class: "title" }, `${moved.length} cards print the same under new codes`),
        el("span", { class: "detail" }, `${first.code} was ${first.old_code} \u2026 ${last.code} was ${last.old_code}; ` +
          "not reprinted unless asked (pnpgen reprint --renumbered)"))));
  }
  for (const [key] of rows) if (!keep.has(key)) rows.delete(key);
  nodes.forEach((node, i) => place(list, node, i));
  trimAfter(list, nodes.length);
  if (ch.ready) box.dataset.filled = "1";
}

function changeRow(game) {
  const row = el("li", { class: "change", tabindex: "0" },
    el("div", { class: "what" }, el("span", { class: "ckind" }),
      el("span", { class: "id" }, el("code"), el("small")),
      el("span", { class: "title" }), el("span", { class: "detail" })),
    el("div", { class: "pics" }));
  const open = (e) => {
    if (e.target.closest("a")) return;      // a picture opens by itself, full size
    if (row.dataset.tile) revealTile(`${game.id}/${row.dataset.tile}`, true);
  };
  row.addEventListener("click", open);
  row.addEventListener("keydown", (e) => { if (e.key === "Enter") open(e); });
  return row;
}

function updateRow(game, row, change, since, isNew) {
  row.className = `change k-${change.kind}${change.tile ? " linked" : ""}`;
  if (change.tile) row.dataset.tile = change.tile; else delete row.dataset.tile;
  row.title = change.tile ? "Show this card" : "Removed: no card to show now";
  const kind = row.querySelector(".ckind");
  kind.className = `ckind ${change.kind}`;
  setText(kind, change.kind === "copies" ? "copies" : change.kind);
  setText(row.querySelector(".id code"), changeLabel(change));
  setText(row.querySelector(".id small"), change.deck_name);
  setText(row.querySelector(".title"), change.title);
  setText(row.querySelector(".detail"), changeDetail(change));
  const pics = row.querySelector(".pics");
  const signature = change.pictures.map((p) => p.url).join(" ");
  if (pics.dataset.signature !== signature) {
    const had = pics.dataset.signature !== undefined;
    pics.dataset.signature = signature;
    const figures = change.pictures.map((pic, i) => {
      let figure = pics.children[i];
      if (!figure) {
        figure = el("figure", {}, el("a", { class: "pic", target: "_blank", rel: "noopener" },
          el("img", { alt: "", loading: "lazy", decoding: "async", draggable: "false" })), el("figcaption"));
        figure.querySelector("img").addEventListener("load", (e) => sizePicture(e.currentTarget));
      }
      const link = figure.querySelector("a");
      link.href = pic.url;
      link.title = "The picture at full size (150 DPI), in a new tab";
      const img = link.querySelector("img");
      img.alt = `${changeLabel(change)} ${sideName(change, pic.side)}: ${change.kind}`;
      swapImage(img, pic.url);
      setText(figure.querySelector("figcaption"), pictureCaption(change, pic, since));
      return figure;
    });
    pics.replaceChildren(...figures);
    if (had) isNew = true;
  }
  if (isNew) flash(row);
}

function pictureCaption(change, pic, since) {
  const side = sideName(change, pic.side);
  if (change.kind === "added") return `${side}: new`;
  if (change.kind === "removed") return `${side}: as at ${since}`;
  return `${side}: before, at ${since} \u00b7 now \u00b7 the difference in magenta`;
}

function sizePicture(img) {
  // pictures are drawn at 150 DPI: shown at the same scale as the card faces (the size slider)
  img.style.setProperty("--pw", String(img.naturalWidth * 25.4 / 150));
  img.style.setProperty("--pn", String(img.naturalWidth));
  img.parentElement.classList.add("loaded");
}

function swapImage(img, url) {
  if (img.dataset.src === url) return;
  const first = !img.dataset.src;
  img.dataset.src = url;
  if (first) { img.src = url; return; }
  const next = new Image();
  next.onload = next.onerror = () => { if (img.dataset.src === url) img.src = url; };
  next.src = url;
}

function revealTile(key, open = false) {
  const tile = tiles.get(key);
  if (!tile) return;
  tile.scrollIntoView({ behavior: open ? "auto" : "smooth", block: "center" });
  flash(tile);
  if (open) showCard(key);
}

function revealCode(game, code) {
  for (const deck of game.decks) {
    const card = deck.cards.find((c) => c.code === code);
    if (card) {
      const tile = tiles.get(`${game.id}/${deck.key}/${card.key}`);
      if (tile) {
        tile.scrollIntoView({ behavior: "smooth", block: "center" });
        flash(tile);
      }
      return;
    }
  }
}

// ---- a deck ------------------------------------------------------------------------------------
function renderDeck(game, deck) {
  const key = `${game.id}/${deck.key}`;
  let node = decks.get(key);
  if (!node) {
    node = el("section", { class: "deck" },
      el("header", {}, el("h2"), el("span", { class: "kind" }), el("span", { class: "info" }),
        el("button", { class: "where", title: "Copy file name" })),
      el("div", { class: "grid" }));
    node.querySelector(".where").addEventListener("click", (e) => copy(e.currentTarget.textContent));
    decks.set(key, node);
  }
  setText(node.querySelector("h2"), deck.name);
  setText(node.querySelector(".kind"), deck.kind === "cards" ? "cards" : deck.kind);
  const [w, h] = deck.size;
  let info;
  if (deck.kind === "board") info = `${fmt(w)} \u00d7 ${fmt(h)} mm` + (deck.cards[0].back ? ", two sides" : "");
  else info = `${plural(deck.copies, deck.kind === "tokens" ? "piece" : "card")}` +
    (deck.kind === "tokens" ? "" : ` \u00b7 ${fmt(w)} \u00d7 ${fmt(h)} mm`) +
    (deck.common_back ? " \u00b7 common back" : "");
  setText(node.querySelector(".info"), info);
  setText(node.querySelector(".where"), deck.file);
  const grid = node.querySelector(".grid");
  const items = [];
  if (deck.common_back) items.push({ key: "~back", common: true, code: "", title: "Common back",
    count: 0, front: deck.common_back, back: null, marks: [], template: deck.back_template });
  items.push(...deck.cards);
  items.forEach((card, i) => place(grid, renderTile(game, deck, card), i));
  trimAfter(grid, items.length);
  const keep = new Set(items.map((c) => `${key}/${c.key}`));
  for (const k of [...tiles.keys()]) if (k.startsWith(key + "/") && !keep.has(k)) tiles.delete(k);
  return node;
}

function fmt(mm) {
  return String(Math.round(mm * 100) / 100);
}

function renderTile(game, deck, card) {
  const key = `${game.id}/${deck.key}/${card.key}`;
  let tile = tiles.get(key);
  if (!tile) {
    tile = el("figure", { class: "tile", tabindex: "0", role: "button" },
      el("div", { class: "faces" }, faceImg("front"), faceImg("back")),
      el("figcaption", {}, el("span", { class: "code" }, el("span"), el("span", { class: "count" })),
        el("span", { class: "title" })));
    tile.addEventListener("click", () => showCard(tile.dataset.key));
    tile.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); showCard(tile.dataset.key); } });
    tiles.set(key, tile);
  }
  tile.dataset.key = key;
  const [front, back] = tile.querySelectorAll(".face");
  setFace(front, card.front);
  setFace(back, card.back);
  const widest = card.front.w + (card.back ? card.back.w : 0);
  tile.style.setProperty("--cap", String(Math.max(card.front.w, widest)));
  const codeBits = tile.querySelector(".code").children;
  setText(codeBits[0], card.common ? "every card" : deck.kind === "board" ? (card.back ? "sides A and B" : "board") : card.code);
  setText(codeBits[1], card.count > 1 ? `\u00d7${card.count}` : "");
  setText(tile.querySelector(".title"), card.title);
  tile.querySelector(".title").title = card.title;
  const errors = card.marks.filter((m) => m.severity === "error").length;
  const warnings = card.marks.length - errors;
  tile.classList.toggle("bad", errors > 0);
  tile.classList.toggle("warned", !errors && warnings > 0);
  let badge = tile.querySelector(".badge");
  if (card.marks.length) {
    if (!badge) { badge = el("span", { class: "badge" }); tile.prepend(badge); }
    badge.className = `badge ${errors ? "error" : "warning"}`;
    setText(badge, errors ? "!" + (card.marks.length > 1 ? card.marks.length : "") : "\u26a0" + (warnings > 1 ? warnings : ""));
    tile.title = card.marks.map((m) => m.text).join("\n");
  } else {
    if (badge) badge.remove();
    tile.removeAttribute("title");
  }
  const since = sinceMarks.get(key);
  let mark = tile.querySelector(".since-mark");
  if (since) {
    if (!mark) { mark = el("span", { class: "since-mark" }); tile.prepend(mark); }
    mark.className = `since-mark ${since.kind}`;
    setText(mark, since.kind === "added" ? "new" : since.kind === "copies" ? "copies" : "changed");
    const detail = changeDetail(since);
    mark.title = `${since.kind} since ${game.changes.since}${detail ? ": " + detail : ""}`;
  } else if (mark) mark.remove();
  tile.classList.toggle("since-changed", !!since);
  const signature = [card.front.digest, card.back && card.back.digest, card.title, card.marks.length].join("|");
  if (tile.dataset.signature && tile.dataset.signature !== signature) flash(tile);
  tile.dataset.signature = signature;
  return tile;
}

function faceImg(side) {
  return el("img", { class: `face ${side}`, alt: side, loading: "lazy", decoding: "async", draggable: "false" });
}

function setFace(img, face) {
  if (!face) { img.hidden = true; img.removeAttribute("src"); delete img.dataset.src; return; }
  img.hidden = false;
  img.classList.toggle("round", face.shape === "round");
  img.classList.toggle("cutout", face.shape !== "rect");   // transparent outside a disc, hexagon or polygon
  img.classList.toggle("board", face.board);
  img.style.setProperty("--w", String(face.w));
  img.style.setProperty("--h", String(face.h));
  if (img.dataset.src === face.thumb) return;
  const first = !img.dataset.src;
  img.dataset.src = face.thumb;
  if (first) { img.src = face.thumb; return; }
  // a changed face: swap once the new picture is in, so the card never blinks empty
  const next = new Image();
  next.onload = next.onerror = () => { if (img.dataset.src === face.thumb) img.src = face.thumb; };
  next.src = face.thumb;
}

function flash(tile) {
  tile.classList.remove("changed");
  void tile.offsetWidth;
  tile.classList.add("changed");
}

// ---- the card lightbox ---------------------------------------------------------------------------
const lightbox = { key: null, zoomed: false };

function allCards() {
  const out = [];
  if (!state) return out;
  for (const game of state.games) for (const deck of game.decks) {
    if (deck.common_back) out.push({ game, deck, card: { key: "~back", common: true, code: "", title: "Common back",
      count: 0, front: deck.common_back, back: null, marks: [], template: deck.back_template,
      entry: `${deck.file}:1` } });
    for (const card of deck.cards) out.push({ game, deck, card });
  }
  return out;
}

function showCard(key, refresh = false) {
  const cards = allCards();
  const index = cards.findIndex((c) => `${c.game.id}/${c.deck.key}/${c.card.key}` === key);
  if (index < 0) { if (refresh) closeCard(); return; }
  const { game, deck, card } = cards[index];
  const box = $("#lightbox");
  const stage = $("#lb-stage");
  const sides = [["front", card.front], ["back", card.back || (card.common ? null : deck.common_back)]]
    .filter(([, face]) => face);
  const signature = sides.map(([, f]) => f.full).join(" ");
  if (!refresh || stage.dataset.signature !== signature) {
    stage.dataset.signature = signature;
    stage.style.setProperty("--n", String(sides.length));
    stage.replaceChildren(...sides.map(([side, face]) => bigFace(side, face, card, deck)));
  }
  stage.classList.toggle("zoomed", lightbox.zoomed);
  const info = $("#lb-info");
  const label = card.common ? "every card of the deck" : deck.kind === "board" ? "board" : card.code;
  info.replaceChildren(
    el("div", { class: "code" }, `${label}${card.count > 1 ? `  \u00b7  \u00d7${card.count}` : ""}`),
    el("h2", {}, card.title),
    el("div", { class: "sub" }, `${deck.name} \u00b7 ${game.title}`),
    el("dl", {},
      card.entry ? el("dt", {}, deck.kind === "board" ? "Board file" : card.common ? "Deck file" : "Card entry") : null,
      card.entry ? el("dd", {}, whereButton(card.entry)) : null,
      el("dt", {}, card.common ? "Back template" : deck.kind === "board" ? "Side A template" : "Front template"),
      el("dd", {}, whereButton(card.template)),
      card.back_template ? el("dt", {}, deck.kind === "board" ? "Side B template" : "Back template") : null,
      card.back_template ? el("dd", {}, whereButton(card.back_template)) : null,
      !card.back && !card.common && deck.common_back ? el("dt", {}, "Back") : null,
      !card.back && !card.common && deck.common_back ? el("dd", {}, "the deck's common back", " ",
        deck.back_template ? whereButton(deck.back_template) : "") : null,
      ...sinceInfo(game, deck, card),
      el("dt", {}, "Findings"),
      el("dd", {}, card.marks.length
        ? el("ul", {}, ...card.marks.map((m) => el("li", {},
          el("span", { class: `sev ${m.severity}` }, m.kind === "layout" ? "layout" : m.severity), el("code", {}, m.text))))
        : el("span", { class: "ok" }, game.stale ? "none in the last good render" : "none"))),
    el("p", { class: "note" }, `${deck.kind === "board" ? "150" : "300"} DPI with the game's ` +
      `${Math.round(sides[0][1].bleed * 1000) / 1000} mm bleed; the dashed line is the trim. Click a face for actual pixels, ` +
      "\u2190 \u2192 for the other cards, Esc to close. A file name copies on click."));
  lightbox.key = key;
  box.hidden = false;
  document.body.style.overflow = "hidden";
}

function sinceInfo(game, deck, card) {
  if (!game.changes || !game.changes.ready) return [];
  const change = sinceMarks.get(`${game.id}/${deck.key}/${card.key}`);
  const since = el("div", { class: "since-ref" }, "since ", el("code", {}, game.changes.since));
  if (!change) return [el("dt", {}, "What changed"), el("dd", {}, since, el("span", { class: "ok" },
    game.changes.status === "added" ? "the whole game is new" : "prints the same"))];
  const detail = changeDetail(change);
  return [el("dt", {}, "What changed"), el("dd", { class: "since-info" }, since,
    el("span", { class: `ckind ${change.kind}` }, change.kind), detail ? ` ${detail}` : "",
    ...change.pictures.map((pic) => el("a", { class: "pic", href: pic.url, target: "_blank", rel: "noopener",
      title: `${sideName(change, pic.side)}: before / now / difference \u2014 click for full size` },
    el("img", { src: pic.url, alt: `${sideName(change, pic.side)}: ${change.kind}` }))))];
}

function bigFace(side, face, card, deck) {
  const img = el("img", { alt: `${card.title} (${side})`, draggable: "false" });
  const pic = el("div", { class: "pic loading" }, img);
  const b = face.bleed;
  const trim = el("div", { class: "trim", style:
    `left:${100 * b / (face.w + 2 * b)}%;right:${100 * b / (face.w + 2 * b)}%;` +
    `top:${100 * b / (face.h + 2 * b)}%;bottom:${100 * b / (face.h + 2 * b)}%` });
  if (b > 0) pic.append(trim);
  img.addEventListener("load", () => pic.classList.remove("loading"));
  img.addEventListener("click", (e) => {
    e.stopPropagation();
    lightbox.zoomed = !lightbox.zoomed;
    $("#lb-stage").classList.toggle("zoomed", lightbox.zoomed);
  });
  img.src = face.full;
  const caption = deck.kind === "board" ? (side === "front" ? "side A" : "side B") : side;
  const cut = face.shape === "round" ? "round cutout" : face.shape !== "rect" ? "cutout" : "";
  return el("figure", { class: `lb-face ${cut}` }, pic, el("figcaption", {}, caption));
}

function whereButton(text) {
  return el("button", { class: "where", title: "Copy to the clipboard", onclick: () => copy(text) }, text);
}

function closeCard() {
  lightbox.key = null;
  lightbox.zoomed = false;
  $("#lightbox").hidden = true;
  $("#lb-stage").replaceChildren();
  $("#lb-stage").dataset.signature = "";
  document.body.style.overflow = "";
}

function stepCard(by) {
  const cards = allCards();
  const index = cards.findIndex((c) => `${c.game.id}/${c.deck.key}/${c.card.key}` === lightbox.key);
  if (index < 0 || !cards.length) return;
  const next = cards[(index + by + cards.length) % cards.length];
  lightbox.zoomed = false;
  showCard(`${next.game.id}/${next.deck.key}/${next.card.key}`);
}

$("#lb-close").addEventListener("click", closeCard);
$("#lb-prev").addEventListener("click", () => stepCard(-1));
$("#lb-next").addEventListener("click", () => stepCard(1));
$("#lightbox").addEventListener("click", (e) => {
  if (e.target.id === "lightbox" || e.target.id === "lb-stage") closeCard();
});
document.addEventListener("keydown", (e) => {
  if (!lightbox.key) return;
  if (e.key === "Escape") closeCard();
  else if (e.key === "ArrowLeft") stepCard(-1);
  else if (e.key === "ArrowRight") stepCard(1);
});

// ---- small things ------------------------------------------------------------------------------
let toastTimer = null;
function copy(text) {
  const done = () => {
    let toast = $(".toast");
    if (!toast) { toast = el("div", { class: "toast" }); document.body.append(toast); }
    toast.textContent = `copied ${text}`;
    toast.classList.add("show");
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => toast.classList.remove("show"), 1400);
  };
  if (navigator.clipboard) navigator.clipboard.writeText(text).then(done, () => {});
}

const zoom = $("#zoom");
const savedZoom = localStorage.getItem("pnpgen-preview-mm");
if (savedZoom) zoom.value = savedZoom;
function applyZoom() {
  document.documentElement.style.setProperty("--mm", `${zoom.value}px`);
  localStorage.setItem("pnpgen-preview-mm", zoom.value);
}
zoom.addEventListener("input", applyZoom);
applyZoom();

// ---- live updates --------------------------------------------------------------------------------
function connect() {
  const events = new EventSource("/events");
  events.addEventListener("open", () => { connected = true; showLive(); load(); });
  events.addEventListener("state", (e) => {
    const news = JSON.parse(e.data);
    busy = news.busy;
    showLive();
    if (news.version !== shownVersion) load();
  });
  events.addEventListener("error", () => { if (connected !== null) connected = false; showLive(); });
}

connect();
load();
