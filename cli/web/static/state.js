// @ts-check
// What the page holds: the last game the server sent, the search running, what is
// looked at; and the controller's render() and open(), which the panels call.

/** @typedef {import("./types.js").Game} Game */
/** @typedef {import("./types.js").Job} Job */
/** @typedef {import("./types.js").Info} Info */
/** @typedef {import("./types.js").Board} Board */
/** @typedef {import("./types.js").VariationAnswer} VariationAnswer */
/** @typedef {import("./types.js").Advice} Advice */

/**
 * A line tried instead of the game's: from `from` decisions, its entries and names.
 * @typedef {{from: number, line: (number | string)[], names: string[]}} Variation
 */

export const ui = {
  /** @type {Game | null} the last game JSON from the server */
  game: null,
  /** @type {Job | null} the running search (hint or check) */
  job: null,
  /** @type {Board | null} looking back: an earlier board (play, follow) */
  looking: null,
  /** @type {number | null} the index of a board being fetched */
  lookingFor: null,
  /** @type {Variation[]} lines tried instead of the game's */
  variations: [],
  /** @type {string | null} the game the variations belong to */
  variationsOf: null,
  /** @type {{vi: number, upto: number, data: VariationAnswer} | null} the variation shown */
  exploring: null,
  /** @type {{of: string, advice: Advice} | null} a hint at a point other than the game now */
  pointHint: null,
  /** @type {Info} what the server says of itself (GET /api/info) */
  info: {bots: [], variants: [], seats: [], max_seconds: 30, max_upload: 2e6,
         keeps_games: false, examples: [], default_bot: "", levels: []},
};

/** The game shown; an Error when none is (a control of a game used without one). */
export function current() {
  if (!ui.game) throw new Error("no game is open");
  return ui.game;
}

/**
 * The point shown, where a hint analyses: null for the game now, else the decisions
 * before it (`index`) and the variation's line from there.
 * @returns {{index: number, line: (number | string)[]} | null}
 */
export function shownPoint() {
  const ex = ui.exploring;
  if (ex) return {index: ui.variations[ex.vi].from, line: ui.variations[ex.vi].line.slice(0, ex.upto)};
  if (ui.looking) return {index: ui.looking.index, line: []};
  return null;
}

/** The hint at the point shown when it is not the game now (null: none asked there). */
export function hintHere() {
  const at = shownPoint();
  const h = ui.pointHint;
  if (!at || !h || !ui.game || h.of !== ui.game.id) return null;
  const same = h.advice.index === at.index &&
    JSON.stringify(h.advice.variation || []) === JSON.stringify(at.line);
  return same ? h.advice : null;
}

/** The seats of a game of `players` players, by colour. */
export function seatsOf(/** @type {number} */ players) {
  return ui.info.seats.slice(0, players);
}

// The controller (app.js) sets these: the panels call them without importing it.
export const controller = {
  /** show the game held in ui.game */
  render: () => {},
  /** show a game the server sent (a new one, or opened again) */
  open: (/** @type {Game} */ g) => { ui.game = g; },
};
