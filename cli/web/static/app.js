// The page of `ulm serve`: plain JS, no build step. The server holds every game;
// this page shows what /api/games/{id} returns and sends decisions by id.
"use strict";

const $ = (sel) => document.querySelector(sel);
const SEATS = ["Red", "Blue", "Green", "Yellow"];
const BOT_EXAMPLES = ["human", "ismcts:iterations=2000", "ismcts:time=2", "greedy", "random"];

let game = null;          // the last game JSON from the server
let job = null;           // the running search (hint or annotation)
let pollTimer = null;
let looking = null;
let lookingFor = null;    // the index of a board being fetched
let variations = [];      // lines tried instead of the game's: {from, line: [ids], names: [...]}
let exploring = null;     // the variation shown: {vi, upto, data} (data: the server's answer)       // looking back: {index, total, svg} of an earlier board (play, follow)
let info = {max_seconds: 30};

// ---------------------------------------------------------------- server calls
async function api(method, path, body) {
  const opts = {method, headers: {}};
  // the server takes a change only as JSON (a page elsewhere cannot send that unasked)
  if (method !== "GET") opts.headers["Content-Type"] = "application/json";
  if (body !== undefined) opts.body = typeof body === "string" ? body : JSON.stringify(body);
  const res = await fetch(path, opts);
  let data = null;
  try { data = await res.json(); } catch (e) { data = {error: `${res.status} ${res.statusText}`}; }
  if (!res.ok) throw new Error(data.error || `${res.status} ${res.statusText}`);
  return data;
}

function say(text, kind) {
  const el = $("#status");
  el.textContent = text || "";
  el.className = kind || "";
}

async function call(fn) {
  try { say(""); await fn(); }
  catch (e) { say(e.message, "error"); }
}

// ---------------------------------------------------------------- set-up forms
// Leaving a game: kept games are listed and can be opened again; a server that keeps
// them in memory only forgets an unfinished game when the page leaves it, so ask first.
function mayLeave() {
  if (!game || game.terminal || info.keeps_games || !game.history.length) return true;
  return confirm("This server does not keep games: leaving this unfinished game throws it away. Leave it?");
}

async function listGames() {
  const box = $("#saved-list");
  let list;
  try { list = await api("GET", "/api/games"); } catch (e) { box.textContent = e.message; return; }
  $("#saved").hidden = !list.games.length;
  $("#saved-note").textContent = list.kept ? "Kept on this computer; a restarted server finds them." : "In this server's memory only (started with --forget).";
  box.innerHTML = list.games.slice(0, 30).map((x) => {
    const when = new Date(x.changed * 1000).toLocaleString();
    const what = {play: "Play", follow: `Follow (${esc(x.viewer || "")})`, review: "Review"}[x.mode] || esc(x.mode);
    const seats = x.seats.map((s, i) => `<span class="seat-dot seat-${SEATS[i]}"></span>${esc(s)}`).join(" ");
    return `<li class="saved-game" data-id="${esc(x.id)}"><button class="open-game" title="open this game again">${what}</button>
      <span class="saved-seats">${seats}</span><span class="note">${x.decisions} decision${x.decisions === 1 ? "" : "s"}${x.over ? ", over" : ""} · ${esc(when)}</span></li>`;
  }).join("");
  for (const li of box.querySelectorAll("li")) {
    li.querySelector("button").onclick = () => call(async () => open(await api("GET", `/api/games/${li.dataset.id}`)));
  }
}

function showSetup(mode) {
  if (!mayLeave()) return false;
  if (jobEvents) { jobEvents.close(); jobEvents = null; job = null; showProgress(); }
  looking = null;
  stopPolling();
  game = null;
  $("#game").hidden = true;
  $("#setup").hidden = false;
  for (const f of document.querySelectorAll(".setup-form")) f.hidden = f.dataset.mode !== mode;
  for (const t of document.querySelectorAll(".tab")) t.classList.toggle("active", t.dataset.mode === mode);
  history.replaceState(null, "", `/?mode=${mode}`);
  localStorage.removeItem("ulm-game");
  listGames();
  return true;
}

function seatRows() {
  const form = $("#form-play");
  const n = +form.players.value;
  const box = $("#seat-rows");
  const old = [...box.querySelectorAll("input")].map((i) => i.value);
  box.innerHTML = "";
  for (let p = 0; p < n; p++) {
    const row = document.createElement("label");
    row.className = "seat-row";
    row.innerHTML = `<span class="seat-dot seat-${SEATS[p]}"></span>${SEATS[p]}
      <input name="seat${p}" list="bot-specs" title="human, or a bot: ismcts:time=2 thinks 2 s a decision, greedy and random are quick" value="${old[p] || (p === 0 ? "human" : "ismcts:iterations=2000")}">`;
    box.appendChild(row);
  }
}

