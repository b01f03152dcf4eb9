// The CHEX page. It holds no rules: it draws what the server's state says
// and sends the person's clicks back as move tokens; the server decides.
// An ES module: play.js and study.js import what they use from it, and
// main.js plugs their parts in (see `parts`), so it imports neither.

export const CELL = 56;
const MARGIN = 2;
export const GLYPH = { K: "\u265A", Q: "\u265B", R: "\u265C", B: "\u265D", N: "\u265E", P: "\u265F" };
export const NAME = { K: "king", Q: "queen", R: "rook", B: "bishop", N: "knight", P: "pawn" };

export let view = null;        // the last state from the server
let selected = null;    // "x,y" of the person's tile whose moves are shown
let zoom = 1;           // the person's zoom on top of the fit
let pan = { x: 0, y: 0 };
let centredAt = -1;     // the move count the view was last centred for

export const $ = (id) => document.getElementById(id);

// What play.js and study.js add to the page, filled in by main.js: the
// position the table shows (the cursor's, or the game's), clocks drawn in
// the time control's way (true when drawn), the panels drawn after each
// view, and the fields a new game's request takes from the Game panel.
export const parts = {
  shown: (v) => v,
  drawClocks: () => false,
  draw: [],
  newGame: () => ({}),
};

// Shows `text` (or clears it) in the message box `at`: each panel has its
// own box beside its controls, so an error appears where the person
// looked when they caused it, as lichess shows a form's error at the form.
export function showError(text, at = "message") {
  const box = $(at);
  box.textContent = text;
  box.classList.toggle("hidden", !text);
  if (text) box.scrollIntoView({ block: "nearest" });
}

// Sends a request; a refusal is shown in the box `at` (see showError),
// an accepted one clears it and draws the new view.
export async function api(path, body, at = "message") {
  const init = {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: body === undefined ? "" : typeof body === "string" ? body : JSON.stringify(body),
  };
  try {
    const res = await fetch(path, init);
    const text = await res.text();
    if (!res.ok) {
      showError(text.trim(), at);
      return null;
    }
    showError("", at);
    if (at !== "message") showError("");
    const state = JSON.parse(text);
    render(state);
    return state;
  } catch (e) {
    showError("the server cannot be reached: " + e, at);
    return null;
  }
}

export function play(token) {
  selected = null;
  return api("/api/move", { token });
}

// ---- the table ----

function bounds(tiles) {
  if (tiles.length === 0) return { x0: 0, x1: 0, y0: 0, y1: 0 };
  let b = { x0: Infinity, x1: -Infinity, y0: Infinity, y1: -Infinity };
  for (const t of tiles) {
    b.x0 = Math.min(b.x0, t.x); b.x1 = Math.max(b.x1, t.x);
    b.y0 = Math.min(b.y0, t.y); b.y1 = Math.max(b.y1, t.y);
  }
  return b;
}

function colourOf(letter) {
  return letter === letter.toUpperCase() ? "white" : "black";
}

function squareOf(token) {
  // The destination of a placement "N@x,y" or a move "x,y-x,y".
  const at = token.indexOf("@");
  if (at >= 0) return token.slice(at + 1);
  const m = token.match(/^(-?\d+,-?\d+)-(-?\d+,-?\d+)$/);
  return m ? m[2] : null;
}

function fromOf(token) {
  const m = token.match(/^(-?\d+,-?\d+)-(-?\d+,-?\d+)$/);
  return m ? m[1] : null;
}

// What the table shows: study.js may show another position of the game.
function shown() {
  return parts.shown(view);
}

// The person's legal tokens that end on each square, for what is shown.
function targets() {
  const out = new Map();
  if (!view || !view.human_turn || shown() !== view) return out;
  for (const token of view.legal) {
    if (token === "@") continue;
    if (view.pending) {
      out.set(squareOf(token), token);
    } else if (selected && fromOf(token) === selected) {
      out.set(squareOf(token), token);
    }
  }
  return out;
}

function movable() {
  const set = new Set();
  if (!view || !view.human_turn || view.pending || shown() !== view) return set;
  for (const token of view.legal) {
    const from = fromOf(token);
    if (from) set.add(from);
  }
  return set;
}

