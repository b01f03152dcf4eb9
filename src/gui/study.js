// Study on the CHEX page: the hint, the analysis, the review and the
// cursor. main.js plugs the position it shows and its panel into the
// page. Like page.js it holds no rules: every square it marks, every
// value it shows and every position it draws comes from the server's
// view.

import { $, api, CELL, GLYPH, NAME, view } from "./page.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const MARK_WORD = { inaccuracy: "?!", mistake: "?", blunder: "??" };
let analysisPaused = false;   // turned off by this page going out of sight

// What the table shows: the game as it stands, or the cursor's position,
// on which nothing can be played.
export function studyShown(v) {
  if (!v || !v.cursor) return v;
  const c = v.cursor;
  return Object.assign({}, v, {
    tiles: c.tiles, last_move: c.last_move, check_square: c.check_square,
    pending: c.pending, legal: [], human_turn: false,
  });
}

function pct(x) { return x === null || x === undefined ? "–" : (100 * x).toFixed(1) + "%"; }
function sideName(s) { return s === "white" ? "White" : "Black"; }
function esc(s) { return String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;" }[c])); }
function centreOf(sq) { return [sq[0] * CELL + CELL / 2, -sq[1] * CELL + CELL / 2]; }

function kindWord(letter) { return NAME[letter.toUpperCase()]; }

// An action in the person's words: `@` is "draw a tile".
function actionWord(token) { return token === "@" ? "draw a tile" : token; }

// A move of the game as the move list numbers it: "24. … 1,-3-0,-3" for
// the second move of the list's 24th row. The review, the graph and the
// cursor all name a decision this way, so their numbers agree.
function moveLabel(ply, token) {
  return `${Math.floor(ply / 2) + 1}.${ply % 2 ? " …" : ""} ${actionWord(token)}`;
}

// ---- marks over the table ----

// Where each kind of mark puts its label on a square, so that marks of
// different kinds never print over each other: the analysis's ranks top
// right, the hint top left, a draw's kinds bottom left, the review's
// better action and the move asked about bottom right.
const CORNER = { analysis: "tr", hint: "tl", kind: "bl", best: "br", played: "br", probe: "br" };

// One action on the table: an arrow for a step, a marked square for a
// placement. Its label is not drawn here but collected in `labels`
// (square and corner -> the labels there), so that two actions ending
// on one square share one label ("R P") rather than hide each other.
function actionMark(token, squares, cls, label, data, labels) {
  const [from, to] = squares;
  if (!to) return "";
  const attrs = Object.entries(Object.assign({ token }, data))
    .map(([k, v]) => ` data-${k}="${esc(v)}"`).join("");
  const [tx, ty] = centreOf(to);
  if (label) {
    const key = `${to.join(",")}|${CORNER[cls]}`;
    if (!labels.has(key)) labels.set(key, { to, corner: CORNER[cls], cls, parts: [] });
    const parts = labels.get(key).parts;
    if (!parts.includes(label)) parts.push(label);
  }
  if (from) {
    const [fx, fy] = centreOf(from);
    const len = Math.hypot(tx - fx, ty - fy) || 1;
    // Stop short of the middle, so the head does not hide the tile.
    const ex = tx - (tx - fx) / len * 14, ey = ty - (ty - fy) / len * 14;
    return `<g class="mark arrow ${cls}"${attrs}><line x1="${fx}" y1="${fy}" x2="${ex}" y2="${ey}" marker-end="url(#head-${cls})"/></g>`;
  }
  return `<g class="mark place ${cls}"${attrs}><rect x="${tx - CELL / 2 + 4}" y="${ty - CELL / 2 + 4}" width="${CELL - 8}" height="${CELL - 8}" rx="6"/></g>`;
}

// The labels collected by actionMark, one text per square and corner.
function labelTexts(labels) {
  return [...labels.values()].map(({ to, corner, cls, parts }) => {
    const [tx, ty] = centreOf(to);
    const right = corner[1] === "r";
    const x = right ? tx + CELL / 2 - 3 : tx - CELL / 2 + 3;
    const y = corner[0] === "t" ? ty - CELL / 2 + 14 : ty + CELL / 2 - 4;
    return `<text class="label-${cls}" x="${x}" y="${y}" text-anchor="${right ? "end" : "start"}" data-sq="${to.join(",")}">${esc(parts.join(" "))}</text>`;
  }).join("");
}

function drawMarks() {
  const world = $("world");
  let svg = $("study-marks");
  if (!svg || svg.parentNode !== world) {
    svg = document.createElementNS(SVG_NS, "svg");
    svg.id = "study-marks";
    svg.setAttribute("class", "study-marks");
    world.appendChild(svg);
  }
  const heads = ["analysis", "hint", "best", "played", "kind", "probe"].map((c) =>
    `<marker id="head-${c}" class="head-${c}" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="4" markerHeight="4" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z"/></marker>`).join("");
  const parts = [];
  const labels = new Map();
  const c = view.cursor;
  const a = view.analysis;
  const analysing = a && a.on && !a.over;
  if (analysing) {
    const top = a.lines.slice(0, 3);
    for (const line of top) {
      parts.push(actionMark(line.token, line.squares, "analysis", String(line.rank), { rank: line.rank }, labels));
    }
    // A draw has no square of its own: its rank goes with each kind's
    // placement ("1:R" — draw, ranked 1, and a rook goes here).
    // The move asked about, in its own colour, beside the best.
    const p = a.probe;
    if (p) parts.push(actionMark(p.token, p.squares, "probe", "?", { source: "probe" }, labels));
    const draw = top.find((l) => l.token === "@");
    if (draw) {
      for (const k of a.kinds) {
        if (k.best) parts.push(actionMark(k.best, [null, k.to], "kind", `${draw.rank}:${k.kind.toUpperCase()}`, { kind: k.kind, source: "analysis", rank: draw.rank }, labels));
      }
    }
  }
  // The hint is an older answer than the analysis: while the analysis
  // runs only its marks are drawn, as lichess shows one engine's arrows.
  const h = view.hint;
  if (h && !c && h.best && !analysing) {
    parts.push(actionMark(h.best, h.squares, "hint", "H", { source: "hint" }, labels));
    for (const k of h.kinds) {
      if (k.best) parts.push(actionMark(k.best, [null, k.to], "kind", k.kind.toUpperCase(), { kind: k.kind, source: "hint" }, labels));
    }
  }
  if (c && c.played) {
    const d = view.review && view.review.decisions[c.decision];
    if (d && d.best && d.best !== d.played) parts.push(actionMark(d.best, d.best_squares, "best", "✓", { source: "review" }, labels));
    parts.push(actionMark(c.played, c.played_squares, "played", "", { source: "game" }, labels));
  }
  svg.innerHTML = `<defs>${heads}</defs>` + parts.join("") + labelTexts(labels);
}

// ---- the panel ----

function drawHint() {
  $("hint-btn").disabled = !view.human_turn || !!view.cursor;
  const h = view.hint;
  const box = $("hint-advice");
  if (!h) { box.textContent = ""; return; }
  if (h.status === "failed") { box.textContent = "Hint failed: " + h.message; return; }
  if (!h.best) { box.textContent = "Thinking of a hint…"; return; }
  let html;
  if (h.best === "@") {
    const rows = h.kinds.map((k) =>
      `<li data-kind="${k.kind}">${GLYPH[k.kind.toUpperCase()]} ${kindWord(k.kind)} ${k.count}/${Math.round(k.count / k.chance)} (${pct(k.chance)}): ` +
      (k.searched ? (k.best ? `place <b>${k.best}</b>` : "cannot be placed") : "…") + `</li>`).join("");
    html = `Hint: <b>draw a tile</b> (${pct(h.value)} for ${sideName(h.side)}). Then:<ul class="kinds">${rows}</ul>`;
  } else {
    html = `Hint: <b>${actionWord(h.best)}</b> (${pct(h.value)} for ${sideName(h.side)})`;
  }
  box.innerHTML = html + (h.status === "thinking" ? " …" : "");
}

function drawAnalysis() {
  const a = view.analysis;
  $("analysis-on").checked = a.on;
  $("analysis").classList.toggle("hidden", !a.on);
  if (!a.on) return;
  const w = a.white;
  $("eval-w").style.width = (w === null || w === undefined ? 50 : 100 * w) + "%";
  $("analysis-wdl").textContent = a.over ? "The game is over here." : w === null || w === undefined
    ? "analysing…"
    : `White ${pct(w)}` + (a.white_wdl ? ` · W ${a.white_wdl[0] / 10}% D ${a.white_wdl[1] / 10}% L ${a.white_wdl[2] / 10}%` : "");
  $("analysis-lines").innerHTML = a.lines.map((l) =>
    `<li data-token="${l.token}"><b>${l.token === "@" ? "draw" : l.token}</b> ${pct(l.value)} <span class="pv">${esc(l.pv)}</span></li>`).join("");
  const draws = a.lines.slice(0, 3).some((l) => l.token === "@");
  $("analysis-kinds").innerHTML = draws && a.kinds.length ? "If drawn: " + a.kinds.map((k) =>
    `<span data-kind="${k.kind}">${GLYPH[k.kind.toUpperCase()]} ${pct(k.chance)} → ${k.searched ? (k.best || "none") : "…"}</span>`).join(" · ") : "";
  drawProbe(a);
  $("analysis-message").textContent = a.message;
}

// The list of moves to ask about: rebuilt only when the legal actions
// change, so that the person's choice stays while the analysis reports.
function fillProbeList(a) {
  const list = $("probe-move");
  const legal = a.over || !a.legal ? [] : a.legal;
  const key = legal.join(" ");
  if (list.dataset.legal !== key) {
    const keep = list.value;
    list.innerHTML = legal.map((t) => `<option value="${esc(t)}">${esc(actionWord(t))}</option>`).join("");
    list.dataset.legal = key;
    if (legal.includes(keep)) list.value = keep;
  }
  $("probe-btn").disabled = legal.length === 0;
}

// "What about this move?": the move asked about beside the engine's
// best, and how they compare in words.
function drawProbe(a) {
  fillProbeList(a);
  const p = a.probe;
  const box = $("probe-result");
  if (!p) { box.innerHTML = ""; return; }
  const side = sideName(a.side);
  const lineOf = (label, l) => l
    ? `<div data-line="${label}">${label} <b>${esc(actionWord(l.token))}</b> ${pct(l.value)} for ${side} <span class="pv">${esc(l.pv)}</span></div>`
    : "";
  const asked = `<b>${esc(actionWord(p.token))}</b>`;
  if (p.status === "failed") {
    box.innerHTML = `Could not look at ${asked}: ${esc(p.message)}`;
    return;
  }
  const head = p.status === "thinking"
    ? `Looking at ${asked}…`
    : p.verdict
      ? `${asked}: <span class="verdict">${esc(p.verdict)}</span>`
      : `${asked}: waiting for the analysis's best move…`;
  box.innerHTML = head + lineOf("this move:", p.line) + lineOf("best:", p.best);
}

function drawGraph(r) {
  const box = $("graph");
  const n = r.decisions.length;
  const W = Math.max(120, box.clientWidth || 320), H = 110, pad = 6;
  const x = (i) => pad + (n > 1 ? i * (W - 2 * pad) / (n - 1) : (W - 2 * pad) / 2);
  const y = (v) => pad + (1 - v) * (H - 2 * pad);
  const pts = r.decisions.filter((d) => d.white !== null);
  const path = pts.map((d) => `${x(d.index).toFixed(1)},${y(d.white).toFixed(1)}`).join(" ");
  const cur = view.cursor ? view.cursor.decision : null;
  const dots = r.decisions.map((d) => {
    if (d.white === null) return "";
    const cls = ["pt", d.mark || "", d.index === cur ? "cur" : ""].join(" ");
    // The point is White's value where the decision began; the tooltip
    // gives it as "before" and the value of the action played beside it.
    const after = d.after && d.after.expected !== undefined
      ? (d.side === "white" ? d.after.expected : 1 - d.after.expected) : null;
    const tip = `${moveLabel(d.ply, d.played)} (${sideName(d.side)}): White ${pct(d.white)} before, ${pct(after)} after${d.mark ? " — " + d.mark : ""}`;
    return `<circle class="${cls}" cx="${x(d.index).toFixed(1)}" cy="${y(d.white).toFixed(1)}" r="${d.mark || d.index === cur ? 4.5 : 2.5}" data-decision="${d.index}" data-white="${d.white}"${d.mark ? ` data-mark="${d.mark}"` : ""}><title>${esc(tip)}</title></circle>`;
  }).join("");
  box.innerHTML = `<svg id="graph-svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" data-n="${n}">` +
    `<rect class="bg" x="0" y="0" width="${W}" height="${H}"/><line class="mid" x1="0" x2="${W}" y1="${y(0.5)}" y2="${y(0.5)}"/>` +
    `<polyline points="${path}"/>${dots}</svg>`;
  box.dataset.step = n > 1 ? (W - 2 * pad) / (n - 1) : 0;
  box.dataset.pad = pad;
}

function drawReview() {
  const r = view.review;
  $("review-btn").disabled = view.moves.length === 0;
  $("review").classList.toggle("hidden", !r);
  if (!r) return;
  const counts = { white: [0, 0, 0], black: [0, 0, 0] };
  for (const d of r.decisions) {
    const i = ["inaccuracy", "mistake", "blunder"].indexOf(d.mark);
    if (i >= 0) counts[d.side][i]++;
  }
  const count = (n, one, many) => `${n} ${n === 1 ? one : many}`;
  const sum = (s) => `${sideName(s)}: ${count(counts[s][0], "inaccuracy", "inaccuracies")}, `
    + `${count(counts[s][1], "mistake", "mistakes")}, ${count(counts[s][2], "blunder", "blunders")}`;
  $("review-progress").textContent = r.status === "running"
    ? `Reviewing… ${r.done} of ${r.decisions.length} decisions` : r.status === "failed"
      ? `Review failed: ${r.message}` : `${sum("white")} · ${sum("black")}`;
  drawGraph(r);
  const c = view.cursor;
  const d = c && r.decisions[c.decision];
  $("review-detail").innerHTML = d && d.searched
    ? `${moveLabel(d.ply, d.played)}: ${sideName(d.side)} ${d.played === "@" ? "drew a tile" : `played <b>${d.played}</b>`} (${pct(d.after && d.after.expected)})` +
      (d.best && d.best !== d.played ? `; better <b>${actionWord(d.best)}</b> (${pct(d.before && d.before.expected)})` : "; the best") +
      (d.mark ? ` — <span class="m ${d.mark}">${d.mark}</span>` : "")
    : "";
}

function drawCursor() {
  const c = view.cursor;
  const total = c ? c.decisions : null;
  $("cursor-bar").classList.toggle("hidden", view.moves.length === 0);
  // Named as the move list and the graph name it: the move about to be
  // played here, and the decision counted from 1.
  $("cursor-text").textContent = c
    ? `before ${c.played ? moveLabel(c.ply, c.played) : "the end"} (decision ${c.decision + 1} of ${total}, ${sideName(c.side)} to ${c.pending ? "place" : "move"})`
    : "the game as it stands";
  document.body.classList.toggle("at-cursor", !!c);
  // The move list: each move's mark, and the one the cursor is on.
  const marks = view.review ? view.review.moves : [];
  for (const el of document.querySelectorAll("#moves .mv")) {
    const i = Number(el.dataset.ply) - 1;
    el.classList.remove("inaccuracy", "mistake", "blunder", "cursor");
    const m = marks[i];
    if (m) {
      el.classList.add(m);
      el.dataset.mark = m;
      el.dataset.sym = MARK_WORD[m];
      el.title = m;
    } else {
      delete el.dataset.mark;
      delete el.dataset.sym;
    }
    if (c && c.ply === i) {
      el.classList.add("cursor");
      // Into the list's own view, without scrolling the page.
      const list = $("moves");
      const at = el.getBoundingClientRect().top - list.getBoundingClientRect().top;
      list.scrollTop += at - list.clientHeight / 2;
    }
  }
  const job = view.study_job;
  $("study-job").textContent = job ? job + "…" : "";
  $("study-job").classList.toggle("hidden", !job);
}

// The hook page.js's render calls.
export function drawStudy() {
  if (!view || !view.analysis) return;
  drawMarks();
  drawHint();
  drawAnalysis();
  drawReview();
  drawCursor();
}

// ---- the person's controls ----

// The decision last asked for while the server has not answered every
// request yet: keys pressed faster than the answers step from it, not
// from a view that does not show the last step.
let aimed = null;
let asking = 0;

async function cursorTo(decision) {
  aimed = decision === null ? view.decisions : decision;
  asking++;
  try {
    return await api("/api/cursor", { decision });
  } finally {
    if (--asking === 0) aimed = null;
  }
}

// One decision back or on; the last stop is the game as it stands.
function step(by) {
  if (!view) return;
  const n = view.decisions;
  const at = aimed !== null ? aimed : view.cursor ? view.cursor.decision : n;
  const d = Math.max(0, Math.min(n, at + by));
  if (d !== at) cursorTo(d >= n ? null : d);
}

$("hint-btn").addEventListener("click", () => api("/api/hint", {}, "study-message"));
$("analysis-on").addEventListener("change", (ev) => {
  analysisPaused = false;
  api("/api/analysis", { on: ev.target.checked }, "study-message");
});
$("probe-btn").addEventListener("click", () => {
  const token = $("probe-move").value;
  if (token) api("/api/probe", { token }, "study-message");
});
$("review-btn").addEventListener("click", () => {
  const ms = Number($("review-ms").value) || 250;
  api("/api/review", { movetime: ms }, "study-message");
});
$("cur-start").addEventListener("click", () => cursorTo(0));
$("cur-prev").addEventListener("click", () => step(-1));
$("cur-next").addEventListener("click", () => step(1));
$("cur-end").addEventListener("click", () => cursorTo(null));
$("graph").addEventListener("click", (ev) => {
  // The decision nearest the click along the time axis: the points of a
  // long game overlap, so the one on top is not always the one aimed at.
  const svg = $("graph-svg");
  if (!svg || !view.review) return;
  const box = svg.getBoundingClientRect();
  const stepPx = Number($("graph").dataset.step), pad = Number($("graph").dataset.pad);
  const n = view.review.decisions.length;
  const i = stepPx > 0 ? Math.round((ev.clientX - box.left - pad) / stepPx) : 0;
  cursorTo(Math.max(0, Math.min(n - 1, i)));
});
$("moves").addEventListener("click", (ev) => {
  const mv = ev.target.closest(".mv");
  if (mv) api("/api/cursor", { ply: Number(mv.dataset.ply) - 1 });
});
document.addEventListener("keydown", (ev) => {
  // Keys that edit a field stay with it; a checkbox or button has none.
  const t = ev.target;
  const field = t && (t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable ||
    (t.tagName === "INPUT" && !["checkbox", "radio", "button"].includes(t.type)));
  if (field) return;
  if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
  if (ev.key === "ArrowLeft") step(-1);
  else if (ev.key === "ArrowRight") step(1);
  else if (ev.key === "Home") cursorTo(0);
  else if (ev.key === "End") cursorTo(null);
  else return;
  ev.preventDefault();
});
// Analysis stops while the page is out of sight, and comes back with it.
document.addEventListener("visibilitychange", () => {
  if (!view) return;
  if (document.hidden && view.analysis.on) {
    analysisPaused = true;
    fetch("/api/analysis", { method: "POST", headers: { "Content-Type": "application/json" }, body: "{\"on\":false}", keepalive: true });
  } else if (!document.hidden && analysisPaused) {
    analysisPaused = false;
    api("/api/analysis", { on: true });
  }
});
window.addEventListener("resize", () => { if (view && view.review) drawReview(); });