function followSeats() {
  const form = $("#form-follow");
  const sel = form.seat;
  const keep = sel.value;
  sel.innerHTML = SEATS.slice(0, +form.players.value).map((s) => `<option>${s}</option>`).join("");
  if ([...sel.options].some((o) => o.value === keep)) sel.value = keep;
}

async function startPlay(ev) {
  ev.preventDefault();
  const form = $("#form-play");
  const n = +form.players.value;
  const seats = [];
  for (let p = 0; p < n; p++) seats.push(form[`seat${p}`].value.trim());
  const body = {mode: "play", seats, variant: form.variant.value};
  // no seed given: the server deals with a secret one (named in the record at the end)
  if (form.seed.value.trim() !== "") body.seed = +form.seed.value;
  await call(async () => open(await api("POST", "/api/games", body)));
}

function dealNote(g) {
  // the seed deals every card: secret while the game is played, unless chosen
  if (g.mode !== "play") return "";
  if (g.seed === null) return `<p class="note" id="deal-note">The deal is secret: the server chose its seed; the record names it when the game is over.</p>`;
  if (g.seed_chosen && !g.terminal) return `<p class="note" id="deal-note">Dealt by seed ${g.seed}, a seed given (not secret): anyone with that seed knows every card and coat to come.</p>`;
  return `<p class="note" id="deal-note">Dealt by seed ${g.seed}: replaying it deals the same game.</p>`;
}

async function startFollow(ev) {
  ev.preventDefault();
  const form = $("#form-follow");
  await call(async () => open(await api("POST", "/api/games", {
    mode: "follow", players: +form.players.value, seat: form.seat.value, variant: form.variant.value})));
}

function readFile(input) {
  return new Promise((resolve, reject) => {
    const file = input.files[0];
    if (!file) return reject(new Error("no file chosen"));
    if (file.size > (info.max_upload || 2e6)) return reject(new Error(`upload: ${file.name} is larger than the server accepts`));
    const r = new FileReader();
    r.onload = () => resolve(r.result);
    r.onerror = () => reject(new Error(`cannot read ${file.name}`));
    r.readAsText(file);
  });
}

async function upload(input, mode, key) {
  await call(async () => {
    const text = await readFile(input);
    let data;
    try { data = JSON.parse(text); } catch (e) { throw new Error(`${input.files[0].name}: not valid JSON (${e.message})`); }
    input.value = "";
    open(await api("POST", "/api/games", {mode, [key]: data}));
  });
}

// ---------------------------------------------------------------- showing a game
function open(g) {
  game = g;
  history.replaceState(null, "", `/?game=${g.id}`);
  localStorage.setItem("ulm-game", g.id);
  $("#setup").hidden = true;
  $("#game").hidden = false;
  for (const t of document.querySelectorAll(".tab")) t.classList.toggle("active", t.dataset.mode === g.mode);
  render();
}

function pct(x) { return `${(100 * x).toFixed(1)}%`; }

function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));
}

