// The end of a hand on the table (issue 28 M7): the tiles each player still holds, turned face
// up at their seat, and their pips counted up into the result; the summary comes after (with
// reduced motion at once). Never a delay for input: nothing is playable once a hand is over.

import { el, svg } from "./dom.js";
import { tileFace } from "./tiles.js";
import { t } from "./strings.js";

const COUNT_MS = 700;   // the pips counted up
const SUMMARY_MS = 1100;  // then the summary

let shownFor = null;  // the hand whose tiles are face up
let startedAt = 0;
let counting = 0;

export function reducedMotion() {
  return window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
}

// The hand that just ended, while its result is still the table's news (the pause, the match's
// end); null during play and once the next hand is dealt, or after a stop.
export function endedHand(s) {
  const end = s.end;
  if (!end || s.stopped || !end.hands) return null;
  if (s.turn !== null && s.turn !== undefined) return null;
  // The pause before the next hand (whose number the snapshot may carry already), the match's
  // end, or a peer that does not pause: the hand of the same number.
  if (!s.next_hand && !s.match?.over && s.hand_number && end.hand_number !== s.hand_number) return null;
  return end;
}

// Whether the summary may come: the reveal has had its moment.
export function revealDone(s, redraw) {
  const end = endedHand(s);
  if (!end) return true;
  note(end);
  const left = startedAt + (reducedMotion() ? 0 : SUMMARY_MS) - Date.now();
  if (left <= 0) return true;
  setTimeout(redraw, left + 20);
  return false;
}

function note(end) {
  if (shownFor === end.hand_number) return;
  shownFor = end.hand_number;
  startedAt = Date.now();
}

// Small face-up tiles in a row, with what they say for a screen reader.
export function faceRow(keys, u) {
  const tiles = keys.map((key) => String(key).split("|").map(Number));
  const gap = Math.max(2, u * .2);
  const width = Math.max(1, tiles.length * (2 * u + gap) - gap);
  const node = svg("svg", { width, height: u, viewBox: `0 0 ${width} ${u}`, class: "face-row", "aria-hidden": "true", focusable: "false" });
  tiles.forEach(([a, b], i) => node.append(tileFace(a, b, i * (2 * u + gap), 0, u, false)));
  return node;
}

// The seat's tiles face up and its pips (counted up), for its card or the player's own bar.
export function revealed(s, seat, u) {
  const end = endedHand(s);
  if (!end) return null;
  note(end);
  const keys = end.hands[seat] || [];
  const pips = end.pips?.[seat] ?? 0;
  const words = keys.length
    ? t("shows_tiles", keys.map((key) => t("tile_text", ...String(key).split("|"))).join(" "), pips)
    : t("shows_none");
  const count = el("span", { className: "revealed-pips", dataset: { pips: String(pips) }, textContent: t("pips_n", shown(pips)) });
  const box = el("div", { className: "revealed", role: "img", "aria-label": words },
    keys.length ? faceRow(keys, u) : el("span", { className: "revealed-none", textContent: t("no_tiles") }), count);
  if (!counting) counting = requestAnimationFrame(countUp);
  return box;
}

function shown(pips) {
  if (reducedMotion()) return pips;
  return Math.round(pips * Math.min(1, (Date.now() - startedAt) / COUNT_MS));
}

function countUp() {
  counting = 0;
  const nodes = document.querySelectorAll(".revealed-pips");
  for (const node of nodes) node.textContent = t("pips_n", shown(Number(node.dataset.pips)));
  if (nodes.length && Date.now() - startedAt < COUNT_MS) counting = requestAnimationFrame(countUp);
}
