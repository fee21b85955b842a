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
  if (body !== undefined) opts.body = typeof body === "string" ? body : toJSON(body);
  const res = await fetch(path, opts);
  let data = null;
  try { data = parseJSON(await res.text()); } catch (e) { data = {error: `${res.status} ${res.statusText}`}; }
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

// Exact whole numbers. A JavaScript number holds a whole number exactly only up to
// 2**53; a seed goes up to 2**64 - 1, and one rounded on its way back (a record reviewed,
// a game played on) deals another game. Every JSON the page reads and sends goes through
// parseJSON and toJSON: a whole number beyond 2**53 is kept as its digits (an Exact) and
// written back as it came.

const MARK = "\u0000ulm-exact:";
// the tokens of JSON text that hold digits: strings (whose digits stay as they are), numbers
const TOKENS = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
const MARKED = /"\\u0000ulm-exact:(-?\d+)"/g;

/** A whole number beyond 2**53 as the server wrote it: its digits, shown and sent as they are. */
export class Exact {
  /** @param {string} digits */
  constructor(digits) { this.digits = digits; }
  toString() { return this.digits; }
  toJSON() { return MARK + this.digits; }
}

/**
 * JSON text parsed, every whole number beyond 2**53 kept as an Exact.
 * @param {string} text
 * @returns {any}
 */
export function parseJSON(text) {
  const kept = text.replace(TOKENS, (t) => t[0] !== '"' && /^-?\d+$/.test(t) &&
    !Number.isSafeInteger(Number(t)) ? JSON.stringify(MARK + t) : t);
  return JSON.parse(kept, (_key, value) => typeof value === "string" && value.startsWith(MARK)
    ? new Exact(value.slice(MARK.length)) : value);
}

/**
 * A value as JSON text, each Exact written as the digits it came with.
 * @param {unknown} value
 */
export function toJSON(value) {
  return JSON.stringify(value).replace(MARKED, "$1");
}

/**
 * A request's body: `fields` and, under `key`, JSON text sent as it came (a file
 * uploaded, a record downloaded): what the page received goes back unchanged.
 * @param {Record<string, unknown>} fields
 * @param {string} key
 * @param {string} text JSON text (checked by parseJSON first)
 */
export function withText(fields, key, text) {
  const head = toJSON(fields);
  return `${head.slice(0, -1)}${head === "{}" ? "" : ","}${JSON.stringify(key)}:${text}}`;
}

/**
 * A whole number typed by a person (a seed): a number, or an Exact beyond 2**53; other
 * text is sent as typed, for the server to say what is wrong with it.
 * @param {string} text
 * @returns {number | Exact | string}
 */
export function wholeNumber(text) {
  const t = text.trim();
  if (!/^\d+$/.test(t)) return t;
  return Number.isSafeInteger(Number(t)) ? Number(t) : new Exact(t.replace(/^0+(?=\d)/, ""));
}
