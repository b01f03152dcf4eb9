// The page's entry: plugs play.js's and study.js's parts into page.js and
// starts the page. Each script imports what it uses; page.js imports
// neither of the others, and nothing imports this one.

import { parts, play, render, start, view } from "./page.js";
import { drawPlay, drawPlayClocks, playNewGame } from "./play.js";
import { drawStudy, studyShown } from "./study.js";

Object.assign(parts, {
  shown: studyShown,
  drawClocks: drawPlayClocks,
  draw: [drawPlay, drawStudy],
  newGame: playNewGame,
});

// The page's own handle, for the console and the browser tests: a module's
// names are not global.
window.chex = { play, render, get view() { return view; } };

start();