function render() {
  const g = game;
  if (looking && (g.mode === "review" || looking.total !== g.history.length)) looking = null;
  if (variations.length && variations.gameId !== g.id) { variations = []; exploring = null; }
  // the board, with its clickable targets (or an earlier board, or a variation)
  $("#board").innerHTML = exploring ? exploring.data.svg : looking ? looking.svg : g.svg;
  const svg = $("#board svg");
  if (svg) { svg.removeAttribute("width"); svg.removeAttribute("height"); }
  if (exploring) wireTargets(exploring.data.options, extendVariation);
  else if (!looking) wireTargets();
  renderLooking();

  // summary
  const seats = g.seats.map((s) => {
    const who = s.kind === "human" ? "you" : s.kind === "bot" ? esc(s.spec) : s.kind === "you" ? "you" : s.spec ? esc(s.spec) : "";
    const mark = g.to_move === s.seat ? " to-move" : "";
    return `<li class="seat${mark}"><span class="seat-dot seat-${s.seat}"></span><b>${s.seat}</b>
      <span class="who">${who}</span><span class="score">${g.scores[s.seat]} VP</span></li>`;
  }).join("");
  let head;
  if (g.terminal) head = `Game over — ${g.winners.length > 1 ? "shared win" : "winner"}: ${g.winners.join(", ")}`;
  else if (g.to_move === "chance") head = g.mode === "follow" ? `Round ${g.round}: enter what was drawn` : `Round ${g.round}: drawing…`;
  else head = `Round ${g.round} — <span class="seat-dot seat-${g.to_move}"></span>${g.to_move} to move`;
  const modeName = {play: "Playing", follow: `Following as ${g.viewer}`, review: "Reviewing a record"}[g.mode];
  $("#summary").innerHTML = `<div class="mode">${modeName}</div><h2>${head}</h2><ul class="seats">${seats}</ul>${dealNote(g)}`;

  $("#over-box").hidden = !(g.mode === "play" && g.terminal);

  // a bot thinking
  const th = g.thinking;
  $("#thinking").hidden = !th;
  if (th) $("#thinking-text").textContent = th.error ? `${th.seat}: ${th.error}` : `${th.seat} (${th.spec}) is thinking… ${th.seconds.toFixed(1)} s`;

  // decisions
  const box = $("#decisions");
  box.innerHTML = "";
  $("#decisions-box").hidden = g.mode === "review" || !!exploring || !!looking;
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
    b.dataset.decision = opt.decision;
    b.title = opt.target ? "also on the board: click its place there" : "decide this";
    b.onclick = () => decide(opt.decision);
    box.appendChild(b);
  }

  $("#words").hidden = g.mode !== "follow" || g.terminal;
  if (g.words_hint) box.insertAdjacentHTML("afterbegin", `<p class="note words-hint">${esc(g.words_hint)}</p>`);

  // hint
  const canHint = !g.terminal && g.to_move !== "chance" &&
    ((g.mode === "review" && (g.viewer === null || g.to_move === g.viewer)) || (g.mode === "play" && g.options.length > 0) || (g.mode === "follow" && g.to_move === g.viewer));
  $("#hint").disabled = !canHint || !!job;
  if (!job || job.kind !== "hint") showAdvice(g.hint);

  // review
  $("#review-controls").hidden = g.mode !== "review";
  if (g.mode === "review") renderReview();

  // history
  $("#undo").disabled = !g.can_undo;
  $("#undo").textContent = g.mode === "review" ? "Back" : "Undo";
  $("#download").textContent = g.mode === "follow" ? "Save view" : "Save record";
  $("#download").disabled = (g.mode === "follow" && !g.can_save) ||
    (g.mode === "play" && !g.terminal && g.viewer !== null);
  // the move list: click (or Enter on) a decision to see the board right after it
  const hist = $("#history");
  const at = shownIndex();
  const start = `<li class="h start${at === 0 ? " current" : ""}" data-after="0" value="0" tabindex="0" title="the board before the first decision">start</li>`;
  hist.innerHTML = start + variationItems(0) + g.history.map((h) => {
    const cur = h.index + 1 === at ? " current" : "";
    const chance = (h.chance || []).map((c) => `<span class="chance">${esc(c)}</span>`).join("");
    return `<li class="h${cur}" data-index="${h.index}" data-after="${h.index + 1}" value="${h.index + 1}" tabindex="0" title="see the board after this decision"><span class="seat-dot seat-${h.seat}"></span><span class="who-did">${esc(h.seat)}</span> ${esc(h.name)}${chance}</li>` + variationItems(h.index + 1);
  }).join("");
  for (const v of hist.querySelectorAll(".var-step")) {
    v.onclick = (ev) => { ev.stopPropagation(); showVariation(+v.dataset.vi, +v.dataset.upto); };
  }
  for (const x of hist.querySelectorAll(".var-drop")) {
    x.onclick = (ev) => { ev.stopPropagation(); dropVariation(+x.dataset.vi); };
  }
  for (const li of hist.querySelectorAll("li.h")) {
    li.onclick = () => showAt(+li.dataset.after);
    li.onkeydown = (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); showAt(+li.dataset.after); } };
  }
  const cur = hist.querySelector(".current");
  if (cur && (looking || g.mode === "review")) cur.scrollIntoView({block: "nearest"});
  else hist.scrollTop = hist.scrollHeight;

  const botToMove = g.seats.some((s) => s.seat === g.to_move && s.kind === "bot");
  if (g.thinking || (botToMove && !g.terminal)) startPolling(); else stopPolling();
}

// ---------------------------------------------------------------- looking back
// The position shown: the number of decisions played before it.
function shownIndex() {
  if (!game) return 0;
  if (game.mode === "review") return game.index;
  return looking ? looking.index : game.history.length;
}

