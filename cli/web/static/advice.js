// @ts-check
// The advice panel: a hint (the search's line, its alternatives, the chances of every
// seat), a decision of an annotated record, and the progress of a running search,
// which arrives as server-sent events.
import {api, call, message, parseJSON} from "./api.js";
import {$, button, esc, pct, say, select} from "./dom.js";
import {controller, current, hintHere, shownPoint, ui} from "./state.js";

/** @typedef {import("./types.js").Advice} Advice */
/** @typedef {import("./types.js").AnnotationShown} AnnotationShown */
/** @typedef {import("./types.js").Job} Job */
/** @typedef {import("./types.js").Game} Game */
/** @typedef {import("./types.js").DecisionInfo} DecisionInfo */
/** @typedef {import("./types.js").PointsBreakdown} PointsBreakdown */

/** @type {EventSource | null} */
let jobEvents = null;

/** Ask for a hint at the point shown, as long as the Hint menu says. */
export async function hint() {
  const seconds = +select("#hint-seconds").value;
  const at = shownPoint();       // a board looked back at, a variation: that point
  await call(async () => {
    /** @type {any} */ (window).hintAsked = performance.now();
    ui.job = await api("POST", `/api/games/${current().id}/hint`, at ? {seconds, ...at} : {seconds});
    showProgress();
    followJob();
  });
}

/** Start a search job (a check of a record) and follow its progress. */
export async function startJob(/** @type {() => Promise<Job>} */ ask) {
  await call(async () => {
    ui.job = await ask();
    showProgress();
    followJob();
  });
}

export async function cancel() {
  const job = ui.job;
  if (!job) return;
  await call(async () => { await api("DELETE", `/api/jobs/${job.id}`); });
}

/** Stop following the search (leaving the game). */
export function forgetJob() {
  if (!jobEvents) return;
  jobEvents.close();
  jobEvents = null;
  ui.job = null;
  showProgress();
}

// A search's progress arrives as server-sent events: the estimate so far while it runs,
// the result at once when it ends.
function followJob() {
  if (jobEvents) jobEvents.close();
  if (!ui.job) return;
  const es = new EventSource(`/api/jobs/${ui.job.id}/events`);
  jobEvents = es;
  es.addEventListener("progress", (ev) => {
    const job = /** @type {Job} */ (parseJSON(ev.data));
    ui.job = job;
    showProgress();
    if (job.partial) showAdvice(job.partial, true);
  });
  es.addEventListener("end", async (ev) => {
    es.close();
    if (jobEvents === es) jobEvents = null;
    await jobEnded(/** @type {Job} */ (parseJSON(ev.data)));
  });
  es.onerror = () => {   // the stream broke (the server stopped): look once more
    es.close();
    if (jobEvents === es) jobEvents = null;
    const job = ui.job;
    if (!job) return;
    api("GET", `/api/jobs/${job.id}`).then((j) => {
      ui.job = j.status === "running" ? j : null;
      showProgress();
      if (ui.job) followJob();
    }).catch((e) => { ui.job = null; showProgress(); say(message(e), "error"); });
  };
}

/** @param {Job} finished */
async function jobEnded(finished) {
  ui.job = null;
  if (finished.status === "done" && finished.kind === "hint" && finished.result) {
    const advice = /** @type {Advice} */ (finished.result);
    if (advice.svg && ui.game) ui.pointHint = {of: ui.game.id, advice};   // drawn on its board
    showAdvice(advice);           // the answer at once, then the board with it
    /** @type {any} */ (window).hintArrived = performance.now();
  }
  if (ui.game) {
    try { ui.game = await api("GET", `/api/games/${ui.game.id}`); controller.render(); } catch (e) { /* said below */ }
  }
  showProgress();
  if (finished.status === "failed") say(finished.error, "error");
  else if (finished.status === "cancelled") { say("Search cancelled."); showAdvice(ui.game && adviceHere(ui.game)); }
  else say(finished.kind === "annotate" ? "Check done." : "");
}

