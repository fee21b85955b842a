// @ts-check
// The page on a phone (a window at most 600 px wide). The board shows one part at a
// time: the cathedral's grid, the docks, the river, the quarters or the seats' areas,
// zoomed (the SVG's viewBox) so that every target in it is a thumb's size and every
// word readable. The part where the decision is made comes first (with a hint drawn,
// the part of its best decision); the others are a tap away on the bar above the
// board, each with the number of targets it holds.
// The seats' summary and the move list are folded. Wider windows are left as they are.
import {$} from "./dom.js";
import {ui} from "./state.js";

const PHONE = window.matchMedia("(max-width: 600px)");
const TARGET_PX = 40;       // the least width and height of a target, CSS px
const WORD_PX = 9;          // the least size of a word, CSS px
const ROOM = 1.03;                 // a little above the least, against rounding
const PAD = 14;                    // around a part, in the picture's units

/** @typedef {{x: number, y: number, width: number, height: number}} Box */
/** @typedef {{name: string, label: string, box: Box}} Part */

/** The part the person picked, and the targets offered when they did. */
const picked = {part: "", targets: ""};
/** The drawing last shown, its part and where its window was scrolled: a board drawn
 * again the same (while a bot thinks the page asks every 0.4 s) keeps the person's place. */
const kept = {drawing: "", part: "", left: 0, top: 0};

/** @param {Box[]} boxes @returns {Box | null} */
function union(boxes) {
  if (!boxes.length) return null;
  const x = Math.min(...boxes.map((b) => b.x)), y = Math.min(...boxes.map((b) => b.y));
  const right = Math.max(...boxes.map((b) => b.x + b.width));
  const bottom = Math.max(...boxes.map((b) => b.y + b.height));
  return {x, y, width: right - x, height: bottom - y};
}

/** @param {Box} b @param {number} left @param {number} [pad] @returns {Box} */
function grow(b, left, pad = PAD) {
  return {x: b.x - left, y: b.y - pad, width: b.width + left + pad, height: b.height + 2 * pad};
}

/** @param {Box} a @param {Box} b */
function overlaps(a, b) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** @param {Element} el @returns {Box} */
function boxOf(el) {
  return el instanceof SVGGraphicsElement ? el.getBBox() : {x: 0, y: 0, width: 0, height: 0};
}

/**
 * The parts of the picture, from its elements' classes (ulm/picture/): the grid with
 * its outer spaces and arrows, the river, the quarters, the seats' areas, and the docks'
 * column (the bag, the drawn tile, the tower, the piles) between the grid and the edge.
 * @param {SVGSVGElement} svg @returns {Part[]}
 */
function partsOf(svg) {
  /** @param {string} sel */
  const of = (sel) => union([...svg.querySelectorAll(sel)].map(boxOf));
  const grid = of(".cell, .outer, .entry, .side"), river = of(".river-space");
  const quarters = of(".quarter"), seats = of(".player");
  if (!grid || !river || !quarters || !seats) return [];
  const [, , width] = (svg.dataset.whole || "").split(" ").map(Number);
  const left = grid.x + grid.width + PAD, top = quarters.y + quarters.height + PAD;
  const column = {x: left, y: top, width: width - left, height: seats.y - top};
  // the docks' part: what is drawn in their column (not the blank below it, nor the
  // picture's background)
  const drawn = union([...svg.querySelectorAll("rect, text, circle, path")].map(boxOf)
    .filter((b) => b.width > 0 && b.width <= column.width && b.height <= column.height
      && holds(column, b)));
  const docks = drawn ? grow(drawn, PAD) : column;
  return [
    {name: "grid", label: "Grid", box: grow(grid, 44, 26)},
    {name: "docks", label: "Docks", box: docks},
    {name: "river", label: "River", box: grow(river, PAD)},
    {name: "quarters", label: "Quarters", box: grow(quarters, PAD)},
    {name: "seats", label: "Seats", box: grow(seats, PAD)},
  ];
}

/** The targets of the decision shown (board.js marks them "clickable"). @param {SVGSVGElement} svg */
function targetsOf(svg) {
  return [...svg.querySelectorAll(".clickable")];
}

/** Whether `outer` holds the centre of `b`. @param {Box} outer @param {Box} b */
function holds(outer, b) {
  const cx = b.x + b.width / 2, cy = b.y + b.height / 2;
  return cx >= outer.x && cx <= outer.x + outer.width && cy >= outer.y && cy <= outer.y + outer.height;
}

/** The part a target is in: the first that holds its centre. @param {Part[]} parts @param {Element} t */
function partOf(parts, t) {
  return parts.find((p) => holds(p.box, boxOf(t)));
}

