// @ts-check
// The server's API: every request of the page goes through api().
import {say} from "./dom.js";
import {ui} from "./state.js";

/**
 * A request; the answer's JSON, or an Error with the server's message.
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<any>}
 */
export async function api(method, path, body) {
  /** @type {RequestInit & {headers: Record<string, string>}} */
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

/**
 * Run `fn`; its error is said on the status line.
 * @param {() => Promise<void>} fn
 */
export async function call(fn) {
  try { say(""); await fn(); }
  catch (e) { say(message(e), "error"); }
}

/** An error in the page's words. @param {unknown} e */
export function message(e) { return pageWords(e instanceof Error ? e.message : String(e)); }

/**
 * A server's message in the page's words: the seat the request calls `seats[1]` is
 * the one the page calls Blue.
 * @param {string} text
 */
export function pageWords(text) {
  return text.replace(/\bseats\[(\d+)\]/g, (all, k) => ui.info.seats[Number(k)] || all);
}