function drawTable() {
  const view = shown();
  const world = $("world");
  const tiles = view.tiles;
  const b = bounds(tiles);
  const at = new Map(tiles.map((t) => [t.x + "," + t.y, t]));
  const goals = targets();
  const mine = movable();
  const last = view.last_move;
  const lastFrom = last && last.from ? last.from.join(",") : null;
  const lastTo = last ? last.to.join(",") : null;
  const check = view.check_square ? view.check_square.join(",") : null;
  const parts = [];
  const x0 = b.x0 - MARGIN, x1 = b.x1 + MARGIN, y0 = b.y0 - MARGIN, y1 = b.y1 + MARGIN;
  for (let y = y1; y >= y0; y--) {
    for (let x = x0; x <= x1; x++) {
      const key = x + "," + y;
      const t = at.get(key);
      const cls = ["sq", (x + y) % 2 === 0 ? "a" : "b"];
      if (x === 0 && y === 0 && !t) cls.push("origin");
      if (goals.has(key)) cls.push("legal");
      if (goals.has(key) && t) cls.push("capture");
      if (mine.has(key)) cls.push("mine");
      if (key === selected) cls.push("selected");
      if (key === lastFrom) cls.push("last-from");
      if (key === lastTo) cls.push("last-to");
      if (key === check) cls.push("check");
      let inner = "";
      if (t) {
        const up = t.piece.toUpperCase();
        const c = colourOf(t.piece) === "white" ? "w" : "b";
        inner = `<div class="tile ${c}" data-piece="${t.piece}" title="${colourOf(t.piece)} ${NAME[up]} on ${key}">${GLYPH[up]}</div>`;
      }
      parts.push(`<div class="${cls.join(" ")}" data-sq="${key}" style="left:${x * CELL}px;top:${-y * CELL}px">${inner}</div>`);
    }
  }
  // Coordinates: files under the grid, ranks to its left.
  for (let x = x0; x <= x1; x++) {
    parts.push(`<div class="label" style="left:${x * CELL}px;top:${-(y0 - 1) * CELL - 18}px">${x}</div>`);
  }
  for (let y = y0; y <= y1; y++) {
    parts.push(`<div class="label" style="left:${(x0 - 1) * CELL + 14}px;top:${-y * CELL}px">${y}</div>`);
  }
  // Rebuild only on a change: an update that leaves the table as it was
  // (the engine's live info) must not replace the squares under the mouse.
  const html = parts.join("");
  if (html !== world.dataset.html) {
    world.innerHTML = html;
    world.dataset.html = html;
  }
  world.dataset.bounds = [x0, x1, y0, y1].join(",");
  placeWorld();
}

// Fits the group in the board, then applies the person's zoom and pan.
function placeWorld() {
  if (!view) return;
  const board = $("board");
  const [x0, x1, y0, y1] = $("world").dataset.bounds.split(",").map(Number);
  // Room for the rank labels on the left, and as much on the right, so
  // that the group sits in the middle.
  const w = (x1 - x0 + 3) * CELL, h = (y1 - y0 + 3) * CELL;
  // Squares never below 24 px at the person's zoom 1: a wide group on a
  // small screen is panned rather than shrunk out of reach.
  const fit = Math.max(24 / CELL, Math.min(1.5, board.clientWidth / w, board.clientHeight / h));
  const z = fit * zoom;
  const cx = (x0 + x1 + 1) / 2 * CELL;
  const cy = (-y1 - y0 + 1) / 2 * CELL;
  const tx = board.clientWidth / 2 - cx * z + pan.x;
  const ty = board.clientHeight / 2 - cy * z + pan.y;
  $("world").style.transform = `translate(${tx}px, ${ty}px) scale(${z})`;
}

function centre() {
  pan = { x: 0, y: 0 };
  zoom = 1;
  placeWorld();
}

// ---- the panels ----

