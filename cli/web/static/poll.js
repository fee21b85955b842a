// @ts-check
// While a bot thinks, the page asks the server for the game again every 0.4 s.
import {api} from "./api.js";
import {say} from "./dom.js";
import {controller, ui} from "./state.js";

/** @type {ReturnType<typeof setInterval> | null} */
let pollTimer = null;

export function startPolling() {
  if (pollTimer) return;
  pollTimer = setInterval(poll, 400);
}

export function stopPolling() {
  if (pollTimer) clearInterval(pollTimer);
  pollTimer = null;
}

async function poll() {
  try {
    if (ui.game) { ui.game = await api("GET", `/api/games/${ui.game.id}`); controller.render(); }
  } catch (e) { say(e instanceof Error ? e.message : String(e), "error"); stopPolling(); }
}
