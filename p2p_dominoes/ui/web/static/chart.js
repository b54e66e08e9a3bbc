// The scores after each hand as a line chart with axes, a legend and the target line. Seats are
// told apart by line style and marker shape as well as by colour.

import { el, svg } from "./dom.js";
import { t } from "./strings.js";

const COLOURS = ["#0b5cad", "#a34700", "#1b1f24", "#6b3fa0"];
const DASHES = ["", "8 4", "2 3", "10 3 2 3"];

// Round ticks (a step of 1, 2 or 5 times a power of ten, four or five of them) from 0 to a top
// at or above the highest score, so no line runs above the plot (issue 28 L3). The target has
// its own labelled line.
export function scale(highest) {
  const rough = Math.max(1, highest) / 4;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * power).find((v) => v >= rough);
  const top = Math.max(step, Math.ceil(highest / step) * step);
  const ticks = [];
  for (let v = 0; v <= top + 1e-9; v += step) ticks.push(Math.round(v));
  return { top, ticks };
}

export function renderChart(node, legend, s) {
  const W = 360, H = 180, L = 40, R = 12, T = 12, B = 34;
  const history = [new Array(s.names.length).fill(0), ...(s.history || [])];
  const { top, ticks } = scale(Math.max(s.target || 1, ...history.flat()));
  const x = (i) => L + i * (W - L - R) / Math.max(1, history.length - 1);
  const y = (v) => H - B - (H - B - T) * v / top;
  node.setAttribute("viewBox", `0 0 ${W} ${H}`);
  node.replaceChildren(svg("title", {}));
  node.firstChild.textContent = t("chart_title");
  node.append(svg("line", { x1: L, y1: H - B, x2: W - R, y2: H - B, class: "axis" }));
  node.append(svg("line", { x1: L, y1: T, x2: L, y2: H - B, class: "axis" }));
  history.forEach((_, i) => {
    const label = svg("text", { x: x(i), y: H - B + 15, class: "tick", "text-anchor": "middle" });
    label.textContent = String(i);
    node.append(label);
  });
  for (const v of ticks) {
    const label = svg("text", { x: L - 5, y: y(v) + 4, class: "tick", "text-anchor": "end" });
    label.textContent = String(v);
    node.append(label);
  }
  const xName = svg("text", { x: (L + W - R) / 2, y: H - 3, class: "axis-name", "text-anchor": "middle" });
  xName.textContent = t("axis_hand");
  const yName = svg("text", { x: 10, y: (T + H - B) / 2, class: "axis-name", "text-anchor": "middle", transform: `rotate(-90 10 ${(T + H - B) / 2})` });
  yName.textContent = t("axis_points");
  node.append(xName, yName);
  if (s.target) {  // a match of a fixed number of hands has no target line
    node.append(svg("line", { x1: L, x2: W - R, y1: y(s.target), y2: y(s.target), class: "target-line" }));
    const targetText = svg("text", { x: W - R, y: y(s.target) - 4, class: "tick", "text-anchor": "end" });
    targetText.textContent = t("target_line", s.target);
    node.append(targetText);
  }
  const lines = series(s);
  lines.forEach(({ seat }) => {
    const points = history.map((scores, i) => `${x(i)},${y(scores[seat] ?? 0)}`);
    node.append(svg("polyline", { points: points.join(" "), fill: "none", stroke: COLOURS[seat % 4], "stroke-width": 2.5, "stroke-dasharray": DASHES[seat % 4] }));
    history.forEach((scores, i) => node.append(marker(seat, x(i), y(scores[seat] ?? 0))));
  });
  legend.replaceChildren(...lines.map(({ name, seat }) => {
    const key = svg("svg", { width: 34, height: 14, viewBox: "0 0 34 14", "aria-hidden": "true" });
    key.append(svg("line", { x1: 2, y1: 7, x2: 32, y2: 7, stroke: COLOURS[seat % 4], "stroke-width": 2.5, "stroke-dasharray": DASHES[seat % 4] }), marker(seat, 17, 7));
    return el("li", {}, key, el("span", { translate: "no", textContent: name }), ` ${s.scores[seat] ?? 0}`);
  }));
}

// One line a seat, or with partners (Kozel) one a pair: seats 1+3 and 2+4 share a total, named
// as the sheet names them (its pairs are ours first, then theirs).
function series(s) {
  if (s.pairs && s.names.length === 4) {
    const us = (s.seat ?? 0) % 2;
    const named = (pair) => s.sheet?.pairs?.[pair === us ? 0 : 1] ?? s.names[pair];
    return [0, 1].map((seat) => ({ name: named(seat), seat }));
  }
  return s.names.map((name, seat) => ({ name, seat }));
}

// A marker per seat: circle, square, triangle, diamond.
function marker(seat, cx, cy) {
  const colour = COLOURS[seat % 4];
  const r = 4;
  switch (seat % 4) {
    case 0: return svg("circle", { cx, cy, r, fill: colour });
    case 1: return svg("rect", { x: cx - r, y: cy - r, width: 2 * r, height: 2 * r, fill: colour });
    case 2: return svg("polygon", { points: `${cx},${cy - r - 1} ${cx + r + 1},${cy + r} ${cx - r - 1},${cy + r}`, fill: colour });
    default: return svg("polygon", { points: `${cx},${cy - r - 1} ${cx + r + 1},${cy} ${cx},${cy + r + 1} ${cx - r - 1},${cy}`, fill: colour });
  }
}