/** The Hint button: usable when the point shown allows a hint and no search runs. */
export function hintButton() {
  const running = !!ui.job && ui.job.status === "running";
  const here = ui.exploring ? ui.exploring.data.can_hint : ui.looking ? ui.looking.can_hint
    : ui.game && ui.game.can_hint;
  button("#hint").disabled = running || !here || !!ui.job;
}

/**
 * The advice for the point shown: the game's hint at the game now, else the hint asked
 * at that point (none: nothing is shown there).
 * @param {Game} g
 */
export function adviceHere(g) {
  return shownPoint() ? hintHere() : g.hint;
}

export function showProgress() {
  const job = ui.job;
  const running = !!job && job.status === "running";
  $("#progress").hidden = !running;
  $("#cancel").hidden = !running;
  hintButton();
  button("#annotate").disabled = running;
  if (job && running) {
    $("#progress-bar").style.width = `${(100 * job.progress).toFixed(0)}%`;
    const its = job.iterations > 0 ? ` ${job.iterations.toLocaleString()} playouts` : "";
    $("#progress").title = `${job.kind === "hint" ? "hint" : "check"}:${its} ${job.elapsed.toFixed(1)} s of ${job.budget} s`;
    say(`${{hint: "Thinking", chance: "Your chances", annotate: "Checking the decisions"}[job.kind]}…${its}`, "busy");
  }
}

/**
 * The advice shown: a hint (live while the search runs), a decision of an annotated
 * record, or nothing.
 * @param {Advice | AnnotationShown | null | undefined} h
 * @param {boolean} [live]
 */
export function showAdvice(h, live) {
  const box = $("#advice");
  if (!h) box.innerHTML = "";
  else if (h.kind === "annotation") box.innerHTML = annotationHtml(h);
  else box.innerHTML = adviceHtml(h, !!live);
}

/** @param {AnnotationShown} h a decision of an annotated record */
function annotationHtml(h) {
  const how = h.played_estimate === "own search" ? "the decision played was searched on its own with the same budget" : "both come from the same search";
  const vp = typeof h.points_loss === "number" ? ` and ${h.points_loss.toFixed(1)} VP (± ${(h.points_uncertainty || 0).toFixed(1)})` : "";
  const verdict = h.forced ? "It was the only legal decision." : h.played === h.best ? "It is the computer's choice too." :
    h.mistake ? `A mistake: it gives away ${pct(h.loss)} (± ${pct(h.uncertainty)})${vp}; ${how}.` :
    `Within noise: it gives away ${pct(h.loss)} (± ${pct(h.uncertainty)})${vp}, too little to call a mistake; ${how}.`;
  /** @type {(v: number | null | undefined, w: number) => string} */
  const est = (v, w) => pct(v === null || v === undefined ? w : v);
  return `<h3>Decision ${h.index + 1} of ${h.seat}</h3>
      <table class="alts"><tr><th></th><th>decision</th><th title="the search's estimate, the figure it ranks decisions by">estimate</th><th>visits</th></tr>
      <tr><td>computer</td><td><b>${esc(h.best)}</b></td><td class="num">${est(h.best_value, h.best_win)}</td><td class="num">${h.best_visits.toLocaleString()}</td></tr>
      <tr><td>played</td><td>${esc(h.played)}</td><td class="num">${est(h.played_value, h.played_win)}</td><td class="num">${h.played_visits.toLocaleString()}</td></tr></table>
      <p class="note">Win probability before it: ${pct(h.win_before)}. ${verdict} The computer's choice is drawn on the board; “Hint” thinks about this position again.</p>`;
}

/**
 * @param {Advice} h
 * @param {boolean} live
 */
