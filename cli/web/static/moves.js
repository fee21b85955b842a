// @ts-check
// The moves panel: the decisions offered (buttons, and words in Follow), the move list
// with its variations, looking back at an earlier board, undo and take-back.
import {api, call} from "./api.js";
import {hideMenu} from "./board.js";
import {$, button, esc, input} from "./dom.js";
import {goto} from "./graph.js";
import {controller, current, ui} from "./state.js";
import {asked, dropVariation, renderExploring, showVariation, tryLine, variationItems} from "./variations.js";

/** @typedef {import("./types.js").Game} Game */

/** @param {number | string} decision an offered decision of the game, by id */
export async function decide(decision) {
  await call(async () => {
    const id = current().id;
    try { ui.game = await api("POST", `/api/games/${id}/decide`, {decision}); }
    catch (e) {           // refused: the game may have moved on meanwhile (a bot, another tab)
      ui.game = await api("GET", `/api/games/${id}`);
      controller.render();
      throw e;
    }
    controller.render();
  });
}

/** @param {SubmitEvent} ev the words form of Follow */
export async function enterWords(ev) {
  ev.preventDefault();
  const text = input("#words-text").value.trim();
  if (!text) return;
  await call(async () => {
    ui.game = await api("POST", `/api/games/${current().id}/decide`, {text});
    input("#words-text").value = "";
    controller.render();
  });
}

/** Undo (Play, Follow) or one decision back (Review). */
export async function undo() {
  const g = current();
  if (g.mode === "review") return goto((g.index || 0) - 1);
  await call(async () => { ui.game = await api("POST", `/api/games/${g.id}/undo`); controller.render(); });
}

/** @param {Game} g the decisions offered now */
export function renderDecisions(g) {
  const box = $("#decisions");
  box.innerHTML = "";
  $("#decisions-box").hidden = g.mode === "review" || !!ui.exploring || !!ui.looking;
  $("#decisions-title").textContent = g.options.length
    ? (g.to_move === "chance" ? "What was drawn?" : g.mode === "follow" && g.to_move !== g.viewer ? `What did ${g.to_move} do?` : "Your decisions")
    : "Decisions";
  if (!g.options.length) {
    box.innerHTML = `<p class="note">${g.terminal ? "The game is over." : g.thinking ? "Waiting for the bot…" : "Nothing to decide now."}</p>`;
  }
  for (const opt of g.options) {
    const b = document.createElement("button");
    b.className = "decision" + (opt.target ? " on-board" : "");
    b.textContent = opt.name;
    b.dataset.decision = String(opt.decision);
    b.title = opt.target ? "also on the board: click its place there" : "decide this";
    b.onclick = () => decide(opt.decision);
    box.appendChild(b);
  }
  $("#words").hidden = g.mode !== "follow" || g.terminal;
  if (g.words_hint) box.insertAdjacentHTML("afterbegin", `<p class="note words-hint">${esc(g.words_hint)}</p>`);
}

/** @param {Game} g the buttons under the move list and the list itself */
export function renderMoves(g) {
  button("#undo").disabled = !g.can_undo;
  $("#undo").textContent = g.mode === "review" ? "Back" : "Undo";
  $("#download").textContent = g.mode === "follow" ? "Save view" : "Save record";
  button("#download").disabled = (g.mode === "follow" && !g.can_save) ||
    (g.mode === "play" && !g.terminal && g.viewer !== null);
  // the move list: click (or Enter on) a decision to see the board right after it
  const hist = $("#history");
  const at = shownIndex();
  const since = firstSinceYours(g);
  const start = `<li class="h start${at === 0 ? " current" : ""}" data-after="0" value="0" tabindex="0" title="the board before the first decision">start</li>`;
  hist.innerHTML = start + variationItems(0) + g.history.map((h) => {
    const cur = (h.index + 1 === at ? " current" : "") + (since !== null && h.index >= since ? " since" : "");
    const chance = (h.chance || []).map((c) => `<span class="chance">${esc(c)}</span>`).join("");
    return `<li class="h${cur}" data-index="${h.index}" data-after="${h.index + 1}" value="${h.index + 1}" tabindex="0" title="see the board after this decision"><span class="seat-dot seat-${h.seat}"></span><span class="who-did">${esc(h.seat)}</span> ${esc(h.name)}${chance}</li>` + variationItems(h.index + 1);
  }).join("");
  wireMoveList(hist);
  const cur = hist.querySelector(".current");
  if (cur instanceof HTMLElement && (ui.looking || g.mode === "review")) scrollWithin(hist, cur);
  else hist.scrollTop = hist.scrollHeight;
}

