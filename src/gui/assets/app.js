// Chimera's board page. It draws what the server's /api/state describes
// (the board's frame and holes, the pieces with their letters and side
// colours), sends the person's moves and commands, and polls for the
// engine's moves and analysis. The server decides what is legal.
"use strict";

const $ = (id) => document.getElementById(id);
const NS = "http://www.w3.org/2000/svg";
const SQ = 60; // board units per square

let S = null; // the last state
let drawn = -1; // the state version the board shows
let rotation = 0; // quarter turns; the person's seat at the bottom
let rotationFor = ""; // the variant+seat the rotation was chosen for
let formFor = ""; // the settings the form shows
let selected = null; // the selected square's name
let dragFrom = null;
let armies = [];

function el(tag, attrs, parent) {
  const e = document.createElementNS(NS, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

function say(text, kind) {
  const m = $("message");
  m.textContent = text || "";
  m.className = kind || "";
}

async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const r = await fetch(path, opts);
  let data = null;
  try {
    data = await r.json();
  } catch (e) {
    data = { error: "the server answered " + r.status };
  }
  if (!r.ok) throw new Error(data.error || "the server answered " + r.status);
  return data;
}

// A command to the server: the new state is drawn, an error is shown.
async function send(path, body, note) {
  try {
    const st = await api("POST", path, body || {});
    if (note) say(note, "note");
    show(st);
    return true;
  } catch (e) {
    say(e.message, "error");
    return false;
  }
}

// ---- geometry ----

function fileLetter(f) {
  return String.fromCharCode(97 + f);
}
function sqName(f, r) {
  return fileLetter(f) + (r + 1);
}
function parseSq(name) {
  return [name.charCodeAt(0) - 97, parseInt(name.slice(1), 10) - 1];
}
// Omega Chess is shown in its own names (files a-j, ranks 0-9, wizard
// squares w1-w4) unless engine coordinates are asked for; the page's data
// and the server keep the engine's 12x12 frame (b2 = a0, a1 = w1)
const WIZARDS = { a1: "w1", l1: "w2", l12: "w3", a12: "w4" };
function native() {
  return S.variant === "omega" && !$("engine-coords").checked;
}
function label(name) {
  if (!native()) return name;
  if (WIZARDS[name]) return WIZARDS[name];
  const [f, r] = parseSq(name);
  return fileLetter(f - 1) + (r - 1);
}
// every square (and lone file of a SAN disambiguation or capture, a
// file followed by another file or x) in a text; a promotion letter
// after a square stays
function labelText(text) {
  if (!native()) return text;
  return text.replace(/([a-l])(1[0-2]|[1-9])|([a-l])(?=[a-lx])/g, (m, f, r, lone) =>
    !lone ? label(f + r) : lone === "a" || lone === "l" ? lone : fileLetter(lone.charCodeAt(0) - 98));
}
// display column and row (row 0 at the top) of a square
function place(f, r) {
  const F = S.board.files, R = S.board.ranks;
  let x, y;
  switch (rotation) {
    case 1: x = R - 1 - r; y = f; break;
    case 2: x = F - 1 - f; y = R - 1 - r; break;
    case 3: x = r; y = F - 1 - f; break;
    default: x = f; y = r;
  }
  const rows = rotation % 2 ? F : R;
  return [x, rows - 1 - y];
}
function centre(name) {
  const [f, r] = parseSq(name);
  const [x, y] = place(f, r);
  return [x * SQ + SQ / 2, y * SQ + SQ / 2];
}

// ---- drawing ----

function isHole(holes, f, r) {
  return holes.has(f + "," + r);
}

function drawBoard() {
  const svg = $("board");
  const b = S.board;
  const F = b.files, R = b.ranks;
  const cols = rotation % 2 ? R : F, rows = rotation % 2 ? F : R;
  svg.setAttribute("viewBox", `0 0 ${cols * SQ} ${rows * SQ}`);
  svg.textContent = "";
  const defs = el("defs", {}, svg);
  defs.innerHTML = window.pieceGlyphs || "";
  const marker = el("marker", { id: "arrowhead", viewBox: "0 0 10 10", refX: "5", refY: "5", markerWidth: "3.2", markerHeight: "3.2", orient: "auto-start-reverse" }, defs);
  el("path", { d: "M0 0 L10 5 L0 10 z", fill: "#2f9e44" }, marker);
  const holes = new Set(b.holes.map((h) => h[0] + "," + h[1]));
  // squares whose four neighbours are all off the board: Omega's wizard squares
  const lonely = (f, r) =>
    [[1, 0], [-1, 0], [0, 1], [0, -1]].every(([df, dr]) => {
      const g = f + df, s = r + dr;
      return g < 0 || s < 0 || g >= F || s >= R || isHole(holes, g, s);
    });
  const dark = S.family === "four" || S.variant === "omega" ? 1 : 0;
  const squares = el("g", { class: "squares" }, svg);
  for (let f = 0; f < F; f++) {
    for (let r = 0; r < R; r++) {
      if (isHole(holes, f, r)) continue;
      const [x, y] = place(f, r);
      const name = sqName(f, r);
      let cls = (f + r) % 2 === dark ? "dark" : "light";
      if (lonely(f, r)) cls = "wizard";
      el("rect", { x: x * SQ, y: y * SQ, width: SQ, height: SQ, class: "sq " + cls, "data-sq": name }, squares);
    }
  }
  el("g", { id: "marks" }, svg);
  const coords = el("g", { class: "coords" }, svg);
  for (let f = 0; f < F; f++) {
    for (let r = 0; r < R; r++) {
      if (isHole(holes, f, r)) continue;
      const [x, y] = place(f, r);
      // the square's name, small, in its corner: legible on every shape
      const t = el("text", { x: x * SQ + 3, y: y * SQ + 11, class: "coord" }, coords);
      t.textContent = label(sqName(f, r));
    }
  }
  el("g", { id: "pieces", class: "pieces" }, svg);
  el("g", { id: "marks-top", class: "marks-top" }, svg);
}

function drawPieces() {
  const g = $("pieces");
  g.textContent = "";
  for (const p of S.board.pieces) {
    const side = S.board.sides[p.owner];
    const [cx, cy] = centre(p.sq);
    // a piece of the built-in games has its own drawing; one an armies
    // file adds is a shield with its letter
    const glyph = p.glyph || "g-piece";
    const size = SQ * 0.9;
    const piece = el("g", { class: "piece", "data-piece": p.sq, "data-owner": p.owner, "data-glyph": glyph }, g);
    el("use", { href: "#" + glyph, x: cx - size / 2, y: cy - size / 2, width: size, height: size, fill: side.fill, stroke: "#1d1d1d", color: side.ink }, piece);
    if (!p.glyph) {
      const t = el("text", { x: cx, y: cy + 2, class: "glyph-letter", fill: side.ink, "font-size": 24 }, piece);
      t.textContent = p.letter;
    }
    const title = el("title", {}, piece);
    title.textContent = `${side.name} ${p.name} ${label(p.sq)}`;
  }
}

// each kind of piece of this game: its drawing, name and move (Betza)
function drawLegend() {
  const list = $("legend-list");
  list.textContent = "";
  const side = S.board.sides[0];
  for (const k of S.board.kinds) {
    const li = document.createElement("li");
    li.dataset.glyph = k.glyph || "g-piece";
    list.appendChild(li);
    const icon = el("svg", { viewBox: "0 0 100 100", width: 32, height: 32, "aria-hidden": "true" }, li);
    el("use", { href: "#" + (k.glyph || "g-piece"), width: 100, height: 100, fill: side.fill, stroke: "#1d1d1d", color: side.ink }, icon);
    if (!k.glyph) {
      const t = el("text", { x: 50, y: 54, class: "glyph-letter", fill: side.ink, "font-size": 40 }, icon);
      t.textContent = k.letter;
    }
    const text = document.createElement("span");
    li.appendChild(text);
    text.textContent = `${k.letter} ${k.name}` + (k.betza ? ` (${k.betza})` : "");
    if (k.moves) drawMoves(li, k, side);
  }
}

// where a piece moves on an empty board (forward is up): filled dot,
// moves and captures; ring, moves only; cross, captures only; small
// ring, moves only from its first square
function drawMoves(li, k, side) {
  const R = k.moves.radius, C = 10, N = 2 * R + 1;
  const svg = el("svg", { viewBox: `0 0 ${N * C} ${N * C}`, width: N * C, height: N * C, class: "reach", role: "img", "aria-label": `${k.name}: its moves` }, li);
  for (let x = 0; x < N; x++)
    for (let y = 0; y < N; y++)
      el("rect", { x: x * C, y: y * C, width: C, height: C, fill: (x + y) % 2 ? "#a9825f" : "#e9dcc0" }, svg);
  el("use", { href: "#" + (k.glyph || "g-piece"), x: R * C, y: R * C, width: C, height: C, fill: side.fill, stroke: "#1d1d1d", color: side.ink }, svg);
  for (const [dx, dy, m] of k.moves.cells) {
    const cx = (R + dx) * C + C / 2, cy = (R - dy) * C + C / 2;
    const g = el("g", { class: "reach-" + m, "data-dx": dx, "data-dy": dy }, svg);
    if (m === "both") el("circle", { cx, cy, r: 3.2, fill: "#2e7d32" }, g);
    else if (m === "move") el("circle", { cx, cy, r: 3, fill: "none", stroke: "#2e7d32", "stroke-width": 1.5 }, g);
    else if (m === "first") el("circle", { cx, cy, r: 2, fill: "none", stroke: "#1565c0", "stroke-width": 1.2 }, g);
    else el("path", { d: `M${cx - 3} ${cy - 3}L${cx + 3} ${cy + 3}M${cx + 3} ${cy - 3}L${cx - 3} ${cy + 3}`, stroke: "#c62828", "stroke-width": 1.6 }, g);
  }
}

function drawMarks() {
  const marks = $("marks");
  const top = $("marks-top");
  marks.textContent = "";
  top.textContent = "";
  const box = (name, fill) => {
    const [cx, cy] = centre(name);
    el("rect", { x: cx - SQ / 2, y: cy - SQ / 2, width: SQ, height: SQ, fill, "pointer-events": "none" }, marks);
  };
  if (S.last) {
    box(S.last.from, "#f5d74a66");
    box(S.last.to, "#f5d74a88");
  }
  // Kings in check
  S.players.forEach((pl, i) => {
    if (!pl.check) return;
    const k = S.board.pieces.find((p) => p.royal && p.owner === i);
    if (k) box(k.sq, "#ff303088");
  });
  if (selected) {
    box(selected, "#4aa3f588");
    for (const m of S.legal) {
      if (m.from !== selected) continue;
      const [cx, cy] = centre(m.to);
      el("circle", { cx, cy, r: SQ * 0.14, fill: "#1f6feb99", class: "target", "data-target": m.to }, top);
    }
  }
  const a = S.analysis && S.analysis.arrow;
  if (a) {
    const [x1, y1] = centre(a.from);
    const [x2, y2] = centre(a.to);
    const len = Math.hypot(x2 - x1, y2 - y1) || 1;
    const back = SQ * 0.3;
    el("line", { id: "arrow", "data-from": a.from, "data-to": a.to, x1, y1, x2: x2 - ((x2 - x1) / len) * back, y2: y2 - ((y2 - y1) / len) * back, stroke: "#2f9e44", "stroke-width": SQ * 0.16, "stroke-linecap": "round", "marker-end": "url(#arrowhead)", opacity: 0.8 }, top);
  }
}

function clock(ms) {
  const s = Math.floor(ms / 1000);
  const m = Math.floor(s / 60);
  return m + ":" + String(s % 60).padStart(2, "0");
}

function drawSide() {
  const n = S.players.length;
  const over = S.outcome;
  const sideName = S.players[S.side].name;
  let status;
  if (over) status = `${over.result} — ${over.reason}`;
  else status = `${sideName} to move` + (S.players[S.side].check ? " (check)" : "");
  if (S.cursor < S.moves.length) status += ` — move ${S.cursor} of ${S.moves.length}`;
  $("status").textContent = status;
  const box = $("players");
  box.textContent = "";
  for (let i = 0; i < n; i++) {
    const pl = S.players[i];
    const row = document.createElement("div");
    row.className = "player" + (i === S.side && !over ? " to-move" : "") + (pl.out ? " out" : "");
    row.dataset.player = pl.name;
    const sw = document.createElement("span");
    sw.className = "swatch";
    sw.style.background = S.board.sides[i].fill;
    const who = document.createElement("span");
    who.textContent = `${pl.name} (${S.seated[i] === null ? "you" : S.seated[i]})`;
    const flags = [];
    if (pl.check) flags.push("check");
    if (pl.out) flags.push("out");
    if (pl.resigned) flags.push("resigned");
    if (flags.length) {
      const f = document.createElement("span");
      f.className = "flag";
      f.textContent = flags.join(", ");
      who.appendChild(f);
    }
    const pts = document.createElement("span");
    pts.className = "points";
    pts.textContent = pl.points === null ? "" : pl.points + " pts";
    const c = document.createElement("span");
    c.className = "clock";
    const ck = S.clocks[i];
    c.textContent = ck.left_ms === null ? clock(ck.used_ms) : clock(ck.left_ms);
    row.append(sw, who, pts, c);
    box.appendChild(row);
  }
  // the move list
  const ol = $("moves");
  const keep = ol.scrollTop;
  ol.textContent = "";
  S.moves.forEach((m, i) => {
    const li = document.createElement("li");
    li.textContent = (n === 4 ? S.board.sides[m.seat].name[0] + " " : "") + labelText(m.text);
    if (i === S.cursor - 1) li.className = "current";
    else if (i >= S.cursor) li.className = "future";
    li.onclick = () => send("/api/goto", { ply: i + 1 });
    ol.appendChild(li);
  });
  if (S.cursor === S.moves.length) ol.scrollTop = ol.scrollHeight;
  else ol.scrollTop = keep;
  // analysis
  const a = S.analysis;
  if (a && a.depth > 0) {
    $("score").textContent = `${a.score} for ${a["for"]}`;
    $("depth").textContent = `depth ${a.depth}` + (a.nps ? `, ${Math.round(a.nps / 1000)} kN/s` : "") + (a.kind === "move" ? ` (${a.by} thinking)` : "");
    let pv = labelText(a.pv.join(" "));
    if (a.points) pv += `  [points at the end: ${a.points.join(" / ")}]`;
    $("pv").textContent = pv;
    drawLines(a.lines);
  } else if (a) {
    $("score").textContent = a.kind === "move" ? `${a.by} is thinking…` : "analysing…";
    $("depth").textContent = "";
    $("pv").textContent = "";
    drawLines([]);
  } else {
    $("score").textContent = S.settings.analyse ? "" : "analysis off";
    $("depth").textContent = "";
    $("pv").textContent = "";
    drawLines([]);
  }
  $("analyse").checked = S.settings.analyse;
  const myTurn = !over && !S.engine_seats[S.side];
  $("resign").disabled = !myTurn;
  $("undo").disabled = S.cursor === 0;
  $("first").disabled = $("prev").disabled = S.cursor === 0;
  $("next").disabled = $("last").disabled = S.cursor === S.moves.length;
  if (S.notice && S.notice !== window.lastNotice) {
    window.lastNotice = S.notice;
    if (!$("message").classList.contains("error")) say(S.notice, "note");
  }
}

// MultiPV: the lines after the first, each with its score
function drawLines(lines) {
  const ol = $("lines");
  ol.textContent = "";
  if (!lines || lines.length < 2) return;
  lines.forEach((l, i) => {
    if (i === 0 || !l.pv.length) return;
    const li = document.createElement("li");
    li.value = i + 1;
    li.textContent = `${l.score} (d${l.depth}) ${labelText(l.pv.join(" "))}`;
    ol.appendChild(li);
  });
}

function show(st) {
  S = st;
  const key = S.variant + "/" + S.settings.seat;
  if (key !== rotationFor) {
    rotationFor = key;
    const seats = S.family === "four" ? ["red", "blue", "yellow", "green"] : ["white", "black"];
    const i = seats.indexOf(S.settings.seat);
    rotation = i < 0 ? 0 : S.family === "four" ? i : i * 2;
    drawn = -1;
  }
  // the form shows the server's settings whenever they change
  const form = JSON.stringify([S.variant, S.settings]);
  if (form !== formFor) {
    formFor = form;
    fillSeats();
  }
  if (selected && !canSelect(selected)) selected = null;
  if (drawn !== S.version || !$("pieces")) {
    drawBoard();
    drawPieces();
    drawLegend();
    drawn = S.version;
  }
  drawMarks();
  drawSide();
  $("engine-coords-l").hidden = S.variant !== "omega";
}

// ---- moving ----

function pieceAt(name) {
  return S.board.pieces.find((p) => p.sq === name);
}

function canSelect(name) {
  const p = pieceAt(name);
  // a piece without legal moves may be picked too: the server then says
  // why its move is refused
  return p && p.owner === S.side && S.legal.length > 0;
}

function tryMove(from, to) {
  selected = null;
  const matches = S.legal.filter((m) => m.from === from && m.to === to);
  if (matches.length > 1) {
    choosePromotion(matches);
    return;
  }
  // a move that is not in the list goes to the server too, which refuses
  // it with the reason
  const token = matches.length ? matches[0].token : from + to;
  send("/api/move", { move: token }).then((ok) => {
    if (ok) say("");
    drawMarks();
  });
}

function choosePromotion(moves) {
  const box = $("promo");
  box.textContent = "";
  for (const m of moves) {
    const b = document.createElement("button");
    b.textContent = m.promo;
    b.dataset.promo = m.promo;
    b.onclick = () => {
      box.hidden = true;
      send("/api/move", { move: m.token });
    };
    box.appendChild(b);
  }
  box.hidden = false;
}

function squareAt(evt) {
  const t = document.elementFromPoint(evt.clientX, evt.clientY);
  return t && t.dataset && t.dataset.sq ? t.dataset.sq : null;
}

function clickSquare(name) {
  if (!S || S.outcome) {
    if (S && S.outcome) say("the game is over: " + S.outcome.reason, "error");
    return;
  }
  if (selected === name) {
    selected = null;
  } else if (canSelect(name)) {
    selected = name;
  } else if (selected) {
    tryMove(selected, name);
    return;
  } else {
    const p = pieceAt(name);
    if (p && p.owner !== S.side) say(`${S.players[S.side].name} is to move`, "error");
  }
  drawMarks();
}

function setupInput() {
  const svg = $("board");
  svg.addEventListener("click", (e) => {
    const name = e.target.dataset && e.target.dataset.sq;
    if (name && !svg.dataset.dragged) clickSquare(name);
    delete svg.dataset.dragged;
  });
  svg.addEventListener("pointerdown", (e) => {
    const name = squareAt(e);
    dragFrom = name && canSelect(name) ? name : null;
  });
  svg.addEventListener("pointerup", (e) => {
    const name = squareAt(e);
    if (dragFrom && name && name !== dragFrom) {
      svg.dataset.dragged = "1";
      tryMove(dragFrom, name);
    }
    dragFrom = null;
  });
}

// ---- controls ----

function fillSeats() {
  const sel = $("seat");
  const seats = S.family === "four" ? ["red", "blue", "yellow", "green"] : ["white", "black"];
  const opts = seats.map((s) => [s, s[0].toUpperCase() + s.slice(1)]);
  opts.push(["none", "nobody (watch Chimera)"], ["all", "every seat (analysis)"]);
  const want = S.settings.seat;
  sel.textContent = "";
  for (const [v, t] of opts) {
    const o = document.createElement("option");
    o.value = v;
    o.textContent = t;
    sel.appendChild(o);
  }
  sel.value = want;
  $("movetime").value = S.settings.movetime_ms;
  $("clock").value = Math.round(S.settings.clock_ms / 60000);
  $("inc").value = Math.round(S.settings.inc_ms / 1000);
  $("delay").value = Math.round(S.settings.delay_ms / 1000);
  $("level").value = S.settings.level;
  $("multipv").value = S.settings.multipv;
  $("ffa").value = S.settings.ffa;
  fillEngines();
  const v = S.variant.startsWith("cwda-") ? "cwda" : S.variant;
  $("variant").value = v;
  if (v === "cwda") {
    const [, w, b] = S.variant.split("-");
    $("white-army").value = w;
    $("black-army").value = b;
  }
  variantFields();
}

// one choice per seat: Chimera or an engine of engines.toml that plays
// the variant shown
function fillEngines() {
  const box = $("seat-engines");
  box.textContent = "";
  const seats = S.family === "four" ? ["Red", "Blue", "Yellow", "Green"] : ["White", "Black"];
  const usable = S.engines.filter((e) => e.plays);
  box.hidden = usable.length === 0;
  seats.forEach((name, i) => {
    const l = document.createElement("label");
    l.textContent = `${name} is played by `;
    const sel = document.createElement("select");
    sel.id = "engine-" + i;
    sel.className = "seat-engine";
    for (const [v, t] of [["chimera", "Chimera"]].concat(usable.map((e) => [e.key, e.name]))) {
      const o = document.createElement("option");
      o.value = v;
      o.textContent = t;
      sel.appendChild(o);
    }
    sel.value = S.settings.engines[i] || "chimera";
    l.appendChild(sel);
    box.appendChild(l);
  });
}

function variantFields() {
  const v = $("variant").value;
  $("ffa-l").hidden = v !== "fourplayer-ffa";
  $("layout-l").hidden = !v.startsWith("fourplayer");
  $("white-l").hidden = $("black-l").hidden = v !== "cwda";
  // the seat list follows the chosen family
  const four = v.startsWith("fourplayer");
  const sel = $("seat");
  const have = Array.from(sel.options).map((o) => o.value);
  if (four !== have.includes("red")) {
    const seats = four ? ["red", "blue", "yellow", "green"] : ["white", "black"];
    sel.textContent = "";
    for (const s of seats.concat(["none", "all"])) {
      const o = document.createElement("option");
      o.value = s;
      o.textContent = s === "none" ? "nobody (watch Chimera)" : s === "all" ? "every seat (analysis)" : s[0].toUpperCase() + s.slice(1);
      sel.appendChild(o);
    }
  }
}

function settingsBody() {
  return {
    seat: $("seat").value,
    movetime_ms: Math.max(10, parseInt($("movetime").value, 10) || 1000),
    clock_ms: Math.max(0, parseInt($("clock").value, 10) || 0) * 60000,
    inc_ms: Math.max(0, parseInt($("inc").value, 10) || 0) * 1000,
    delay_ms: Math.max(0, parseInt($("delay").value, 10) || 0) * 1000,
    level: Math.min(20, Math.max(0, parseInt($("level").value, 10))),
    ffa: $("ffa").value,
  };
}

// the seats' engines, for a game of as many seats as the page shows
function enginesBody() {
  const list = Array.from(document.querySelectorAll(".seat-engine")).map((s) => s.value);
  return list.length === S.players.length ? { engines: list } : {};
}

async function newGame() {
  let v = $("variant").value;
  if (v === "cwda") v = `cwda-${$("white-army").value}-${$("black-army").value}`;
  // the form is read before the new state redraws it
  const settings = settingsBody();
  const engines = enginesBody();
  const ok = await send("/api/new", { variant: v, layout: $("layout").value });
  // a family change leaves the seats' engines to be chosen again
  const same = engines.engines && engines.engines.length === S.players.length;
  if (ok) await send("/api/settings", same ? Object.assign(settings, engines) : settings, "new game: " + v);
}

async function saveAs(format) {
  try {
    const r = await api("GET", "/api/save?format=" + format);
    $("record").value = r.text;
    const a = $("download");
    a.href = URL.createObjectURL(new Blob([r.text], { type: "text/plain" }));
    a.download = r.filename;
    a.hidden = false;
    a.textContent = "download " + r.filename;
    say("saved: the text is in the box below", "note");
  } catch (e) {
    say(e.message, "error");
  }
}

async function poll() {
  try {
    const st = await api("GET", "/api/state");
    show(st);
  } catch (e) {
    say("the server does not answer: " + e.message, "error");
  }
}

async function start() {
  try {
    window.pieceGlyphs = (await (await fetch("/pieces.svg")).text()).replace(/<\/?svg[^>]*>/g, "");
    const v = await api("GET", "/api/variants");
    armies = v.armies;
    const names = { "fourplayer-teams": "Four-player Teams", "fourplayer-ffa": "Four-player FFA", chess: "Chess", omega: "Omega Chess", cwda: "Chess with Different Armies" };
    for (const x of v.variants) {
      const o = document.createElement("option");
      o.value = x;
      o.textContent = names[x] || x;
      $("variant").appendChild(o);
    }
    for (const id of ["white-army", "black-army"]) {
      for (const a of armies) {
        const o = document.createElement("option");
        o.value = a.token;
        o.textContent = a.name;
        $(id).appendChild(o);
      }
    }
  } catch (e) {
    say("cannot reach the server: " + e.message, "error");
  }
  setupInput();
  $("variant").onchange = variantFields;
  $("new").onclick = newGame;
  $("apply").onclick = () => send("/api/settings", Object.assign(settingsBody(), enginesBody()), "settings applied");
  $("multipv").onchange = () => send("/api/settings", { multipv: Math.min(8, Math.max(1, parseInt($("multipv").value, 10) || 1)) });
  $("resign").onclick = () => send("/api/resign");
  $("undo").onclick = () => send("/api/undo");
  $("analyse").onchange = () => send("/api/settings", { analyse: $("analyse").checked });
  $("rotate").onclick = () => {
    rotation = (rotation + (S.family === "four" ? 1 : 2)) % 4;
    drawn = -1;
    show(S);
  };
  $("engine-coords").onchange = () => {
    drawn = -1;
    show(S);
  };
  $("first").onclick = () => send("/api/goto", { ply: 0 });
  $("prev").onclick = () => send("/api/goto", { ply: Math.max(0, S.cursor - 1) });
  $("next").onclick = () => send("/api/goto", { ply: Math.min(S.moves.length, S.cursor + 1) });
  $("last").onclick = () => send("/api/goto", { ply: S.moves.length });
  $("load").onclick = () => send("/api/load", { text: $("record").value }).then((ok) => ok && say(S.notice, "note"));
  $("file").onchange = async () => {
    const f = $("file").files[0];
    if (!f) return;
    if (f.size > 1000000) {
      say("the file is larger than 1 MB", "error");
      return;
    }
    $("record").value = await f.text();
    const ok = await send("/api/load", { text: $("record").value });
    if (ok) say(S.notice, "note");
  };
  $("save-record").onclick = () => saveAs("record");
  $("save-fen").onclick = () => saveAs("fen");
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "TEXTAREA" || e.target.tagName === "INPUT" || !S) return;
    if (e.key === "ArrowLeft") $("prev").click();
    if (e.key === "ArrowRight") $("next").click();
  });
  await poll();
  setInterval(poll, 250);
}

start();
