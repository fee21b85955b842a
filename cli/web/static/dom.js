// @ts-check
// Small helpers of the page: finding its elements, escaping text, the status line.

/**
 * The element `sel` names (the page has it: a missing one is a bug of the page).
 * @param {string} sel
 * @returns {HTMLElement}
 */
export function $(sel) {
  const found = document.querySelector(sel);
  if (!(found instanceof HTMLElement)) throw new Error(`the page has no ${sel}`);
  return found;
}

/**
 * An element of a given kind, e.g. input("#words-text").
 * @template {HTMLElement} T
 * @param {string} sel
 * @param {new () => T} kind
 * @returns {T}
 */
export function $as(sel, kind) {
  const found = $(sel);
  if (!(found instanceof kind)) throw new Error(`${sel} is not a ${kind.name}`);
  return found;
}

/** @param {string} sel */
export const button = (sel) => $as(sel, HTMLButtonElement);
/** @param {string} sel */
export const select = (sel) => $as(sel, HTMLSelectElement);
/** @param {string} sel */
export const input = (sel) => $as(sel, HTMLInputElement);
/** @param {string} sel */
export const form = (sel) => $as(sel, HTMLFormElement);

/** @param {unknown} s */
export function esc(s) {
  /** @type {Record<string, string>} */
  const named = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"};
  return String(s).replace(/[&<>"']/g, (c) => named[c]);
}

/** @param {number} x a share, 0..1 */
export function pct(x) { return `${(100 * x).toFixed(1)}%`; }

let lastSaid = "";

/** The game moved on: an error said before is stale and goes. */
export function forgetError() {
  if (lastSaid === "error") say("");
}

/**
 * The status line: a message, its kind ("error", "busy") or none.
 * @param {string} [text]
 * @param {string} [kind]
 */
export function say(text, kind) {
  lastSaid = kind || "";
  const el = $("#status");
  el.textContent = text || "";
  el.className = kind || "";
}