function drawPiles() {
  const rows = view.piles.map((pile, i) => {
    const total = pile.reduce((n, [, c]) => n + c, 0);
    const who = i === 0 ? "White" : "Black";
    const cls = i === 0 ? "w" : "b";
    const kinds = pile.map(([letter, count]) =>
      `<span class="k${count ? "" : " zero"}" data-kind="${letter}" data-count="${count}" title="${NAME[letter.toUpperCase()]}"><span class="tile mini ${cls}">${GLYPH[letter.toUpperCase()]}</span>${count}</span>`).join("");
    return `<div class="pile" data-colour="${who.toLowerCase()}" data-total="${total}"><span class="who">${who} ${total}</span>${kinds}</div>`;
  });
  $("piles").innerHTML = rows.join("");
}

function drawMoves() {
  const items = [];
  const moves = view.moves;
  for (let i = 0; i < moves.length; i += 2) {
    const a = moves[i], b = moves[i + 1];
    const cell = (m, j) => m === undefined ? "" :
      `<span class="mv${j === moves.length - 1 ? " last" : ""}" data-ply="${j + 1}">${m}</span>`;
    items.push(`<li>${cell(a, i)}${cell(b, i + 1)}</li>`);
  }
  const list = $("moves");
  list.innerHTML = items.join("");
  list.scrollTop = list.scrollHeight;
}

function drawEngine() {
  const e = view.engine;
  const badge = $("engine-status");
  badge.textContent = e.status + (e.status === "thinking" && e.side ? ` for ${e.side}` : "");
  badge.className = "badge " + e.status;
  const last = view.last_move;
  if (e.status === "thinking" && view.pending) {
    const up = view.pending.toUpperCase();
    $("engine-move").innerHTML = `${e.side === "white" ? "White" : "Black"} drew a ${GLYPH[up]} ${NAME[up]}, placing it&hellip;`;
  } else if (e.status === "thinking") {
    $("engine-move").innerHTML = `${e.side === "white" ? "White" : "Black"} is thinking&hellip;`;
  } else if (last && last.engine) {
    $("engine-move").innerHTML = `Engine played <b>${last.token}</b>`;
  } else {
    $("engine-move").textContent = "";
  }
  const info = e.info;
  let [w, d, l] = info && info.wdl ? info.wdl : [0, 1000, 0];
  if (info && info.wdl && e.info_side === "black") [w, l] = [l, w];
  $("wdl-w").style.width = w / 10 + "%";
  $("wdl-d").style.width = d / 10 + "%";
  $("wdl-l").style.width = l / 10 + "%";
  $("wdl-text").textContent = info && info.wdl
    ? `White wins ${(w / 10).toFixed(1)}% · draw ${(d / 10).toFixed(1)}% · Black wins ${(l / 10).toFixed(1)}%`
    : "win / draw / loss appears while the engine thinks";
  // A proven result is a mate count, #N (#-N when mated), as UCI GUIs show it.
  const score = info && info.score;
  const shown = !score ? null : "mate" in score ? `#${score.mate}` : `${score.cp}`;
  $("score").textContent = shown !== null ? `${shown} for ${e.info_side}` : "–";
  $("nodes").textContent = info ? info.nodes : "–";
  $("nps").textContent = info ? info.nps : "–";
  $("pv").textContent = info && info.pv ? info.pv : "–";
  $("engine-message").textContent = e.message;
  $("engine-message").classList.toggle("hidden", !e.message);
  $("resume").classList.toggle("hidden", e.status !== "paused");
  // Below full strength the engine sometimes plays another move than its
  // search's line on purpose: say so, or the pv seems to contradict it.
  const weak = view.level < 6;
  $("level-note").textContent = weak
    ? `At level ${view.level} the engine sometimes plays a weaker move than its line (pv), on purpose.` : "";
  $("level-note").classList.toggle("hidden", !weak);
}

