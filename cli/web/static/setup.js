// @ts-check
// The set-up panel: the forms of a new game (Play, Follow, Review), the files
// uploaded, and the games kept on the server, opened again.
import {api, call, Exact, message, parseJSON, wholeNumber, withText} from "./api.js";
import {forgetJob} from "./advice.js";
import {$, esc, form} from "./dom.js";
import {stopPolling} from "./poll.js";
import {controller, seatsOf, ui} from "./state.js";

/** @typedef {import("./types.js").SavedGame} SavedGame */

// Leaving a game: kept games are listed and can be opened again; a server that keeps
// them in memory only forgets an unfinished game when the page leaves it, so ask first.
function mayLeave() {
  const g = ui.game;
  if (!g || g.terminal || ui.info.keeps_games || !g.history.length) return true;
  return confirm("This server does not keep games: leaving this unfinished game throws it away. Leave it?");
}

/** The games the server keeps, newest first, each a button that opens it again. */
async function listGames() {
  const box = $("#saved-list");
  /** @type {{games: SavedGame[], kept: boolean}} */
  let list;
  try { list = await api("GET", "/api/games"); } catch (e) { box.textContent = message(e); return; }
  $("#saved").hidden = !list.games.length;
  $("#saved-note").textContent = list.kept ? "Kept on this computer; a restarted server finds them." : "In this server's memory only (started with --forget).";
  box.innerHTML = list.games.slice(0, 30).map(savedItem).join("");
  for (const li of box.querySelectorAll("li")) {
    const open = li.querySelector("button");
    if (open) open.onclick = () => call(async () => controller.open(await api("GET", `/api/games/${li.dataset.id}`)));
  }
}

/** @param {SavedGame} x */
function savedItem(x) {
  const when = new Date(x.changed * 1000).toLocaleString();
  /** @type {Record<string, string>} */
  const modes = {play: "Play", follow: `Follow (${esc(x.viewer || "")})`, review: "Review"};
  const what = modes[x.mode] || esc(x.mode);
  const colours = ui.info.seats;
  const seats = x.seats.map((s, i) => `<span class="seat-dot seat-${colours[i]}"></span>${esc(s)}`).join(" ");
  return `<li class="saved-game" data-id="${esc(x.id)}"><button class="open-game" title="open this game again">${what}</button>
      <span class="saved-seats">${seats}</span><span class="note">${x.decisions} decision${x.decisions === 1 ? "" : "s"}${x.over ? ", over" : ""} · ${esc(when)}</span></li>`;
}

/**
 * The set-up of a new game of `mode`, the game shown left (if the person agrees).
 * @param {string} mode
 */
export function showSetup(mode) {
  if (!mayLeave()) return false;
  forgetJob();
  ui.looking = null;
  stopPolling();
  ui.game = null;
  $("#game").hidden = true;
  $("#setup").hidden = false;
  for (const f of document.querySelectorAll(".setup-form")) {
    if (f instanceof HTMLElement) f.hidden = f.dataset.mode !== mode;
  }
  for (const t of document.querySelectorAll(".tab")) {
    if (t instanceof HTMLElement) t.classList.toggle("active", t.dataset.mode === mode);
  }
  history.replaceState(null, "", `/?mode=${mode}`);
  localStorage.removeItem("ulm-game");
  listGames();
  return true;
}

/** The datalist of seat specs offered (the server's examples). */
export function botExamples() {
  const list = document.createElement("datalist");
  list.id = "bot-specs";
  list.innerHTML = ui.info.examples.map((s) => `<option value="${esc(s)}">`).join("");
  document.body.appendChild(list);
}

/** The variants offered in every set-up, the server's (ulm.game.VARIANTS): the first is the default. */
export function variantOptions() {
  for (const choice of document.querySelectorAll('select[name="variant"]')) {
    choice.innerHTML = ui.info.variants.map((v) => `<option>${esc(v)}</option>`).join("");
  }
}