/**
 * The scale (CSS px per unit of the picture) that makes the targets and words of
 * `area` large enough, and fills the width `room` at least.
 * @param {SVGSVGElement} svg @param {Box} area @param {number} room
 */
function scaleFor(svg, area, room) {
  let scale = room / area.width;
  for (const t of targetsOf(svg)) {
    const b = boxOf(t);
    if (overlaps(b, area)) scale = Math.max(scale, TARGET_PX * ROOM / Math.min(b.width, b.height));
  }
  for (const word of svg.querySelectorAll("text")) {
    const size = parseFloat(getComputedStyle(word).fontSize);
    if (size > 0 && overlaps(boxOf(word), area)) scale = Math.max(scale, WORD_PX * ROOM / size);
  }
  return scale;
}

/**
 * What of `part` to show: with targets, around them (as much of the part as the board's
 * window holds at `scale`); else the whole part.
 * @param {Part} part @param {Box | null} around @param {number} scale @param {Box} window_
 * @returns {Box}
 */
function cropOf(part, around, scale, window_) {
  if (!around) return part.box;
  const b = part.box;
  /** @param {number} lo @param {number} size @param {number} min @param {number} max */
  const span = (lo, size, min, max) => {
    const want = Math.min(Math.max(size, min), max);
    const start = Math.min(Math.max(lo + size / 2 - want / 2, 0), max - want);
    return [start, want];
  };
  const [x, width] = span(around.x - b.x - PAD, around.width + 2 * PAD, window_.width / scale, b.width);
  const [y, height] = span(around.y - b.y - PAD, around.height + 2 * PAD, window_.height / scale, b.height);
  return {x: b.x + x, y: b.y + y, width, height};
}

/** Show `part` of the board: zoomed, scrolled to its targets. @param {SVGSVGElement} svg @param {Part} part */
function show(svg, part) {
  const board = $("#board");
  // the board's window: the phone's width, and as tall as the style lets it grow
  const tallest = parseFloat(getComputedStyle(board).maxHeight) || innerHeight / 2;
  const window_ = {x: 0, y: 0, width: board.clientWidth, height: tallest};
  const targets = targetsOf(svg).map(boxOf).filter((b) => overlaps(b, part.box));
  // a hint's best decision (its mark "#1") in this part is kept in sight with the targets
  const rank = svg.querySelector('.ranked .rank[data-rank="1"] circle');
  const best = rank && holds(part.box, boxOf(rank)) ? boxOf(rank) : null;
  const around = union(best ? [...targets, best] : targets);
  const scale = scaleFor(svg, part.box, window_.width);
  const crop = cropOf(part, around, scale, window_);
  svg.setAttribute("viewBox", `${crop.x} ${crop.y} ${crop.width} ${crop.height}`);
  svg.style.width = `${crop.width * scale}px`;
  svg.style.height = `${crop.height * scale}px`;
  svg.dataset.part = part.name;
  const seen = {width: board.clientWidth / scale, height: board.clientHeight / scale};
  const own = ownArea(svg, part);
  const at = targets.length || own ? mostInSight(targets.length ? targets : [own || crop], seen, crop, best)
    : {x: crop.x + (crop.width - seen.width) / 2, y: crop.y + (crop.height - seen.height) / 2};
  board.scrollLeft = (at.x - crop.x) * scale;
  board.scrollTop = (at.y - crop.y) * scale;
}

/**
 * The person's own area when `part` holds it: the viewer's, else the seat to move's.
 * @param {SVGSVGElement} svg @param {Part} part @returns {Box | null}
 */
function ownArea(svg, part) {
  const g = ui.game;
  for (const seat of g ? [g.viewer, g.to_move] : []) {
    const area = seat ? svg.querySelector(`.player[data-seat="${seat}"]`) : null;
    if (area && holds(part.box, boxOf(area))) return boxOf(area);
  }
  return null;
}

/**
 * Where the board's window (`seen`, in the picture's units) holds the most targets
 * whole (and `must`, a hint's best decision, if it can): tried at the start of what is
 * drawn (`crop`: a part's row and column labels are not cut when the same targets are
 * seen from there) and with a target at each of its edges.
 * @param {Box[]} targets @param {{width: number, height: number}} seen @param {Box} crop
 * @param {Box | null} [must]
 */
