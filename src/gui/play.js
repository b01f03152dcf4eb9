// The page's play tools: time controls and clocks, the engine's level,
// the position editor, and the export of a game as a `position` command.
// main.js plugs its clocks, its panel and its new-game fields into the
// page. Like page.js it holds no rules: the server reads the edited
// position with the engine's own parser and says what is wrong with it.

import { $, api, CELL, clockText, endedDrag, GLYPH, NAME, showError, view, viewAt } from "./page.js";

// How many tiles of each kind a side's set holds (RULES.md section 1).
const SET = { K: 1, Q: 1, R: 2, B: 2, N: 2, P: 8 };
const KINDS = ["K", "Q", "R", "B", "N", "P"];

// ---- time control and level ----

// The clock the controls ask for, or null for a fixed time per move.
function chosenClock() {
  const choice = $("tc").value;
  if (choice === "move") return null;
  if (choice === "custom") {
    return {
      base_ms: Math.round(Number($("tc-base").value) * 1000),
      inc_ms: Math.round(Number($("tc-inc").value) * 1000),
    };
  }
  const [base, inc] = choice.split("+").map(Number);
  return { base_ms: base * 1000, inc_ms: inc * 1000 };
}

// What page.js's New game adds to its request.
export function playNewGame() {
  const body = { level: Number($("level").value) };
  const clock = chosenClock();
  if (clock) body.clock = clock;
  // Pondering gains the engine time only on a clock.
  if (clock && $("ponder").checked) body.ponder = true;
  return body;
}

// Under this much time left a clock shows tenths and turns red, as
// lichess's do.
const LOW_MS = 10000;

// A clock's time left, rounded up (whole seconds, tenths under 10 s):
// 0:00.0 only once the time is really out, when the flag falls.
function leftText(ms) {
  ms = Math.max(0, ms);
  if (ms >= LOW_MS) return clockText(Math.ceil(ms / 1000) * 1000);
  const tenths = Math.ceil(ms / 100);
  return `0:0${Math.floor(tenths / 10)}.${tenths % 10}`;
}

function tcText(clock) {
  const s = (ms) => String(ms / 1000);
  return `${s(clock.base_ms)} s + ${s(clock.inc_ms)} s`;
}

// The header's clocks in a clock game: time left, the running one
// counting down between views. False when the game has no clock, so that
// page.js shows the time spent instead.
export function drawPlayClocks() {
  const clocks = $("clocks");
  if (!view.clock) {
    clocks.classList.remove("countdown");
    clocks.title = "time spent on the game's answers";
    ["white", "black"].forEach((side) => $(`clock-${side}`).classList.remove("flagged", "low"));
    return false;
  }
  const c = view.clock;
  clocks.classList.add("countdown");
  clocks.title = `time left, ${tcText(c)} a turn`;
  ["white", "black"].forEach((side, i) => {
    let ms = c.left_ms[i];
    const running = c.running === side;
    if (running) ms -= view.thinking_ms + (performance.now() - viewAt);
    const el = $(`clock-${side}`);
    el.textContent = leftText(ms);
    el.dataset.ms = String(Math.max(0, Math.round(ms)));
    el.classList.toggle("running", running);
    el.classList.toggle("flagged", c.flagged === side);
    el.classList.toggle("low", ms < LOW_MS);
  });
  return true;
}

let controlsSet = false;

// Called by page.js's render after each view.
export function drawPlay() {
  if (document.activeElement !== $("level")) $("level").value = String(view.level);
  if (!controlsSet) {
    // The first view tells the controls what the game runs with; after
    // that they are the person's choice for the next game.
    controlsSet = true;
    if (view.clock) {
      const preset = `${view.clock.base_ms / 1000}+${view.clock.inc_ms / 1000}`;
      const known = [...$("tc").options].some((o) => o.value === preset);
      $("tc").value = known ? preset : "custom";
      $("tc-base").value = view.clock.base_ms / 1000;
      $("tc-inc").value = view.clock.inc_ms / 1000;
      $("tc-custom").classList.toggle("hidden", known);
    }
  }
  const tc = view.clock ? `clock ${tcText(view.clock)}` : `${view.movetime} ms a move`;
  $("gameinfo").textContent += ` · ${tc} · level ${view.level}` + (view.ponder && view.clock ? " · pondering" : "");
  if (!$("export-box").classList.contains("hidden")) exportGame();
}

