// Domino tiles drawn as SVG: faces (pips) and backs. A tile is 1 unit by 2; `u` is the unit in px.

import { svg } from "./dom.js";

const PIPS = {
  0: [], 1: [[.5, .5]], 2: [[.25, .25], [.75, .75]], 3: [[.25, .25], [.5, .5], [.75, .75]],
  4: [[.25, .25], [.75, .25], [.25, .75], [.75, .75]],
  5: [[.25, .25], [.75, .25], [.5, .5], [.25, .75], [.75, .75]],
  6: [[.25, .22], [.75, .22], [.25, .5], [.75, .5], [.25, .78], [.75, .78]],
};

// A face at (x, y): `first` is the half at the left (or top, when vertical).
export function tileFace(first, second, x, y, u, vertical, className = "tile") {
  const group = svg("g", { class: className });
  const w = vertical ? u : 2 * u;
  const h = vertical ? 2 * u : u;
  const inset = Math.max(1, u * .04);
  group.append(svg("rect", { x: x + inset, y: y + inset, width: w - 2 * inset, height: h - 2 * inset, rx: u * .15, class: "face" }));
  if (vertical) group.append(svg("line", { x1: x + u * .15, y1: y + u, x2: x + u * .85, y2: y + u, class: "divider" }));
  else group.append(svg("line", { x1: x + u, y1: y + u * .15, x2: x + u, y2: y + u * .85, class: "divider" }));
  [first, second].forEach((value, half) => {
    const ox = vertical ? x : x + half * u;
    const oy = vertical ? y + half * u : y;
    for (const [px, py] of PIPS[value] || []) {
      group.append(svg("circle", { cx: ox + px * u, cy: oy + py * u, r: u * .09, class: "pip" }));
    }
  });
  return group;
}

// A standalone upright tile (for the hand): `a` on top.
export function uprightTile(a, b, u) {
  const node = svg("svg", { width: u, height: 2 * u, viewBox: `0 0 ${u} ${2 * u}`, "aria-hidden": "true", focusable: "false" });
  node.append(tileFace(a, b, 0, 0, u, true));
  return node;
}

// A row of face-down tiles (an opponent's hand, the boneyard): `count` upright backs.
export function tileBacks(count, u, className = "backs") {
  const gap = Math.max(1, u * .15);
  const width = Math.max(1, count * (u + gap) - gap);
  const node = svg("svg", { width, height: 2 * u, viewBox: `0 0 ${width} ${2 * u}`, class: className, "aria-hidden": "true", focusable: "false" });
  for (let i = 0; i < count; i += 1) {
    node.append(svg("rect", { x: i * (u + gap), y: 0, width: u, height: 2 * u, rx: u * .2, class: "back" }));
  }
  return node;
}