function drawStatus() {
  const side = view.side;
  const over = view.result !== "*" || view.aborted;
  const who = { white: "You play White", black: "You play Black", watch: "Watching engine against engine", two: "Two people" }[view.mode];
  const check = view.in_check && !over ? " — <b style=\"color:#ff8a8a\">check!</b>" : "";
  $("turn").innerHTML = over ? `<span>${who}</span>` :
    `<span class="dot ${side}"></span><span id="side">${side === "white" ? "White" : "Black"} to move${check}</span><span class="small">&nbsp;${who}</span>`;
  $("result").textContent = view.aborted ? `Aborted — ${view.reason}`
    : over ? `${view.result} — ${view.reason}` : "";
  // Looking back (the table on an earlier decision) plays nothing, as on
  // lichess: the person goes back to the game first.
  const back = !!view.cursor;
  const canDraw = view.human_turn && view.legal.includes("@") && !back;
  $("draw").disabled = !canDraw;
  $("draw").title = back && view.human_turn ? "back to the game first (End)" : "";
  // As on lichess, a finished game is not taken back: start a new one,
  // or look back with the cursor.
  $("takeback").disabled = view.mode === "watch" || view.moves.length === 0 || over;
  let hint = "";
  const drawn = $("drawn");
  const backButton = `<button class="back-to-game">Back to the game</button>`;
  const goesOn = view.clock ? "; your clock is running" : "";
  if (back && view.human_turn && !over) {
    drawn.classList.add("hidden");
    const what = view.pending ? `to place the ${NAME[view.pending.toUpperCase()]} you drew` : "to play";
    const html = `You are looking at an earlier position${goesOn}. ${backButton} ${what}.`;
    // Unchanged, the button stays: the engine's live info redraws often.
    if ($("hint").innerHTML !== html) $("hint").innerHTML = html;
  } else if (view.pending && view.human_turn) {
    const up = view.pending.toUpperCase();
    const c = colourOf(view.pending) === "white" ? "w" : "b";
    drawn.innerHTML = `<div class="tile ${c}" data-piece="${view.pending}">${GLYPH[up]}</div><div>You drew a <b>${NAME[up]}</b>.<br>Click a green square to place it.</div>`;
    drawn.classList.remove("hidden");
    hint = `Place the ${NAME[up]} on a highlighted square.`;
  } else {
    drawn.classList.add("hidden");
    if (over) hint = "The game is over. Start a new one below.";
    else if (view.human_turn) hint = "Draw a tile, or click one of your tiles to move it.";
    else hint = "Waiting for the engine.";
  }
  if (!(back && view.human_turn && !over)) $("hint").textContent = hint;
  $("mode").value = view.mode;
  if (document.activeElement !== $("movetime")) $("movetime").value = view.movetime;
  $("gameinfo").textContent = `seed ${view.seed} · ${view.position}`;
}

// ---- clocks: the time each side has spent, the side to move's running ----

export let viewAt = 0;  // performance.now() when the view came

export function clockText(ms) {
  const s = Math.floor(ms / 1000);
  const m = Math.floor(s / 60);
  return m >= 60 ? `${Math.floor(m / 60)}:${String(m % 60).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`
    : `${m}:${String(s % 60).padStart(2, "0")}`;
}

function drawClocks() {
  if (!view || !view.clocks_ms) return;
  if (parts.drawClocks()) return;
  // The server says when the side to move's time runs: not on a side's
  // first turn (lichess's rule), nor once the game is over.
  const running = view.clock_runs;
  ["white", "black"].forEach((side, i) => {
    let ms = view.clocks_ms[i];
    const mine = running && view.side === side;
    if (mine) ms += view.thinking_ms + (performance.now() - viewAt);
    const el = $(`clock-${side}`);
    el.textContent = clockText(ms);
    el.classList.toggle("running", mine);
  });
}
setInterval(drawClocks, 250);

export function render(state) {
  if (view && state.version < view.version) return;
  viewAt = performance.now();
  const movesBefore = view ? view.moves.length : -1;
  view = state;
  if (selected && !movable().has(selected)) selected = null;
  if (view.moves.length !== movesBefore && view.moves.length !== centredAt) {
    // Keep the group centred as it grows and walks; the zoom stays.
    pan = { x: 0, y: 0 };
    centredAt = view.moves.length;
  }
  drawTable();
  drawPiles();
  drawMoves();
  drawEngine();
  drawStatus();
  drawClocks();
  for (const draw of parts.draw) draw();
  document.body.dataset.version = view.version;
}

// ---- clicks, pan and zoom ----

let drag = null;
let dragged = false;

// True when a click only ends a pan of the table, and is no click; the
// pan is then over, so that the next click counts.
export function endedDrag() {
  const was = dragged;
  dragged = false;
  return was;
}

