// @ts-check
// Variations: a line tried from a position of the game (its main line is kept). The
// server plays it in a world the viewer cannot tell from the real one, up to the end
// of that turn (mcts.play.variations); the page keeps the lines and shows them in the move list.
import {api, call} from "./api.js";
import {$, esc} from "./dom.js";
import {controller, current, ui} from "./state.js";

/** @typedef {import("./types.js").VariationAnswer} VariationAnswer */

/** The variations of the game shown (those of another game are forgotten). */
export function variationsNow() {
  const g = ui.game;
  if (ui.variations.length && (!g || ui.variationsOf !== g.id)) { ui.variations = []; ui.exploring = null; }
  return ui.variations;
}

/**
 * The move list's entries of the variations tried from `after` decisions.
 * @param {number} after
 */
export function variationItems(after) {
  const ex = ui.exploring;
  /** @param {number} vi @param {number} upto */
  const cur = (vi, upto) => ex && ex.vi === vi && ex.upto === upto ? " current" : "";
  return ui.variations.map((v, vi) => v.from !== after ? "" : `<li class="variation" value="${after}">` +
    `<span class="var-step${cur(vi, 0)}" data-vi="${vi}" data-upto="0" tabindex="0" title="the start of this variation">(</span>` +
    v.names.map((n, k) => `<span class="var-step${cur(vi, k + 1)}" data-vi="${vi}" data-upto="${k + 1}" tabindex="0" title="see the board in the variation after this">${esc(n)}</span>`).join(" ") +
    `<span>)</span><button class="var-drop" data-vi="${vi}" title="forget this variation">×</button></li>`).join("");
}

/**
 * The variation's first `upto` entries, as the server plays them.
 * @param {number} from
 * @param {(number | string)[]} line
 * @returns {Promise<VariationAnswer>}
 */
function played(from, line) {
  return api("POST", `/api/games/${current().id}/variation`, {index: from, line});
}

/** The entry of a variation asked for and not yet shown (the arrow keys step on from it). */
export const asked = {vi: -1, upto: -1, n: 0};

/** @param {number} vi @param {number} upto */
export async function showVariation(vi, upto) {
  const v = ui.variations[vi];
  const n = ++asked.n;
  Object.assign(asked, {vi, upto});
  await call(async () => {
    const data = await played(v.from, v.line.slice(0, upto));
    if (n !== asked.n) return;          // another was asked for meanwhile
    asked.vi = -1;
    ui.exploring = {vi, upto, data};
    controller.render();
  });
}

/** A new variation from `from` decisions. @param {number} from */
export async function tryLine(from) {
  await call(async () => {
    const data = await played(from, []);
    ui.variationsOf = current().id;
    ui.variations.push({from, line: [], names: []});
    ui.exploring = {vi: ui.variations.length - 1, upto: 0, data};
    controller.render();
  });
}

/** The variation shown, one decision (or what was drawn) further. @param {number | string} decision */
export async function extendVariation(decision) {
  if (!ui.exploring) return;
  const {vi, upto} = ui.exploring;
  const v = ui.variations[vi];
  const line = v.line.slice(0, upto).concat([decision]);
  await call(async () => {
    const data = await played(v.from, line);
    v.line = line;
    v.names = data.names;
    ui.exploring = {vi, upto: line.length, data};
    controller.render();
  });
}

/** @param {number} vi */
export function dropVariation(vi) {
  ui.variations.splice(vi, 1);
  ui.variationsOf = current().id;
  ui.exploring = null;
  controller.render();
}

/** The card above the board while a variation is shown: where it stands, its decisions. */
export function renderExploring() {
  const ex = ui.exploring;
  if (!ex) return;
  const v = ex.data;
  $("#looking-text").textContent = `A variation from decision ${v.index}: ${v.names.length ? v.names.join(", ") : "(make a decision on the board or below)"}` +
    (v.ask ? ` — ${v.ask} (what you draw is hidden until then: choose below)` : v.ended ? ` — it ends here (${v.ended}).` : ".");
  $("#take-back").hidden = true;
  $("#back-to-game").textContent = "Back to the main line";
  for (const o of v.options) {
    const b = document.createElement("button");
    b.className = "decision";
    b.textContent = o.name;
    b.title = "try this in the variation";
    b.onclick = () => extendVariation(o.decision);
    $("#variation-options").appendChild(b);
  }
}