async function showAt(index) {
  const g = game;
  if (!g) return;
  exploring = null;
  const total = g.mode === "review" ? g.total : g.history.length;
  index = Math.max(0, Math.min(index, total));
  if (g.mode === "review") return goto(index);
  if (index === total) { looking = null; lookingFor = null; render(); return; }
  lookingFor = index;     // arrow keys pressed meanwhile step on from here
  await call(async () => {
    const b = await api("GET", `/api/games/${g.id}/board?index=${index}`);
    if (lookingFor !== index) return;
    lookingFor = null;
    looking = b;
    render();
  });
}

function renderLooking() {
  const box = $("#looking");
  const at = shownIndex();
  box.hidden = false;
  box.classList.toggle("active", !!(looking || exploring));
  $("#back-to-game").hidden = !looking && !exploring;
  $("#try-line").hidden = !!exploring || game.terminal && at === (game.total || game.history.length);
  $("#variation-options").innerHTML = "";
  if (exploring) {
    const v = exploring.data;
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
    return;
  }
  $("#back-to-game").textContent = "Back to the game";
  if (!looking) { $("#looking-text").textContent = ""; $("#take-back").hidden = true; return; }
  $("#looking-text").textContent = looking.index === 0
    ? "The board before the first decision."
    : `The board after decision ${looking.index} of ${looking.total}.`;
  $("#take-back").hidden = game.mode !== "play";
}

// ---------------------------------------------------------------- variations
// A line tried from a position of the game (its main line is kept): the server plays it
// in a world the viewer cannot tell from the real one, up to the end of that turn.
function variationItems(after) {
  return variations.map((v, vi) => v.from !== after ? "" : `<li class="variation" value="${after}">` +
    `<span class="var-step${exploring && exploring.vi === vi && exploring.upto === 0 ? " current" : ""}" data-vi="${vi}" data-upto="0" tabindex="0" title="the start of this variation">(</span>` +
    v.names.map((n, k) => `<span class="var-step${exploring && exploring.vi === vi && exploring.upto === k + 1 ? " current" : ""}" data-vi="${vi}" data-upto="${k + 1}" tabindex="0" title="see the board in the variation after this">${esc(n)}</span>`).join(" ") +
    `<span>)</span><button class="var-drop" data-vi="${vi}" title="forget this variation">×</button></li>`).join("");
}

async function showVariation(vi, upto) {
  const v = variations[vi];
  await call(async () => {
    const data = await api("POST", `/api/games/${game.id}/variation`, {index: v.from, line: v.line.slice(0, upto)});
    exploring = {vi, upto, data};
    render();
  });
}

async function tryLine() {
  const from = shownIndex();
  await call(async () => {
    const data = await api("POST", `/api/games/${game.id}/variation`, {index: from, line: []});
    variations.gameId = game.id;
    variations.push({from, line: [], names: []});
    exploring = {vi: variations.length - 1, upto: 0, data};
    render();
  });
}

async function extendVariation(decision) {
  const {vi, upto} = exploring;
  const v = variations[vi];
  const line = v.line.slice(0, upto).concat([decision]);
  await call(async () => {
    const data = await api("POST", `/api/games/${game.id}/variation`, {index: v.from, line});
    v.line = line;
    v.names = data.names;
    exploring = {vi, upto: line.length, data};
    render();
  });
}

function dropVariation(vi) {
  variations.splice(vi, 1);
  variations.gameId = game.id;
  exploring = null;
  render();
}

async function takeBack() {
  if (!looking) return;
  const index = looking.index;
  if (!confirm(`Take back every decision after decision ${index}?`)) return;
  await call(async () => {
    game = await api("POST", `/api/games/${game.id}/takeback`, {index});
    looking = null;
    render();
  });
}

document.addEventListener("keydown", (ev) => {
  if (ev.key === "Escape" && !$("#menu").hidden) { $("#menu").hidden = true; return; }
  if (!game || $("#game").hidden) return;
  const tag = (ev.target.tagName || "").toLowerCase();
  if (["input", "select", "textarea"].includes(tag)) return;
  const total = game.mode === "review" ? game.total : game.history.length;
  const at = lookingFor !== null && game.mode !== "review" ? lookingFor : shownIndex();
  const to = {ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: total}[ev.key];
  if (to === undefined) return;
  ev.preventDefault();
  if (to >= 0 && to <= total && to !== at) showAt(to);
});