function mostInSight(targets, seen, crop, must) {
  /** @param {number} v @param {number} lo @param {number} size @param {number} room */
  const within = (v, lo, size, room) => Math.max(lo, Math.min(v, lo + size - room));
  const boxes = must ? [must, ...targets] : targets;
  const xs = [crop.x, ...boxes.flatMap((t) => [t.x - PAD, t.x + t.width + PAD - seen.width])]
    .map((x) => within(x, crop.x, crop.width, seen.width));
  const ys = [crop.y, ...boxes.flatMap((t) => [t.y - PAD, t.y + t.height + PAD - seen.height])]
    .map((y) => within(y, crop.y, crop.height, seen.height));
  /** @param {Box} t @param {number} x @param {number} y */
  const whole = (t, x, y) => t.x >= x && t.y >= y && t.x + t.width <= x + seen.width
    && t.y + t.height <= y + seen.height;
  let best = {x: xs[0], y: ys[0]}, most = -1;
  for (const x of xs) {
    for (const y of ys) {
      const n = targets.filter((t) => whole(t, x, y)).length + (must && whole(must, x, y) ? 1e6 : 0);
      if (n > most) { best = {x, y}; most = n; }
    }
  }
  return best;
}

/** The bar of the parts, the one shown pressed. @param {Part[]} parts @param {Map<string, number>} counts @param {string} shown */
function showBar(parts, counts, shown) {
  const bar = $("#parts");
  bar.innerHTML = "";
  for (const p of parts) {
    const b = document.createElement("button");
    b.dataset.part = p.name;
    b.setAttribute("aria-pressed", String(p.name === shown));
    const n = counts.get(p.name) || 0;
    b.textContent = p.label;
    if (n) {
      const badge = document.createElement("span");
      badge.className = "count";
      badge.textContent = String(n);
      b.title = `${n} of the decision's targets are here`;
      b.append(" ", badge);
    }
    b.onclick = () => { picked.part = p.name; focusBoard(); };
    bar.appendChild(b);
  }
  bar.hidden = false;
}

/** Where the decision is made: the part with the most targets (the grid if none). @param {Map<string, number>} counts */
function busiest(counts) {
  let best = "grid", most = 0;
  for (const [name, n] of counts) if (n > most) { best = name; most = n; }
  return best;
}

/** The part of the hint's best decision, when one is drawn (its mark "#1"). @param {SVGSVGElement} svg @param {Part[]} parts */
function bestOf(svg, parts) {
  const best = svg.querySelector('.ranked .rank[data-rank="1"]');
  const part = best ? parts.find((p) => holds(p.box, boxOf(best))) : undefined;
  return part ? part.name : "";
}

/** How many of the decision's targets each part holds. @param {Part[]} parts @param {Element[]} targets */
function countsOf(parts, targets) {
  /** @type {Map<string, number>} */
  const counts = new Map();
  for (const t of targets) {
    const p = partOf(parts, t);
    if (p) counts.set(p.name, (counts.get(p.name) || 0) + 1);
  }
  return counts;
}

/** On a phone, show the part of the board where the decision is made (or the one picked). */
export function focusBoard() {
  const svg = document.querySelector("#board svg");
  if (!(svg instanceof SVGSVGElement)) return;
  const fresh = !svg.dataset.whole;            // just drawn, not shown before
  if (fresh) svg.dataset.whole = svg.getAttribute("viewBox") || "";
  const parts = PHONE.matches ? partsOf(svg) : [];
  if (!parts.length) { whole(svg); return; }
  const targets = targetsOf(svg);
  const key = targets.map((t) => t.getAttribute("data-actions")).join("|");
  if (key !== picked.targets) { picked.targets = key; picked.part = ""; }
  const counts = countsOf(parts, targets);
  const name = picked.part || bestOf(svg, parts) || busiest(counts);
  showBar(parts, counts, name);
  const drawing = fresh ? svg.outerHTML : kept.drawing;
  const again = fresh && drawing === kept.drawing && name === kept.part;
  const place = {left: kept.left, top: kept.top};
  show(svg, parts.find((p) => p.name === name) || parts[0]);
  const board = $("#board");
  if (again) { board.scrollLeft = place.left; board.scrollTop = place.top; }
  Object.assign(kept, {drawing, part: name, left: board.scrollLeft, top: board.scrollTop});
}

/** The whole board, as on a wide screen. @param {SVGSVGElement} svg */
function whole(svg) {
  if (svg.dataset.whole) svg.setAttribute("viewBox", svg.dataset.whole);
  svg.style.width = svg.style.height = "";
  delete svg.dataset.part;
  $("#parts").hidden = true;
}

/** The folded panels: closed on a phone, open (and not foldable) on a wider screen. */
function fold() {
  for (const d of document.querySelectorAll("details.fold")) {
    if (d instanceof HTMLDetailsElement) d.open = !PHONE.matches;
  }
}

/** Follow the window's width (a phone turned, a window resized) and the board's scrolling. */
export function watchWidth() {
  fold();
  const board = $("#board");
  board.addEventListener("scroll", () => { kept.left = board.scrollLeft; kept.top = board.scrollTop; });
  PHONE.addEventListener("change", () => { fold(); focusBoard(); });
}