/**
 * Scroll the list, and only the list, to show `item` (the page does not move).
 * @param {HTMLElement} list @param {HTMLElement} item
 */
function scrollWithin(list, item) {
  const box = list.getBoundingClientRect(), it = item.getBoundingClientRect();
  if (it.top < box.top) list.scrollTop -= box.top - it.top;
  else if (it.bottom > box.bottom) list.scrollTop += it.bottom - box.bottom;
}

/** @param {HTMLElement} hist */
function wireMoveList(hist) {
  for (const v of hist.querySelectorAll("span.var-step")) {
    if (!(v instanceof HTMLElement)) continue;
    v.onclick = (ev) => { ev.stopPropagation(); showVariation(Number(v.dataset.vi), Number(v.dataset.upto)); };
  }
  for (const x of hist.querySelectorAll("button.var-drop")) {
    if (!(x instanceof HTMLElement)) continue;
    x.onclick = (ev) => { ev.stopPropagation(); dropVariation(Number(x.dataset.vi)); };
  }
  for (const li of hist.querySelectorAll("li.h")) {
    if (!(li instanceof HTMLElement)) continue;
    const after = Number(li.dataset.after);
    li.onclick = () => showAt(after);
    li.onkeydown = (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); showAt(after); } };
  }
}

// ---------------------------------------------------------------- looking back
/** The position shown: the number of decisions played before it. */
export function shownIndex() {
  const g = ui.game;
  if (!g) return 0;
  if (g.mode === "review") return g.index || 0;
  return ui.looking ? ui.looking.index : g.history.length;
}

/** The number of decisions of the game (of the record under review). @param {Game} g */
function decisionsOf(g) {
  return g.mode === "review" ? g.total || 0 : g.history.length;
}

/** Show the board after `index` decisions (the game now at the last). @param {number} index */
export async function showAt(index) {
  const g = ui.game;
  if (!g) return;
  ui.exploring = null;
  const total = decisionsOf(g);
  index = Math.max(0, Math.min(index, total));
  if (g.mode === "review") return goto(index);
  if (index === total) { ui.looking = null; ui.lookingFor = null; controller.render(); return; }
  ui.lookingFor = index;     // arrow keys pressed meanwhile step on from here
  await call(async () => {
    const b = await api("GET", `/api/games/${g.id}/board?index=${index}`);
    if (ui.lookingFor !== index) return;
    ui.lookingFor = null;
    ui.looking = b;
    controller.render();
  });
}

/** Back from an earlier board or a variation to the game as it is now. */
export function backToGame() {
  ui.looking = null;
  ui.exploring = null;
  controller.render();
}

/** @param {Game} g the card above the board: an earlier board or a variation shown */
export function renderLooking(g) {
  const box = $("#looking");
  const at = shownIndex();
  box.hidden = false;
  box.classList.toggle("active", !!(ui.looking || ui.exploring));
  $("#back-to-game").hidden = !ui.looking && !ui.exploring;
  // another line only where the viewer decides (not at a bot's decision, a draw, the end)
  const mayVary = ui.looking ? ui.looking.can_vary : g.can_vary;
  $("#try-line").hidden = !!ui.exploring || !mayVary || g.terminal && at === (g.total || g.history.length);
  $("#variation-options").innerHTML = "";
  if (ui.exploring) { renderExploring(); return; }
  $("#back-to-game").textContent = "Back to the game";
  if (!ui.looking) { sinceYours(g); $("#take-back").hidden = true; return; }
  $("#looking-text").textContent = ui.looking.index === 0
    ? "The board before the first decision."
    : `The board after decision ${ui.looking.index} of ${ui.looking.total}.`;
  $("#take-back").hidden = g.mode !== "play";
}