// The interactive SVG marks the targets of the legal decisions with class "target"
// and their ids in data-actions; keep those the page offers, and act on a click.
function wireTargets(options, choose) {
  const decideIt = choose || decide;
  const offered = new Map((options || game.options).map((o) => [String(o.decision), o]));
  for (const el of document.querySelectorAll("#board .target")) {
    const opts = (el.dataset.actions || "").split(/[ ,]+/).filter((a) => offered.has(a)).map((a) => offered.get(a));
    if (!opts.length) { el.classList.remove("target"); continue; }
    el.classList.add("clickable");
    el.setAttribute("tabindex", "0");
    el.setAttribute("role", "button");
    el.setAttribute("aria-label", opts.map((o) => o.name).join(" or "));
    const act = (ev) => {
      ev.stopPropagation();
      if (opts.length === 1) decideIt(opts[0].decision);
      else showMenu(ev, opts, decideIt);
    };
    el.addEventListener("click", act);
    el.addEventListener("keydown", (ev) => {
      if (ev.key !== "Enter" && ev.key !== " ") return;
      ev.preventDefault();
      const r = el.getBoundingClientRect();
      act({stopPropagation() {}, clientX: r.left + r.width / 2, clientY: r.top + r.height / 2});
    });
  }
}

function showMenu(ev, opts, choose) {
  const menu = $("#menu");
  menu.innerHTML = "";
  for (const o of opts) {
    const b = document.createElement("button");
    b.textContent = o.name;
    b.dataset.decision = o.decision;
    b.onclick = () => { menu.hidden = true; (choose || decide)(o.decision); };
    menu.appendChild(b);
  }
  const wrap = $("#board-wrap").getBoundingClientRect();
  menu.style.left = `${ev.clientX - wrap.left + 8}px`;
  menu.style.top = `${ev.clientY - wrap.top + 8}px`;
  menu.hidden = false;
  menu.querySelector("button").focus();
}
document.addEventListener("click", () => { $("#menu").hidden = true; });

async function decide(decision) {
  await call(async () => { game = await api("POST", `/api/games/${game.id}/decide`, {decision}); render(); });
}

async function enterWords(ev) {
  ev.preventDefault();
  const text = $("#words-text").value.trim();
  if (!text) return;
  await call(async () => {
    game = await api("POST", `/api/games/${game.id}/decide`, {text});
    $("#words-text").value = "";
    render();
  });
}

async function undo() {
  await call(async () => { game = await api("POST", `/api/games/${game.id}/undo`); render(); });
}

async function refresh() {
  game = await api("GET", `/api/games/${game.id}`);
  render();
}

// ---------------------------------------------------------------- polling
function startPolling() {
  if (pollTimer) return;
  pollTimer = setInterval(poll, 400);
}
function stopPolling() {
  if (pollTimer) clearInterval(pollTimer);
  pollTimer = null;
}
async function poll() {
  try {
    if (game) await refresh();
  } catch (e) { say(e.message, "error"); stopPolling(); }
}

// A search's progress arrives as server-sent events: the estimate so far while it runs,
// the result at once when it ends.
let jobEvents = null;
function followJob() {
  if (jobEvents) jobEvents.close();
  const es = new EventSource(`/api/jobs/${job.id}/events`);
  jobEvents = es;
  es.addEventListener("progress", (ev) => {
    job = JSON.parse(ev.data);
    showProgress();
    if (job.partial) showAdvice(job.partial, true);
  });
  es.addEventListener("end", async (ev) => {
    es.close();
    if (jobEvents === es) jobEvents = null;
    const finished = JSON.parse(ev.data);
    job = null;
    if (finished.status === "done" && finished.kind === "hint" && finished.result) {
      showAdvice(finished.result);           // the answer at once, then the board with it
      window.hintArrived = performance.now();
    }
    if (game) { try { game = await api("GET", `/api/games/${game.id}`); render(); } catch (e) { /* said below */ } }
    showProgress();
    if (finished.status === "failed") say(finished.error, "error");
    else if (finished.status === "cancelled") { say("Search cancelled."); showAdvice(game && game.hint); }
    else {
      say(finished.kind === "hint" ? "" : "Check done.");
    }
  });
  es.onerror = () => {   // the stream broke (the server stopped): look once more
    es.close();
    if (jobEvents === es) jobEvents = null;
    if (job) api("GET", `/api/jobs/${job.id}`).then((j) => { job = j.status === "running" ? j : null; showProgress(); if (job) followJob(); }).catch((e) => { job = null; showProgress(); say(e.message, "error"); });
  };
}

// ---------------------------------------------------------------- advice
async function hint() {
  const seconds = +$("#hint-seconds").value;
  await call(async () => {
    window.hintAsked = performance.now();
    job = await api("POST", `/api/games/${game.id}/hint`, {seconds});
    showProgress();
    followJob();
  });
}