$("tc").addEventListener("change", () => {
  $("tc-custom").classList.toggle("hidden", $("tc").value !== "custom");
});
$("level").addEventListener("change", () => {
  api("/api/settings", { level: Number($("level").value) }, "game-message");
});

// ---- export ----

let exported = "";

async function exportGame() {
  try {
    const res = await fetch("/api/export");
    const text = (await res.text()).trim();
    if (!res.ok) { showError(text, "game-message"); return; }
    exported = text;
    if ($("export-text").value !== text) $("export-text").value = text;
    $("export-box").classList.remove("hidden");
  } catch (e) {
    showError("the server cannot be reached: " + e, "game-message");
  }
}

$("export").addEventListener("click", exportGame);
$("export-copy").addEventListener("click", async () => {
  const box = $("export-text");
  let done = false;
  try {
    await navigator.clipboard.writeText(box.value);
    done = true;
  } catch (e) {
    box.select();
    done = document.execCommand("copy");
  }
  $("export-note").textContent = done ? "copied" : "select the text and copy it";
});
$("export-download").addEventListener("click", () => {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([exported + "\n"], { type: "text/plain" }));
  a.download = `chex-seed-${view.seed}-${view.moves.length}.txt`;
  a.click();
  URL.revokeObjectURL(a.href);
});

// ---- the position editor ----

// While editing: the tiles ("x,y" -> {piece, moved}), the piles (letter
// -> count), the side to move, the two counters (halfmove and fullmove,
// as written), the tool (a letter, or "" to erase), and how many tiles of
// each letter the editor took out of the pile to put on the table.
let setup = null;

function blankSetup() {
  return { tiles: new Map(), piles: fullPiles(), side: "w", counters: "0 1", tool: "K", taken: {} };
}

function fullPiles() {
  const piles = {};
  for (const k of KINDS) { piles[k] = SET[k]; piles[k.toLowerCase()] = SET[k]; }
  return piles;
}

// The editor from a position string (the view's `position`): its tiles,
// with the moved pawns' marks kept, its piles and its side.
function setupFrom(position) {
  const [tiles, side, piles, halfmove, fullmove] = position.split(" ");
  const out = { tiles: new Map(), piles: {}, side, counters: `${halfmove} ${fullmove}`, tool: "K", taken: {} };
  if (tiles !== "-") {
    for (const t of tiles.split("/")) {
      const m = t.match(/^([KQRBNPkqrbnp])(-?\d+),(-?\d+)(\*?)$/);
      if (m) out.tiles.set(`${m[2]},${m[3]}`, { piece: m[1], moved: m[4] === "*" });
    }
  }
  for (const k of KINDS) { out.piles[k] = 0; out.piles[k.toLowerCase()] = 0; }
  for (const c of piles.replace("/", "")) if (c in out.piles) out.piles[c] += 1;
  return out;
}

function onTable(piece) {
  let n = 0;
  for (const t of setup.tiles.values()) if (t.piece === piece) n += 1;
  return n;
}

// The position string the editor shows: protocol.md's `position fen`.
function setupPosition() {
  const tiles = [...setup.tiles.entries()].map(([sq, t]) => `${t.piece}${sq}${t.moved ? "*" : ""}`);
  const pile = (upper) => {
    const letters = KINDS.map((k) => (upper ? k : k.toLowerCase()).repeat(setup.piles[upper ? k : k.toLowerCase()])).join("");
    return letters || "-";
  };
  return `${tiles.length ? tiles.join("/") : "-"} ${setup.side} ${pile(true)}/${pile(false)} ${setup.counters}`;
}