$("board").addEventListener("pointerdown", (ev) => {
  if (ev.target.closest("button")) return;
  drag = { x: ev.clientX, y: ev.clientY, px: pan.x, py: pan.y };
  dragged = false;
});
window.addEventListener("pointermove", (ev) => {
  if (!drag) return;
  const dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
  if (!dragged && Math.hypot(dx, dy) < 5) return;
  dragged = true;
  $("board").classList.add("panning");
  pan = { x: drag.px + dx, y: drag.py + dy };
  placeWorld();
});
window.addEventListener("pointerup", () => {
  drag = null;
  $("board").classList.remove("panning");
});
$("board").addEventListener("wheel", (ev) => {
  ev.preventDefault();
  zoomBy(ev.deltaY < 0 ? 1.1 : 1 / 1.1);
}, { passive: false });

function zoomBy(f) {
  const z = Math.max(0.2, Math.min(5, zoom * f));
  pan = { x: pan.x * z / zoom, y: pan.y * z / zoom };
  zoom = z;
  placeWorld();
}

$("world").addEventListener("click", (ev) => {
  if (endedDrag()) return;
  const sq = ev.target.closest(".sq");
  if (!sq || !view || !view.human_turn) return;
  const key = sq.dataset.sq;
  const goal = targets().get(key);
  if (goal) { play(goal); return; }
  if (!view.pending && movable().has(key)) {
    selected = selected === key ? null : key;
  } else {
    selected = null;   // not a legal move: nothing changes
    // One of the person's own tiles that cannot move: say so, rather
    // than seem not to hear the click.
    const t = shown() === view && !view.pending && view.tiles.find((t) => `${t.x},${t.y}` === key);
    if (t && colourOf(t.piece) === view.side) {
      $("hint").textContent = `The ${NAME[t.piece.toUpperCase()]} on ${key} has no legal move.`;
    }
  }
  drawTable();
});

$("draw").addEventListener("click", () => play("@"));
$("hint").addEventListener("click", (ev) => {
  if (ev.target.closest(".back-to-game")) api("/api/cursor", { decision: null });
});
$("takeback").addEventListener("click", () => { selected = null; api("/api/takeback"); });
$("resume").addEventListener("click", () => api("/api/resume"));
$("zoom-in").addEventListener("click", () => zoomBy(1.25));
$("zoom-out").addEventListener("click", () => zoomBy(1 / 1.25));
$("centre").addEventListener("click", centre);
$("new").addEventListener("click", () => {
  const body = { mode: $("mode").value, movetime: Number($("movetime").value) || view.movetime };
  const seed = $("seed").value.trim();
  if (seed !== "") body.seed = Number(seed);
  Object.assign(body, parts.newGame());
  selected = null;
  zoom = 1;
  api("/api/new", body, "game-message");
});
$("movetime").addEventListener("change", () => {
  const ms = Number($("movetime").value);
  if (ms) api("/api/settings", { movetime: ms }, "game-message");
});
$("save").addEventListener("click", async () => {
  const res = await fetch("/api/record");
  const line = (await res.text()).trim();
  $("record").value = line;
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([line + "\n"], { type: "application/json" }));
  a.download = `chex-seed-${view.seed}-${view.moves.length}.json`;
  a.click();
  URL.revokeObjectURL(a.href);
});
$("load").addEventListener("click", () => {
  const text = $("record").value.trim();
  if (text) api("/api/load", text, "game-message");
});
$("loadfile").addEventListener("change", async (ev) => {
  const file = ev.target.files[0];
  if (!file) return;
  const text = (await file.text()).trim();
  $("record").value = text;
  api("/api/load", text, "game-message");
  ev.target.value = "";
});
window.addEventListener("resize", placeWorld);

// ---- live state ----

export async function start() {
  try {
    const res = await fetch("/api/state");
    render(await res.json());
  } catch (e) {
    showError("the server cannot be reached: " + e);
  }
  const events = new EventSource("/api/events");
  events.addEventListener("state", (ev) => render(JSON.parse(ev.data)));
  events.onopen = () => { if (view) view.version = -1; showError(""); };
  events.onerror = () => showError("lost the server; reconnecting…");
}