async function cancel() {
  if (!job) return;
  await call(async () => { await api("DELETE", `/api/jobs/${job.id}`); });
}

function showProgress() {
  const running = job && job.status === "running";
  $("#progress").hidden = !running;
  $("#cancel").hidden = !running;
  $("#hint").disabled = running || !game;
  $("#annotate").disabled = !!running;
  if (running) {
    $("#progress-bar").style.width = `${(100 * job.progress).toFixed(0)}%`;
    const its = job.iterations > 0 ? ` ${job.iterations.toLocaleString()} playouts` : "";
    $("#progress").title = `${job.kind === "hint" ? "hint" : "check"}:${its} ${job.elapsed.toFixed(1)} s of ${job.budget} s`;
    say(`${job.kind === "hint" ? "Thinking" : "Checking the decisions"}…${its}`, "busy");
  }
}

function showAdvice(h, live) {
  const box = $("#advice");
  if (!h) { box.innerHTML = ""; return; }
  if (h.kind === "annotation") {   // a decision of an annotated record
    const how = h.played_estimate === "own search" ? "the decision played was searched on its own with the same budget" : "both come from the same search";
    const verdict = h.forced ? "It was the only legal decision." : h.played === h.best ? "It is the computer's choice too." :
      h.mistake ? `A mistake: it gives away ${pct(h.loss)} (± ${pct(h.uncertainty)}); ${how}.` :
      `Within noise: it gives away ${pct(h.loss)} (± ${pct(h.uncertainty)}), too little to call a mistake; ${how}.`;
    const est = (v, w) => pct(v === null || v === undefined ? w : v);
    box.innerHTML = `<h3>Decision ${h.index + 1} of ${h.seat}</h3>
      <table class="alts"><tr><th></th><th>decision</th><th title="the search's estimate, the figure it ranks decisions by">estimate</th><th>visits</th></tr>
      <tr><td>computer</td><td><b>${esc(h.best)}</b></td><td class="num">${est(h.best_value, h.best_win)}</td><td class="num">${h.best_visits.toLocaleString()}</td></tr>
      <tr><td>played</td><td>${esc(h.played)}</td><td class="num">${est(h.played_value, h.played_win)}</td><td class="num">${h.played_visits.toLocaleString()}</td></tr></table>
      <p class="note">Win probability before it: ${pct(h.win_before)}. ${verdict} The computer's choice is drawn on the board; “Hint” thinks about this position again.</p>`;
    return;
  }
  const step = h.step || 1;
  const line = h.line.map((s, i) => `<li value="${step + i}"><b>${esc(s.name)}</b>${s.reveals ? ' <span class="note">(it shows you what was hidden; then choose by what you see and ask again)</span>' : s.chance_after ? ' <span class="note">(then a chance event)</span>' : ""}</li>`).join("");
  const alts = h.alternatives.map((a, i) => `<tr class="alt" data-rank="${i + 1}"><td class="num">${i < 3 ? `<span class="rank-badge">#${i + 1}</span>` : i + 1}</td><td>${esc(a.name)}</td>
    <td class="num">${a.visits.toLocaleString()}</td><td class="num">${pct(a.share)}</td>
    <td class="num"><span class="bar" style="width:${(50 * Math.max(0, Math.min(1, a.estimate))).toFixed(0)}px"></span>${pct(a.estimate)} <span class="note">± ${pct(a.error)}</span></td></tr>`).join("");
  const who = Object.keys(h.win_probability).map((s) => `<tr><td><span class="seat-dot seat-${s}"></span>${s}</td>
    <td class="num">${pct(h.win_probability[s])}</td><td class="num">${h.expected_score[s].toFixed(1)} VP</td></tr>`).join("");
  const state = live ? `<span class="live">live</span>` : "";
  const its = h.iterations > 0 ? `${h.iterations.toLocaleString()} playouts in ${h.seconds} s` : "";
  box.innerHTML = `<h3>Advice for ${h.seat} ${state}</h3>
    ${step > 1 ? `<p class="note">Step ${step} of the advised turn (the alternatives were for step 1).</p>` : ""}
    <ol class="line">${line}</ol>
    ${alts ? `<table class="alts"><tr><th title="rank: the best three are drawn on the board">#</th><th>decision</th><th title="playouts through this decision">visits</th><th title="how much of the search went to this decision">share</th><th title="the search's estimate of the decision, the figure it ranks by, ± its standard error">estimate</th></tr>${alts}</table>` : ""}
    <table class="who"><tr><th></th><th title="the chance of winning">win</th><th title="the mean final score of the playouts">expected score</th></tr>${who}</table>
    <p class="note">${its ? its + ". " : ""}“Visits” and “share”: how much of the search went to that decision; “estimate”: the figure the search ranks decisions by, about the chance of winning after it (plus a little for the score margin, mixed with the best line's evaluation), ± its standard error. The best three are drawn on the board, numbered.</p>`;
}

// ---------------------------------------------------------------- review
async function goto(index, as) {
  await call(async () => {
    const body = {index};
    if (as !== undefined) body.as = as;
    game = await api("POST", `/api/games/${game.id}/goto`, body);
    render();
  });
}

function renderReview() {
  const g = game;
  $("#rv-pos").textContent = `${g.index} of ${g.total} played`;
  const slider = $("#rv-slider");
  slider.max = g.total;
  slider.value = g.index;
  const asSel = $("#rv-as");
  const want = g.viewer || "all";
  if (asSel.options.length !== g.players + 1) {
    asSel.innerHTML = `<option value="all">everyone (all cards)</option>` +
      SEATS.slice(0, g.players).map((s) => `<option>${s}</option>`).join("");
    $("#an-seat").innerHTML = SEATS.slice(0, g.players).map((s) => `<option>${s}</option>`).join("");
    $("#cont-seat").innerHTML = $("#an-seat").innerHTML;
  }
  asSel.value = want;
  drawPlot();
}

function drawPlot() {
  const a = game.annotation;
  const all = (game.annotations && game.annotations.length) ? game.annotations : (a ? [a] : []);
  const box = $("#plot");
  const note = $("#annotation-note");
  if (!all.some((x) => x.decisions.length)) { box.innerHTML = ""; note.textContent = "Check a player's decisions to see their chance of winning over the whole game and their biggest mistakes."; return; }
  const W = 360, H = 140, L = 30, B = 18, T = 8;
  const x = (k) => L + (W - L - 6) * k / Math.max(game.total, 1);
  const y = (p) => T + (H - T - B) * (1 - p);
  // one curve a seat checked, in its colour; every point a link to the board there
  const curves = all.map((an) => {
    const notes = an.decisions;
    const pts = notes.map((n) => [x(n.index), y(n.win_before)]);
    const path = pts.map((p, i) => `${i ? "L" : "M"}${p[0].toFixed(1)},${p[1].toFixed(1)}`).join(" ");
    const dots = notes.map((n, i) => {
      const bad = n.mistake !== false && n.loss >= 0.1 ? " mistake" : "";   // a ring: a mistake beyond noise of 10 points or more
      return `<circle class="pt${bad}" data-seat="${an.seat}" data-index="${n.index}" cx="${pts[i][0].toFixed(1)}" cy="${pts[i][1].toFixed(1)}" r="${bad ? 4.5 : 3}" style="fill: var(--${an.seat})" tabindex="0"><title>${an.seat}, ${n.index + 1}. ${esc(n.played)} (${pct(n.played_win)}); computer: ${esc(n.best)} (${pct(n.best_win)})${bad ? " — a mistake" : n.within_noise ? " — a loss within noise" : ""}</title></circle>`;
    }).join("");
    return `<path d="${path}" class="curve" style="stroke: var(--${an.seat})"/>${dots}`;
  }).join("");
  const grid = [0, 0.25, 0.5, 0.75, 1].map((p) => `<line x1="${L}" x2="${W - 6}" y1="${y(p)}" y2="${y(p)}" class="grid"/><text x="${L - 4}" y="${y(p) + 3}" class="axis">${p * 100}%</text>`).join("");
  const cur = `<line x1="${x(game.index)}" x2="${x(game.index)}" y1="${T}" y2="${H - B}" class="cursor"/>`;
  box.innerHTML = `<svg viewBox="0 0 ${W} ${H}" class="plot">${grid}${cur}${curves}
    <text x="${(W + L) / 2}" y="${H - 3}" class="axis" text-anchor="middle">decision</text></svg>`;
  for (const c of box.querySelectorAll("circle")) {
    c.onclick = () => goto(+c.dataset.index);
    c.onkeydown = (ev) => { if (ev.key === "Enter") goto(+c.dataset.index); };
  }
  const last = a || all[all.length - 1];
  const notes = last.decisions;
  const worst = last.mistakes.slice(0, 3).map((k) => notes.find((n) => n.index === k));
  note.innerHTML = `${all.map((an) => an.seat).join(", ")}: the chance of winning before each decision of the whole game; ringed dots are mistakes that give away 10 points or more (a loss within noise is no mistake). ` +
    (worst.length ? `${last.seat}'s biggest mistakes: ` + worst.map((n) => `<a href="#" data-index="${n.index}">${n.index + 1}. ${esc(n.played)} (−${pct(n.loss)})</a>`).join(", ") : `No mistakes found for ${last.seat}.`);
  for (const l of note.querySelectorAll("a")) l.onclick = (ev) => { ev.preventDefault(); goto(+l.dataset.index); };
}

async function annotate() {
  await call(async () => {
    job = await api("POST", `/api/games/${game.id}/annotate`, {seat: $("#an-seat").value, seconds: +$("#an-seconds").value});
    showProgress();
    followJob();
  });
}

// A finished game of Play, opened in Review (its graph and mistakes), the person's seat chosen.
async function reviewThis() {
  const seat = game.viewer;
  await call(async () => {
    const res = await fetch(`/api/games/${game.id}/download`);
    if (!res.ok) throw new Error((await res.json()).error);
    const record = await res.json();
    open(await api("POST", "/api/games", {mode: "review", record}));
    if (seat) $("#an-seat").value = seat;
    say("Check a player's decisions to see their chance of winning over the game and their mistakes.");
  });
}

// A record under review continued from the position shown: played on (the chosen seat a
// person, the others the record's bots or a quick searcher), or followed with that seat's view.
async function continueFrom(mode) {
  const seat = $("#cont-seat").value;
  await call(async () => {
    const k = await api("GET", `/api/games/${game.id}/continue?seat=${encodeURIComponent(seat)}`);
    if (mode === "follow") { open(await api("POST", "/api/games", {mode: "follow", view: k.view})); return; }
    if (!k.record) throw new Error("Play on: choose “Seen by: everyone” first (the record names every seat's decisions)");
    const bots = k.record.bots || [];
    const seats = SEATS.slice(0, game.players).map((s, p) => s === seat ? "human"
      : (bots[p] && bots[p] !== "human" ? bots[p] : "ismcts:iterations=2000"));
    open(await api("POST", "/api/games", {mode: "play", record: k.record, seats}));
  });
}

// ---------------------------------------------------------------- start
async function main() {
  const list = document.createElement("datalist");
  list.id = "bot-specs";
  list.innerHTML = BOT_EXAMPLES.map((s) => `<option value="${s}">`).join("");
  document.body.appendChild(list);
  try { info = await api("GET", "/api/info"); } catch (e) { /* the defaults */ }
  for (const opt of $("#hint-seconds").options) opt.disabled = +opt.value > info.max_seconds;

  $("#form-play").players.onchange = seatRows;
  $("#form-play").onsubmit = startPlay;
  $("#form-follow").players.onchange = followSeats;
  $("#form-follow").onsubmit = startFollow;
  $("#upload-view").onchange = (ev) => upload(ev.target, "follow", "view");
  $("#upload-record").onchange = (ev) => upload(ev.target, "review", "record");
  for (const t of document.querySelectorAll(".tab")) t.onclick = () => showSetup(t.dataset.mode);
  $("#undo").onclick = () => (game.mode === "review" ? goto(game.index - 1) : undo());
  $("#download").onclick = () => { window.location = `/api/games/${game.id}/download`; };
  $("#new-game").onclick = () => showSetup(game ? game.mode : "play");
  $("#hint").onclick = hint;
  $("#words").onsubmit = enterWords;
  $("#cancel").onclick = cancel;
  $("#annotate").onclick = annotate;
  $("#review-this").onclick = reviewThis;
  $("#cont-play").onclick = () => continueFrom("play");
  $("#cont-follow").onclick = () => continueFrom("follow");
  $("#back-to-game").onclick = () => { looking = null; exploring = null; render(); };
  $("#try-line").onclick = tryLine;
  $("#take-back").onclick = takeBack;
  $("#rv-first").onclick = () => goto(0);
  $("#rv-prev").onclick = () => goto(Math.max(game.index - 1, 0));
  $("#rv-next").onclick = () => goto(Math.min(game.index + 1, game.total));
  $("#rv-last").onclick = () => goto(game.total);
  $("#rv-slider").onchange = (ev) => goto(+ev.target.value);
  $("#rv-as").onchange = (ev) => goto(game.index, ev.target.value);
  seatRows();
  followSeats();

  // a reload finds the game again: its id is in the address (or remembered)
  const params = new URLSearchParams(location.search);
  const id = params.get("game") || (params.get("mode") ? null : localStorage.getItem("ulm-game"));
  if (id) {
    try { open(await api("GET", `/api/games/${id}`)); return; }
    catch (e) { say(e.message, "error"); }
  }
  showSetup(params.get("mode") || "play");
}

main();