function openSetup(fromGame) {
  setup = fromGame ? setupFrom(view.position) : blankSetup();
  document.body.classList.add("setup-mode");
  $("setup-panel").classList.remove("hidden");
  $("setup-side").value = setup.side;
  const mode = view.mode;
  $("setup-mode").value = mode;
  drawPalette();
  drawSetup();
  // On a phone the panel is under the table: show the table being set
  // up, with the palette under it, rather than the panel alone.
  const narrow = window.matchMedia("(max-width: 700px)").matches;
  $(narrow ? "board" : "setup-panel").scrollIntoView({ block: narrow ? "start" : "nearest" });
}

function closeSetup() {
  setup = null;
  document.body.classList.remove("setup-mode");
  $("setup-panel").classList.add("hidden");
  $("setup-world").innerHTML = "";
}

function drawPalette() {
  const tools = [];
  for (const colour of ["w", "b"]) {
    for (const k of KINDS) {
      const letter = colour === "w" ? k : k.toLowerCase();
      tools.push(`<button class="pal" data-tool="${letter}" title="${colour === "w" ? "white" : "black"} ${NAME[k]}"><span class="tile mini ${colour}">${GLYPH[k]}</span></button>`);
    }
  }
  tools.push(`<button class="pal eraser" data-tool="" title="eraser: remove a tile">&#x2715;</button>`);
  $("palette").innerHTML = tools.join("");
  // A table: a column per kind, a row per side's pile.
  const head = KINDS.map((k) => `<th title="${NAME[k]}s">${GLYPH[k]}</th>`).join("");
  const rows = ["w", "b"].map((colour) => {
    const who = colour === "w" ? "White" : "Black";
    const cells = KINDS.map((k) => {
      const letter = colour === "w" ? k : k.toLowerCase();
      return `<td><input type="number" min="0" max="${SET[k]}" data-pile="${letter}" aria-label="${who}'s ${NAME[k]}s in the pile"></td>`;
    }).join("");
    return `<tr><th class="who">${who}</th>${cells}</tr>`;
  });
  $("setup-piles").innerHTML = `<table class="setup-pile"><tr><th class="who">piles</th>${head}</tr>${rows.join("")}</table>`;
}

// The grid of the editor: the tiles and two squares around them, or
// around 0,0 when the table is empty, fitted into the board.
function drawSetup() {
  if (!setup) return;
  const keys = [...setup.tiles.keys()].map((k) => k.split(",").map(Number));
  let [x0, x1, y0, y1] = [0, 0, 0, 0];
  if (keys.length) {
    x0 = Math.min(...keys.map((k) => k[0])); x1 = Math.max(...keys.map((k) => k[0]));
    y0 = Math.min(...keys.map((k) => k[1])); y1 = Math.max(...keys.map((k) => k[1]));
  }
  x0 -= 2; x1 += 2; y0 -= 2; y1 += 2;
  const parts = [];
  for (let y = y1; y >= y0; y--) {
    for (let x = x0; x <= x1; x++) {
      const key = `${x},${y}`;
      const t = setup.tiles.get(key);
      const cls = ["sq", (x + y) % 2 === 0 ? "a" : "b"];
      if (x === 0 && y === 0 && !t) cls.push("origin");
      let inner = "";
      if (t) {
        const up = t.piece.toUpperCase();
        const c = t.piece === up ? "w" : "b";
        inner = `<div class="tile ${c}" data-piece="${t.piece}">${GLYPH[up]}</div>`;
      }
      parts.push(`<div class="${cls.join(" ")}" data-sq="${key}" style="left:${(x - x0 + 1) * CELL}px;top:${(y1 - y + 1) * CELL}px">${inner}</div>`);
    }
  }
  for (let x = x0; x <= x1; x++) {
    parts.push(`<div class="label" style="left:${(x - x0 + 1) * CELL}px;top:${(y1 - y0 + 2) * CELL - 18}px">${x}</div>`);
  }
  for (let y = y0; y <= y1; y++) {
    parts.push(`<div class="label" style="left:14px;top:${(y1 - y + 1) * CELL}px">${y}</div>`);
  }
  const grid = $("setup-world");
  grid.innerHTML = `<div class="setup-grid">${parts.join("")}</div>`;
  const w = (x1 - x0 + 3) * CELL, h = (y1 - y0 + 3) * CELL;
  const board = $("board");
  const z = Math.min(1.5, board.clientWidth / w, board.clientHeight / h);
  const inner = grid.firstChild;
  inner.style.width = `${w}px`;
  inner.style.height = `${h}px`;
  inner.style.transform = `translate(${(board.clientWidth - w * z) / 2}px, ${(board.clientHeight - h * z) / 2}px) scale(${z})`;
  for (const b of $("palette").querySelectorAll(".pal")) {
    b.classList.toggle("chosen", b.dataset.tool === setup.tool);
  }
  for (const input of $("setup-piles").querySelectorAll("input")) {
    if (document.activeElement !== input) input.value = setup.piles[input.dataset.pile];
  }
  $("setup-fen").textContent = setupPosition();
}

