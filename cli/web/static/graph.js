// @ts-check
// The review panel: stepping through a record, whose eyes it is seen through, the
// check of a seat's decisions and its graph (the chance of winning before each
// decision, mistakes ringed), and going on from the position shown.
import {api, call, parseJSON, withText} from "./api.js";
import {startJob} from "./advice.js";
import {$, esc, input, pct, say, select} from "./dom.js";
import {controller, current, seatsOf, ui} from "./state.js";

/** @typedef {import("./types.js").Game} Game */
/** @typedef {import("./types.js").Annotation} Annotation */
/** @typedef {import("./types.js").Note} Note */

/**
 * The record under review at decision `index`, seen by `as` (a seat or "all") if given.
 * @param {number} index
 * @param {string} [as]
 */
export async function goto(index, as) {
  await call(async () => {
    /** @type {{index: number, as?: string}} */
    const body = {index};
    if (as !== undefined) body.as = as;
    ui.game = await api("POST", `/api/games/${current().id}/goto`, body);
    controller.render();
  });
}

/** @param {Game} g a record under review */
export function renderReview(g) {
  const index = g.index || 0, total = g.total || 0;
  $("#rv-pos").textContent = `${index} of ${total} played`;
  const slider = input("#rv-slider");
  slider.max = String(total);
  slider.value = String(index);
  const asSel = select("#rv-as");
  if (asSel.options.length !== g.players + 1) {
    const seats = seatsOf(g.players).map((s) => `<option>${s}</option>`).join("");
    asSel.innerHTML = `<option value="all">everyone (all cards)</option>` + seats;
    $("#an-seat").innerHTML = seats;
    $("#cont-seat").innerHTML = seats;
  }
  asSel.value = g.viewer || "all";
  drawPlot(g);
}

/** @param {Game} g */
function drawPlot(g) {
  const a = g.annotation;
  const all = (g.annotations && g.annotations.length) ? g.annotations : (a ? [a] : []);
  const box = $("#plot");
  const note = $("#annotation-note");
  if (!all.some((x) => x.decisions.length)) { box.innerHTML = ""; note.textContent = "Check a player's decisions to see their chance of winning over the whole game and their biggest mistakes."; return; }
  // on a phone the graph is drawn at its size in pixels (words at their size), each
  // decision STEP px apart so that every point's strip is a fingertip wide; it scrolls
  // sideways in its card, the decision shown in sight
  const phone = window.matchMedia("(max-width: 600px)").matches;
  const STEP = 12;
  const H = 140, L = 30, B = 18, T = 8;
  const W = phone ? Math.max(360, L + 6 + STEP * Math.max(g.total || 0, 1)) : 360;
  /** @param {number} k */
  const x = (k) => L + (W - L - 6) * k / Math.max(g.total || 0, 1);
  /** @param {number} p */
  const y = (p) => T + (H - T - B) * (1 - p);
  const curves = all.map((an) => curve(an, x, y)).join("");
  const grid = [0, 0.25, 0.5, 0.75, 1].map((p) => `<line x1="${L}" x2="${W - 6}" y1="${y(p)}" y2="${y(p)}" class="grid"/><text x="${L - 4}" y="${y(p) + 3}" class="axis">${p * 100}%</text>`).join("");
  const at = x(g.index || 0);
  const cur = `<line x1="${at}" x2="${at}" y1="${T}" y2="${H - B}" class="cursor"/>`;
  const hits = hitAreas(all, x, L, W - 6, T, H - B);
  const size = phone ? ` width="${W}" height="${H}"` : "";
  box.innerHTML = `<svg viewBox="0 0 ${W} ${H}"${size} class="plot${phone ? " wide" : ""}">${grid}${cur}${curves}${hits}
    <text x="${(W + L) / 2}" y="${H - 3}" class="axis" text-anchor="middle">decision</text></svg>`;
  if (phone) box.scrollLeft = Math.max(0, at - box.clientWidth / 2);
  for (const c of box.querySelectorAll("rect.hit, circle.pt")) {   // a dot: reached by a script
    if (!(c instanceof SVGElement)) continue;
    const index = Number(c.dataset.index);
    c.onclick = () => goto(index);
    c.onkeydown = (ev) => { if (ev.key === "Enter") goto(index); };
  }
  mistakesNote(a || all[all.length - 1], all, note);
}

/**
 * Each point's own hit area, on top of the curves: the strip of the graph nearer to it
 * than to any other point (dots a few pixels apart overlap; their strips do not).
 * @param {Annotation[]} all
 * @param {(k: number) => number} x
 * @param {number} left @param {number} right @param {number} top @param {number} bottom
 */
function hitAreas(all, x, left, right, top, bottom) {
  const pts = all.flatMap((an) => an.decisions.map((n) => ({an, n, x: x(n.index)})))
    .sort((p, q) => p.x - q.x);
  return pts.map((p, i) => {
    // the first and last strips reach a little beyond their point, as the others do
    const from = i ? (pts[i - 1].x + p.x) / 2 : Math.min(left, p.x - 6);
    const to = i < pts.length - 1 ? (p.x + pts[i + 1].x) / 2 : Math.max(right, p.x + 6);
    const n = p.n;
    const words = `${p.an.seat}, ${n.index + 1}. ${esc(n.played)} (${pct(n.played_win)}); computer: ${esc(n.best)} (${pct(n.best_win)})${verdictOf(n) === "mistake" ? " — a mistake" : verdictOf(n) === "noise" ? " — a loss within noise" : ""}`;
    return `<rect class="hit" data-seat="${p.an.seat}" data-index="${n.index}" x="${from.toFixed(2)}" y="${top}" width="${(to - from).toFixed(2)}" height="${bottom - top}" fill="transparent" pointer-events="all" style="cursor: pointer" tabindex="0" role="button" aria-label="${words}"><title>${words}</title></rect>`;
  }).join("");
}

