// @ts-check
// Play: the person's chance of winning as the game goes, under the board, if they want
// it: a short search at each of their decisions (POST /api/games/{id}/chance, from their
// knowledge only, as a hint), the points kept by the server and drawn as a curve.
import {api} from "./api.js";
import {startJob} from "./advice.js";
import {$, esc, input, pct} from "./dom.js";
import {controller, ui} from "./state.js";

/** @typedef {import("./types.js").Game} Game */

const KEY = "ulm-chances";
const SECONDS = 0.5;
/** the points of games asked for already (a game's id and version) */
const asked = new Set();

/** The box under the board: the switch and the graph (made once). */
function box() {
  const old = document.getElementById("chances");
  if (old) return old;
  const el = document.createElement("div");
  el.id = "chances";
  el.innerHTML = `<label title="a short search (${SECONDS} s) at each of your decisions, from what you know: your chance of winning as the game goes"><input type="checkbox" id="chances-on"> Show my chances</label><div id="chances-plot"></div>`;
  $("#board-wrap").appendChild(el);
  const on = input("#chances-on");
  on.checked = localStorage.getItem(KEY) === "1";
  on.onchange = () => { localStorage.setItem(KEY, on.checked ? "1" : "0"); controller.render(); };
  return el;
}

/** The switch and, when on, the graph of the person's chances; a search at a new point. @param {Game} g */
export function renderChances(g) {
  const el = box();
  el.hidden = g.mode !== "play" || g.viewer === null;
  const on = input("#chances-on").checked && !el.hidden;
  $("#chances-plot").innerHTML = on ? plot(g) : "";
  if (on) askHere(g);
}

/** A search of the person's chance at the game now, once a point, when none is known. @param {Game} g */
function askHere(g) {
  const at = g.history.length;
  const key = `${g.id}/${g.version}`;
  if (!g.can_hint || ui.job || asked.has(key) || (g.chances || []).some((c) => c.index === at)) return;
  asked.add(key);
  const seconds = Math.min(SECONDS, ui.info.max_seconds);
  void startJob(() => api("POST", `/api/games/${g.id}/chance`, {seconds}));
}

/** The curve of the chances kept, over the decisions of the game. @param {Game} g */
function plot(g) {
  const points = g.chances || [];
  if (!points.length) return `<p class="note">Your chance of winning shows here from your next decision.</p>`;
  const W = 360, H = 80, L = 30, T = 6, B = 6;
  /** @param {number} k */
  const x = (k) => L + (W - L - 6) * k / Math.max(g.history.length, 1);
  /** @param {number} p */
  const y = (p) => T + (H - T - B) * (1 - p);
  const seat = esc(points[0].seat);
  const path = points.map((c, i) => `${i ? "L" : "M"}${x(c.index).toFixed(1)},${y(c.win).toFixed(1)}`).join(" ");
  const dots = points.map((c) => `<circle class="chance-pt" data-index="${c.index}" cx="${x(c.index).toFixed(1)}" cy="${y(c.win).toFixed(1)}" r="2.5" style="fill: var(--${seat})"><title>before decision ${c.index + 1}: ${pct(c.win)}</title></circle>`).join("");
  const grid = [0, 0.5, 1].map((p) => `<line x1="${L}" x2="${W - 6}" y1="${y(p)}" y2="${y(p)}" class="grid"/><text x="${L - 4}" y="${y(p) + 3}" class="axis">${p * 100}%</text>`).join("");
  const last = points[points.length - 1];
  return `<svg viewBox="0 0 ${W} ${H}" class="plot chances" aria-label="${seat}'s chance of winning as the game goes">${grid}<path d="${path}" class="curve" style="stroke: var(--${seat})"/>${dots}</svg>
    <p class="note">${seat}'s chance of winning now: <b>${pct(last.win)}</b> (a ${SECONDS} s search at each of your decisions, from what you know).</p>`;
}