$("setup-new").addEventListener("click", () => openSetup(false));
$("setup-edit").addEventListener("click", () => openSetup(true));
$("setup-cancel").addEventListener("click", closeSetup);
$("setup-clear").addEventListener("click", () => {
  // Every tile goes back to its pile, as the eraser puts one back: the
  // set stays whole (a pile never holds more than the set's count).
  for (const t of setup.tiles.values()) {
    if (setup.piles[t.piece] < SET[t.piece.toUpperCase()]) setup.piles[t.piece] += 1;
  }
  setup.tiles.clear();
  setup.taken = {};
  drawSetup();
});
$("setup-side").addEventListener("change", () => { setup.side = $("setup-side").value; drawSetup(); });
$("palette").addEventListener("click", (ev) => {
  const b = ev.target.closest(".pal");
  if (!b || !setup) return;
  setup.tool = b.dataset.tool;
  drawSetup();
});
$("setup-piles").addEventListener("input", (ev) => {
  const input = ev.target.closest("input[data-pile]");
  if (!input || !setup) return;
  const n = Math.floor(Number(input.value));
  // Counts beyond the set are the server's to refuse, with the reason.
  if (Number.isFinite(n) && n >= 0) {
    setup.piles[input.dataset.pile] = n;
    setup.taken[input.dataset.pile] = 0;
  }
  $("setup-fen").textContent = setupPosition();
});
$("setup-world").addEventListener("click", (ev) => {
  if (endedDrag()) return;
  const sq = ev.target.closest(".sq");
  if (!sq || !setup) return;
  const key = sq.dataset.sq;
  const here = setup.tiles.get(key);
  if (here) {
    // A tile taken off the table goes back to the pile it came from.
    setup.tiles.delete(key);
    if (setup.taken[here.piece] > 0) {
      setup.taken[here.piece] -= 1;
      setup.piles[here.piece] += 1;
    }
  }
  const p = setup.tool;
  if (p !== "" && !(here && here.piece === p)) {
    setup.tiles.set(key, { piece: p, moved: false });
    // A tile put on the table comes out of its pile when the set would
    // otherwise hold too many.
    if (setup.piles[p] > 0 && setup.piles[p] + onTable(p) > SET[p.toUpperCase()]) {
      setup.piles[p] -= 1;
      setup.taken[p] = (setup.taken[p] || 0) + 1;
    }
  }
  drawSetup();
});
$("setup-use").addEventListener("click", async () => {
  if (!setup) return;
  // The time control and level chosen in the Game panel, as New game
  // sends them.
  const body = Object.assign({ position: setupPosition(), mode: $("setup-mode").value }, playNewGame());
  const state = await api("/api/setup", body, "setup-message");
  if (state) closeSetup();
});
window.addEventListener("resize", drawSetup);
