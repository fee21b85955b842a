// @ts-check
// The summary panel: whose turn, the seats and their scores, the deal, a bot thinking.
import {$, esc} from "./dom.js";
import {ui} from "./state.js";

/** @typedef {import("./types.js").Game} Game */

/** @param {Game} g */
export function renderSummary(g) {
  const seats = g.seats.map((s) => {
    const who = s.kind === "human" ? "you" : s.kind === "bot" ? esc(botName(s.spec)) : s.kind === "you" ? "you" : s.spec ? esc(botName(s.spec)) : "";
    const mark = g.to_move === s.seat ? " to-move" : "";
    return `<li class="seat${mark}"><span class="seat-dot seat-${s.seat}"></span><b>${s.seat}</b>
      <span class="who">${who}</span><span class="score">${g.scores[s.seat]} VP</span></li>`;
  }).join("");
  const modeName = {play: "Playing", follow: `Following as ${g.viewer}`, review: "Reviewing a record"}[g.mode];
  $("#summary").innerHTML = `<div class="mode">${modeName}</div><h2>${heading(g)}</h2><ul class="seats">${seats}</ul>${dealNote(g)}`;
  $("#over-box").hidden = !(g.mode === "play" && g.terminal);
  const th = g.thinking;
  $("#thinking").hidden = !th;
  if (th) $("#thinking-text").textContent = th.error ? `${th.seat}: ${th.error}` : `${th.seat} (${botName(th.spec)}) is thinking… ${th.seconds.toFixed(1)} s`;
}

/**
 * A bot as a player knows it: a level by its number and name ("Level 3: club"), any
 * other spec as written.
 * @param {string | null | undefined} spec
 */
export function botName(spec) {
  const level = ui.info.levels.find((l) => l.spec === spec);
  return level ? `Level ${level.level}: ${level.name}` : spec || "";
}

/** @param {Game} g */
function heading(g) {
  if (g.terminal) return `Game over — ${g.winners.length > 1 ? "shared win" : "winner"}: ${g.winners.join(", ")}`;
  if (g.to_move === "chance") return g.mode === "follow" ? `Round ${g.round}: enter what was drawn` : `Round ${g.round}: drawing…`;
  return `Round ${g.round} — <span class="seat-dot seat-${g.to_move}"></span>${g.to_move} to move`;
}

/** @param {Game} g */
function dealNote(g) {
  // the seed deals every card: secret while the game is played, unless chosen
  if (g.mode !== "play") return "";
  if (g.seed === null) return `<p class="note" id="deal-note">The deal is secret: the server chose its seed; the record names it when the game is over.</p>`;
  if (g.seed_chosen && !g.terminal) return `<p class="note" id="deal-note">Dealt by seed ${g.seed}, a seed given (not secret): anyone with that seed knows every card and coat to come.</p>`;
  return `<p class="note" id="deal-note">Dealt by seed ${g.seed}: replaying it deals the same game.</p>`;
}
