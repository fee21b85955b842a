// @ts-check
// The page of `ulm serve`: ES modules, no build step. The server holds every game;
// this page shows what /api/games/{id} returns and sends decisions by id. This module
// is the controller: it renders the panels of the game shown and wires the controls.
// Panels: board.js, summary.js, moves.js (with variations.js), advice.js, graph.js
// (review), setup.js; requests: api.js; what the page holds: state.js.
import {api, message} from "./api.js";
import {adviceHere, cancel, hint, hintButton, showAdvice} from "./advice.js";
import {renderChances} from "./chances.js";
import {boardNow, showBoard} from "./board.js";
import {$, forgetError, form, input, say, select} from "./dom.js";
import {annotate, continueFrom, goto, renderReview, reviewThis} from "./graph.js";
import {backToGame, decide, enterWords, renderDecisions, renderLooking, renderMoves,
  stepByKey, takeBack, tryLineHere, undo} from "./moves.js";
import {watchWidth} from "./phone.js";
import {startPolling, stopPolling} from "./poll.js";
import {botExamples, followSeats, seatRows, showSetup, startFollow, startPlay, upload, variantOptions} from "./setup.js";
import {controller, current, ui} from "./state.js";
import {renderSummary} from "./summary.js";
import {extendVariation, variationsNow} from "./variations.js";

/** @typedef {import("./types.js").Game} Game */

/** Show a game the server sent. @param {Game} g */
function open(g) {
  ui.game = g;
  history.replaceState(null, "", `/?game=${g.id}`);
  localStorage.setItem("ulm-game", g.id);
  $("#setup").hidden = true;
  $("#game").hidden = false;
  for (const t of document.querySelectorAll(".tab")) {
    if (t instanceof HTMLElement) t.classList.toggle("active", t.dataset.mode === g.mode);
  }
  render();
}

let shownVersion = "";

/** Every panel of the game shown, from ui.game. */
function render() {
  const g = current();
  if (`${g.id}/${g.version}` !== shownVersion) { shownVersion = `${g.id}/${g.version}`; forgetError(); }
  if (ui.looking && (g.mode === "review" || ui.looking.total !== g.history.length)) ui.looking = null;
  variationsNow();
  renderBoard(g);
  renderLooking(g);
  renderSummary(g);
  renderDecisions(g);
  hintButton();
  if (!ui.job || ui.job.kind !== "hint") showAdvice(adviceHere(g));
  $("#review-controls").hidden = g.mode !== "review";
  if (g.mode === "review") renderReview(g);
  renderChances(g);
  renderMoves(g);
  const botToMove = g.seats.some((s) => s.seat === g.to_move && s.kind === "bot");
  if (g.thinking || (botToMove && !g.terminal)) startPolling(); else stopPolling();
}

/** The board and its targets: the game's decisions, a variation's, or none. @param {Game} g */
function renderBoard(g) {
  if (ui.exploring) showBoard(boardNow(), ui.exploring.data.options, extendVariation);
  else showBoard(boardNow(), ui.looking ? null : g.options, decide);
}

function wireControls() {
  form("#form-play").players.onchange = seatRows;
  form("#form-play").onsubmit = startPlay;
  form("#form-follow").players.onchange = followSeats;
  form("#form-follow").onsubmit = startFollow;
  input("#upload-view").onchange = () => upload(input("#upload-view"), "follow", "view");
  input("#upload-record").onchange = () => upload(input("#upload-record"), "review", "record");
  for (const t of document.querySelectorAll(".tab")) {
    if (t instanceof HTMLElement) t.onclick = () => showSetup(t.dataset.mode || "play");
  }
  $("#undo").onclick = undo;
  $("#download").onclick = () => { window.location.href = `/api/games/${current().id}/download`; };
  $("#new-game").onclick = () => showSetup(ui.game ? ui.game.mode : "play");
  $("#hint").onclick = hint;
  form("#words").onsubmit = enterWords;
  $("#cancel").onclick = cancel;
  $("#annotate").onclick = annotate;
  $("#review-this").onclick = reviewThis;
  $("#cont-play").onclick = () => continueFrom("play");
  $("#cont-follow").onclick = () => continueFrom("follow");
  $("#back-to-game").onclick = backToGame;
  $("#try-line").onclick = tryLineHere;
  $("#take-back").onclick = takeBack;
  wireReviewSteps();
  document.addEventListener("keydown", stepByKey);
  document.addEventListener("click", () => { $("#menu").hidden = true; });
}

function wireReviewSteps() {
  const at = () => current().index || 0;
  $("#rv-first").onclick = () => goto(0);
  $("#rv-prev").onclick = () => goto(Math.max(at() - 1, 0));
  $("#rv-next").onclick = () => goto(Math.min(at() + 1, current().total || 0));
  $("#rv-last").onclick = () => goto(current().total || 0);
  input("#rv-slider").onchange = () => goto(+input("#rv-slider").value);
  select("#rv-as").onchange = () => goto(at(), select("#rv-as").value);
}

async function main() {
  controller.render = render;
  controller.open = open;
  // what the page shows, for the browser tests and the console (read only)
  for (const name of /** @type {const} */ (["game", "looking", "exploring"])) {
    Object.defineProperty(window, name, {get: () => ui[name], configurable: true});
  }
  try { ui.info = await api("GET", "/api/info"); } catch (e) { say(message(e), "error"); return; }
  botExamples();
  variantOptions();
  for (const opt of select("#hint-seconds").options) opt.disabled = +opt.value > ui.info.max_seconds;
  wireControls();
  watchWidth();
  seatRows();
  followSeats();
  // a reload finds the game again: its id is in the address (or remembered)
  const params = new URLSearchParams(location.search);
  const id = params.get("game") || (params.get("mode") ? null : localStorage.getItem("ulm-game"));
  if (id) {
    try { open(await api("GET", `/api/games/${id}`)); return; }
    catch (e) { say(message(e), "error"); }
  }
  showSetup(params.get("mode") || "play");
}

main();