/**
 * The index of the first decision since the viewer's last one, when others decided
 * since (null: none, or no viewer). @param {Game} g
 */
export function firstSinceYours(g) {
  if (g.mode === "review" || !g.viewer) return null;
  let k = g.history.length;
  while (k > 0 && g.history[k - 1].seat !== g.viewer) k -= 1;
  return k < g.history.length ? k : null;
}

/** Above the board of the game now: the turns since the viewer's last decision, to step through. @param {Game} g */
function sinceYours(g) {
  const box = $("#looking-text");
  const first = firstSinceYours(g);
  if (first === null) { box.textContent = ""; return; }
  /** @type {string[]} */
  const turns = [];
  for (const h of g.history.slice(first)) {
    if (h.seat !== "chance" && turns[turns.length - 1] !== h.seat) turns.push(h.seat);
  }
  // only draws since (a followed game's set-up): no seat's turn to name or step through
  if (!turns.length) { box.textContent = ""; return; }
  const said = turns.map((s) => `<span class="seat-dot seat-${esc(s)}"></span>${esc(s)}`).join(", ");
  const yours = g.history.slice(0, first).some((h) => h.seat === g.viewer);
  box.innerHTML = `${yours ? "Since your last decision" : "Before your first decision"}: ${said} (marked on the board in their colours). ` +
    `<button id="step-since" title="the board after each of their decisions, one by one (→ the next, End back here)">Step through them</button>`;
  $("#step-since").onclick = () => showAt(first + 1);
}

/** A new variation from the position shown. */
export function tryLineHere() { return tryLine(shownIndex()); }

/** Take back every decision after the board looked at (Play). */
export async function takeBack() {
  if (!ui.looking) return;
  const index = ui.looking.index;
  if (!confirm(`Take back every decision after decision ${index}?`)) return;
  await call(async () => {
    ui.game = await api("POST", `/api/games/${current().id}/takeback`, {index});
    ui.looking = null;
    controller.render();
  });
}

/**
 * ← → inside a variation: one entry back or on along its line; back from its start to
 * the main line's decision before it. @param {number} by
 */
function stepInVariation(by) {
  const ex = ui.exploring;
  if (!ex) return;
  const v = ui.variations[ex.vi];
  const upto = (asked.vi === ex.vi && asked.upto >= 0 ? asked.upto : ex.upto) + by;
  if (upto < 0) { void showAt(Math.max(v.from - 1, 0)); return; }
  if (upto <= v.line.length) void showVariation(ex.vi, upto);
}

/** ← → Home End step through the game (not while typing). @param {KeyboardEvent} ev */
export function stepByKey(ev) {
  if (ev.key === "Escape" && hideMenu()) return;
  const g = ui.game;
  if (!g || $("#game").hidden) return;
  const target = ev.target instanceof Element ? ev.target : null;
  const tag = target ? target.tagName.toLowerCase() : "";
  if (["input", "select", "textarea"].includes(tag)) return;
  if (ui.exploring && (ev.key === "ArrowLeft" || ev.key === "ArrowRight")) {
    ev.preventDefault();
    stepInVariation(ev.key === "ArrowLeft" ? -1 : 1);
    return;
  }
  const total = decisionsOf(g);
  const at = ui.lookingFor !== null && g.mode !== "review" ? ui.lookingFor : shownIndex();
  /** @type {Record<string, number>} */
  const keys = {ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: total};
  const to = keys[ev.key];
  if (to === undefined) return;
  ev.preventDefault();
  if (to >= 0 && to <= total && to !== at) showAt(to);
}