/**
 * One curve a seat checked, in its colour (its points are reached by their hit areas).
 * @param {Annotation} an
 * @param {(k: number) => number} x
 * @param {(p: number) => number} y
 */
function curve(an, x, y) {
  const notes = an.decisions;
  const pts = notes.map((n) => [x(n.index), y(n.win_before)]);
  const path = pts.map((p, i) => `${i ? "L" : "M"}${p[0].toFixed(1)},${p[1].toFixed(1)}`).join(" ");
  const dots = notes.map((n, i) => {
    // a ring: a mistake beyond noise of 10 points or more; a dashed ring: a loss within noise
    const verdict = verdictOf(n), mark = verdict ? ` ${verdict}` : "";
    return `<circle class="pt${mark}" data-seat="${an.seat}" data-index="${n.index}" cx="${pts[i][0].toFixed(1)}" cy="${pts[i][1].toFixed(1)}" r="${verdict ? 4.5 : 3}" style="fill: var(--${an.seat})" pointer-events="none"></circle>`;
  }).join("");
  return `<path d="${path}" class="curve" style="stroke: var(--${an.seat})"/>${dots}`;
}

/**
 * What the graph marks on a decision's point: "mistake" (a loss beyond noise of 10
 * points or more), "noise" (a loss within noise: no mistake) or "".
 * @param {Note} n
 */
function verdictOf(n) {
  if (n.mistake !== false && n.loss >= 0.1) return "mistake";
  return n.within_noise ? "noise" : "";
}

/**
 * What the graph shows, and the biggest mistakes of the seat checked last, as links.
 * @param {Annotation} last
 * @param {Annotation[]} all
 * @param {HTMLElement} note
 */
function mistakesNote(last, all, note) {
  const notes = last.decisions;
  const worst = /** @type {Note[]} */ (last.mistakes.slice(0, 3).map((k) => notes.find((n) => n.index === k)));
  note.innerHTML = `${all.map((an) => an.seat).join(", ")}: the chance of winning before each decision of the whole game; ringed dots are mistakes that give away 10 points or more, dots in a dashed ring a loss within noise (no mistake); tap a dot to see that decision. ` +
    (worst.length ? `${last.seat}'s biggest mistakes${last.by === "points" ? " in points" : ""}: ` + worst.map((n) => `<a href="#" data-index="${n.index}">${n.index + 1}. ${esc(n.played)} (${lossWords(n, last.by)})</a>`).join(", ") : `No mistakes found for ${last.seat}.`);
  for (const l of note.querySelectorAll("a")) l.onclick = (ev) => { ev.preventDefault(); goto(Number(l.dataset.index)); };
}

/**
 * A mistake's loss: in the chance of winning, and in victory points (first when the
 * mistakes were found by points).
 * @param {Note} n
 * @param {string | undefined} by
 */
function lossWords(n, by) {
  const chance = `−${pct(n.loss)}`;
  if (typeof n.points_loss !== "number") return chance;
  const vp = `−${n.points_loss.toFixed(1)} VP`;
  return by === "points" ? `${vp}, ${chance}` : `${chance}, ${vp}`;
}

/** Check the chosen seat's decisions (a search at each). */
export async function annotate() {
  const body = {seat: select("#an-seat").value, seconds: +select("#an-seconds").value,
    by: select("#an-by").value};
  await startJob(() => api("POST", `/api/games/${current().id}/annotate`, body));
}

// A finished game of Play, opened in Review (its graph and mistakes), the person's seat chosen.
export async function reviewThis() {
  const g = current();
  const seat = g.viewer;
  await call(async () => {
    // the record as the server wrote it goes back as it is (a seed of 64 bits exact)
    const res = await fetch(`/api/games/${g.id}/download`);
    const text = await res.text();
    if (!res.ok) throw new Error(parseJSON(text).error);
    controller.open(await api("POST", "/api/games", withText({mode: "review"}, "record", text)));
    if (seat) select("#an-seat").value = seat;
    say("Check a player's decisions to see their chance of winning over the game and their mistakes.");
  });
}

// A record under review continued from the position shown: played on (the chosen seat a
// person, the others the record's bots or the default bot), or followed with that seat's view.
/** @param {"play" | "follow"} mode */
export async function continueFrom(mode) {
  const g = current();
  const seat = select("#cont-seat").value;
  await call(async () => {
    const k = await api("GET", `/api/games/${g.id}/continue?seat=${encodeURIComponent(seat)}`);
    if (mode === "follow") { controller.open(await api("POST", "/api/games", {mode: "follow", view: k.view})); return; }
    if (!k.record) throw new Error("Play on: choose “Seen by: everyone” first (the record names every seat's decisions)");
    /** @type {string[]} */
    const bots = k.record.bots || [];
    const seats = seatsOf(g.players).map((s, p) => s === seat ? "human"
      : (bots[p] && bots[p] !== "human" ? bots[p] : ui.info.default_bot));
    controller.open(await api("POST", "/api/games", {mode: "play", record: k.record, seats}));
  });
}
