// @ts-check
// The board panel: the picture the server drew (the game now, an earlier board, or a
// variation) and its clickable targets, with a menu where one place offers several.
import {$} from "./dom.js";
import {focusBoard} from "./phone.js";
import {hintHere, ui} from "./state.js";

/** @typedef {import("./types.js").Option} Option */
/** @typedef {import("./types.js").Advice} Advice */
/** @typedef {(decision: number | string) => void} Choose */

/**
 * Show the board of `svg`; its targets act through `choose` when `options` are offered.
 * @param {string} svg
 * @param {Option[] | null} options  null: a board only looked at
 * @param {Choose} choose
 */
export function showBoard(svg, options, choose) {
  $("#board").innerHTML = svg;
  const pic = document.querySelector("#board svg");
  if (pic) { pic.removeAttribute("width"); pic.removeAttribute("height"); }
  if (options) wireTargets(options, choose);
  const h = ui.game && ui.game.hint;
  if (h && h.kind !== "annotation" && ui.game && svg === ui.game.svg) pointsOnRanks(h);
  const there = hintHere();
  if (there && svg === there.svg) pointsOnRanks(there);
  focusBoard();
}

/**
 * Beside each of the best decisions drawn on the board (#1, #2, #3), its points: the
 * expected final score after it (the hint's decisions, by the rank's data-action).
 * @param {Advice} h
 */
function pointsOnRanks(h) {
  const byAction = new Map(h.actions.map((a) => [String(a.action), a]));
  for (const rank of document.querySelectorAll("#board g.rank")) {
    const a = byAction.get(rank.getAttribute("data-action") || "");
    const badge = rank.querySelector("circle");
    const points = a && a.expected_score[h.player];
    if (typeof points !== "number" || !badge) continue;
    const label = document.createElementNS("http://www.w3.org/2000/svg", "text");
    label.setAttribute("x", String(Number(badge.getAttribute("cx")) + 12));
    label.setAttribute("y", String(Number(badge.getAttribute("cy")) + 4));
    label.setAttribute("class", "rank-points");
    label.textContent = `${points.toFixed(1)} VP`;
    rank.appendChild(label);
  }
}

/** The board of the game now, a board looked back at, or the variation shown. */
export function boardNow() {
  const g = ui.game;
  const there = hintHere();      // a hint asked at the point shown, drawn on its board
  // but not at a variation's start: the hint's board there is the game's, looked back at,
  // without the targets of the variation's first decision
  const start = ui.exploring && ui.exploring.upto === 0;
  if (there && there.svg && !start) return there.svg;
  if (ui.exploring) return ui.exploring.data.svg;
  if (ui.looking) return ui.looking.svg;
  return g ? g.svg : "";
}

// The interactive SVG marks the targets of the legal decisions with class "target"
// and their ids in data-actions; keep those the page offers, and act on a click.
/**
 * @param {Option[]} options
 * @param {Choose} choose
 */
function wireTargets(options, choose) {
  const offered = new Map(options.map((o) => [String(o.decision), o]));
  for (const el of document.querySelectorAll("#board .target")) {
    if (!(el instanceof SVGElement)) continue;
    const opts = (el.dataset.actions || "").split(/[ ,]+/).filter((a) => offered.has(a))
      .map((a) => /** @type {Option} */ (offered.get(a)));
    if (!opts.length) { el.classList.remove("target"); continue; }
    el.classList.add("clickable");
    el.setAttribute("tabindex", "0");
    el.setAttribute("role", "button");
    el.setAttribute("aria-label", opts.map((o) => o.name).join(" or "));
    /** @param {{stopPropagation(): void, clientX: number, clientY: number}} ev */
    const act = (ev) => {
      ev.stopPropagation();
      if (opts.length === 1) choose(opts[0].decision);
      else showMenu(ev, opts, choose);
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

/**
 * @param {{clientX: number, clientY: number}} ev
 * @param {Option[]} opts
 * @param {Choose} choose
 */
function showMenu(ev, opts, choose) {
  const menu = $("#menu");
  menu.innerHTML = "";
  for (const o of opts) {
    const b = document.createElement("button");
    b.textContent = o.name;
    b.dataset.decision = String(o.decision);
    b.onclick = () => { menu.hidden = true; choose(o.decision); };
    menu.appendChild(b);
  }
  const wrap = $("#board-wrap").getBoundingClientRect();
  menu.style.left = `${ev.clientX - wrap.left + 8}px`;
  menu.style.top = `${ev.clientY - wrap.top + 8}px`;
  menu.hidden = false;
  // within the board's frame (a tap near a phone's edge)
  const room = wrap.width - menu.offsetWidth - 4;
  if (ev.clientX - wrap.left + 8 > room) menu.style.left = `${Math.max(4, room)}px`;
  const first = menu.querySelector("button");
  if (first) first.focus();
}

/** Close the menu of a target (a click elsewhere, Escape). Returns whether it was open. */
export function hideMenu() {
  const menu = $("#menu");
  const was = !menu.hidden;
  menu.hidden = true;
  return was;
}