function adviceHtml(h, live) {
  const step = h.step || 1;
  const line = h.principal_line.map((s, i) => `<li value="${step + i}"><b>${esc(s.name)}</b>${s.reveals ? ' <span class="note">(it shows you what was hidden; then choose by what you see and ask again)</span>' : s.chance_after ? ' <span class="note">(then a chance event)</span>' : ""}</li>`).join("");
  const alts = h.actions.map((a, i) => `<tr class="alt" data-rank="${i + 1}"><td class="num">${i < 3 ? `<span class="rank-badge">#${i + 1}</span>` : i + 1}</td><td>${esc(a.name)}</td>
    <td class="num">${a.visits.toLocaleString()}</td><td class="num">${pct(a.share)}</td>
    <td class="num"><span class="bar" style="width:${(30 * Math.max(0, Math.min(1, a.estimate))).toFixed(0)}px"></span>${pct(a.estimate)} <span class="note">± ${pct(a.estimate_error)}</span></td>
    <td class="num points">${pointsCell(a, h.player)}</td></tr>`).join("");
  const who = h.seats.map((s, p) => `<tr><td><span class="seat-dot seat-${s}"></span>${s}</td>
    <td class="num">${pct(h.win_probability[p])}</td><td class="num">${h.expected_score[p].toFixed(1)} VP</td></tr>`).join("");
  const state = live ? `<span class="live">live</span>` : "";
  const its = h.stats.iterations > 0 ? `${h.stats.iterations.toLocaleString()} playouts in ${h.stats.seconds.toFixed(2)} s` : "";
  return `<h3>Advice for ${h.seats[h.player]} ${state}</h3>
    ${step > 1 ? `<p class="note">Step ${step} of the advised turn (the alternatives were for step 1).</p>` : ""}
    <ol class="line">${line}</ol>
    ${alts ? `<table class="alts"><tr><th title="rank: the best three are drawn on the board">#</th><th>decision</th><th title="playouts through this decision">visits</th><th title="how much of the search went to this decision">share</th><th title="the search's estimate of the decision, the figure it ranks by, ± its standard error">estimate</th><th title="the expected final score after the decision (VP), and the expected lead over the best other player ± its standard error">points</th></tr>${alts}</table>` : ""}
    ${breakdownHtml(h.points_breakdown)}
    <table class="who"><tr><th></th><th title="the chance of winning">win</th><th title="the mean final score of the playouts">expected score</th></tr>${who}</table>
    <p class="note">${its ? its + ". " : ""}“Visits” and “share”: how much of the search went to that decision; “estimate”: the figure the search ranks decisions by, about the chance of winning after it (plus a little for the score margin, mixed with the best line's evaluation), ± its standard error; “points”: the expected final score after it, and the expected lead over the best other player. The best three are drawn on the board, numbered, with their points.</p>`;
}

/**
 * A decision's points for the player searched: the expected final score, the lead and its ±.
 * @param {DecisionInfo} a
 * @param {number} player
 */
function pointsCell(a, player) {
  const points = a.expected_score[player];
  if (typeof points !== "number" || typeof a.margin !== "number") return "";
  const lead = `${a.margin >= 0 ? "+" : "−"}${Math.abs(a.margin).toFixed(1)}`;
  return `${points.toFixed(1)} <span class="note">(${lead} ± ${a.margin_error.toFixed(1)})</span>`;
}

/** Why the first decision scores more (or less) than the next, by scoring source. @param {PointsBreakdown | null | undefined} b */
function breakdownHtml(b) {
  if (!b) return "";
  /** @param {number} v */
  const signed = (v) => `${v >= 0 ? "+" : "−"}${Math.abs(v).toFixed(1)}`;
  const rows = b.by_source.filter((r) => Math.abs(r.difference) >= 0.05)
    .sort((p, q) => Math.abs(q.difference) - Math.abs(p.difference)).slice(0, 5);
  const words = rows.map((r) => `${signed(r.difference)} ${esc(r.source)}`).join(", ") || "no difference";
  return `<p class="note points-breakdown">In points, <b>${esc(b.decision)}</b> against ${esc(b.rival)}: ${signed(b.decision_points - b.rival_points)} VP (${words}).</p>`;
}