/** One row a seat of Play: the first a person, the others the server's default bot. */
export function seatRows() {
  const f = form("#form-play");
  const box = $("#seat-rows");
  const old = [...box.querySelectorAll("input")].map((i) => i.value);
  box.innerHTML = "";
  seatsOf(+f.players.value).forEach((seat, p) => {
    const row = document.createElement("label");
    row.className = "seat-row";
    // the levels come first: a bot's strength by its name; a spec may be typed beside
    row.innerHTML = `<span class="seat-dot seat-${seat}"></span>${seat}
      <select name="level${p}" class="seat-level" title="a bot level for this seat, from 1 (first game) to ${ui.info.levels.length} (strongest); or the spec typed beside">${levelOptions()}</select>
      <input name="seat${p}" list="bot-specs" title="human, a level (level:3), or a bot spec: ismcts:time=2 thinks 2 s a decision, greedy and random are quick" value="${esc(old[p] || (p === 0 ? "human" : ui.info.default_bot))}">`;
    box.appendChild(row);
    linkLevel(row);
  });
}

/** The choices of a seat's level: the spec typed, or each level by number and name. */
function levelOptions() {
  const levels = ui.info.levels.map((l) => `<option value="${esc(l.spec)}">Level ${l.level}: ${esc(l.name)}</option>`);
  return `<option value="">human or a spec</option>${levels.join("")}`;
}

/**
 * A seat's level and spec kept together: a level chosen writes its spec, a spec
 * typed shows its level (or "free spec" when it is none).
 * @param {HTMLElement} row
 */
function linkLevel(row) {
  const input = /** @type {HTMLInputElement} */ (row.querySelector("input"));
  const select = /** @type {HTMLSelectElement} */ (row.querySelector("select"));
  const show = () => { select.value = ui.info.levels.some((l) => l.spec === input.value.trim()) ? input.value.trim() : ""; };
  select.onchange = () => { if (select.value) input.value = select.value; };
  input.addEventListener("input", show);
  show();
}

/** The seats Follow may be played from, for the players chosen. */
export function followSeats() {
  const f = form("#form-follow");
  const sel = f.seat;
  const keep = sel.value;
  sel.innerHTML = seatsOf(+f.players.value).map((s) => `<option>${s}</option>`).join("");
  if ([...sel.options].some((o) => o.value === keep)) sel.value = keep;
}

/** @param {SubmitEvent} ev */
export async function startPlay(ev) {
  ev.preventDefault();
  const f = form("#form-play");
  const n = +f.players.value;
  const seats = [];
  for (let p = 0; p < n; p++) seats.push(f[`seat${p}`].value.trim());
  /** @type {{mode: string, seats: string[], variant: string, seed?: number | Exact | string}} */
  const body = {mode: "play", seats, variant: f.variant.value};
  // no seed given: the server deals with a secret one (named in the record at the end)
  if (f.seed.value.trim() !== "") body.seed = wholeNumber(f.seed.value);
  await call(async () => controller.open(await api("POST", "/api/games", body)));
}

/** @param {SubmitEvent} ev */
export async function startFollow(ev) {
  ev.preventDefault();
  const f = form("#form-follow");
  await call(async () => controller.open(await api("POST", "/api/games", {
    mode: "follow", players: +f.players.value, seat: f.seat.value, variant: f.variant.value})));
}

/**
 * The text of the file chosen in `input`, if the server accepts its size.
 * @param {HTMLInputElement} input
 * @returns {Promise<string>}
 */
function readFile(input) {
  return new Promise((resolve, reject) => {
    const file = input.files && input.files[0];
    if (!file) return reject(new Error("no file chosen"));
    if (file.size > ui.info.max_upload) return reject(new Error(`upload: ${file.name} is larger than the server accepts`));
    const r = new FileReader();
    r.onload = () => resolve(String(r.result));
    r.onerror = () => reject(new Error(`cannot read ${file.name}`));
    r.readAsText(file);
  });
}

/**
 * A file uploaded as a new game: a view file (Follow) or a record (Review).
 * @param {HTMLInputElement} input
 * @param {"follow" | "review"} mode
 * @param {"view" | "record"} key
 */
export async function upload(input, mode, key) {
  await call(async () => {
    const text = await readFile(input);
    const name = input.files && input.files[0] ? input.files[0].name : "the file";
    try { parseJSON(text); } catch (e) { throw new Error(`${name}: not valid JSON (${message(e)})`); }
    input.value = "";
    // the file's text goes as it is: every number in it exactly as written
    controller.open(await api("POST", "/api/games", withText({mode}, key, text)));
  });
}
