// The board of a line game: the first tile in the centre, one arm to each side, each arm a
// serpentine that turns at the board's edge with an L-shaped corner tile, doubles crosswise.
// Geometry is computed in units (a tile is 1 by 2), then scaled to the largest unit that fits.

import { svg } from "./dom.js";
import { tileFace } from "./tiles.js";

// One arm from the lead outwards. `tiles` are { near, far, double, key } (near faces the lead).
// `h` is the horizontal direction (+1 right), `v` the way rows advance (+1 down). A turn takes
// two tiles: one upright beside the row's end, then one lying under (or over) it that starts the
// next row, which runs back the other way two units further on.
function layArm(tiles, start, h, v, half) {
  const placed = [];
  const state = { x: start, cy: 0, h, v, corner: null };  // corner: x of the upright corner tile
  for (const tile of tiles) placed.push(place(state, tile, half));
  return { placed, end: state };
}

function place(s, tile, half) {
  const { near, far } = tile;
  if (s.corner !== null) {
    // The tile under the upright corner: it starts the next row, running the other way.
    const x0 = s.corner;
    const y = s.v > 0 ? s.cy + 1.5 : s.cy - 2.5;
    let placed;
    if (tile.double) {
      placed = { ...tile, x: x0 - .5, y, vertical: false, first: near, second: near };
      s.x = s.h > 0 ? x0 - .5 : x0 + 1.5;
    } else if (s.h > 0) {
      placed = { ...tile, x: x0 - 1, y, vertical: false, first: far, second: near };
      s.x = x0 - 1;
    } else {
      placed = { ...tile, x: x0, y, vertical: false, first: near, second: far };
      s.x = x0 + 2;
    }
    s.cy = y + .5;
    s.h = -s.h;
    s.corner = null;
    return placed;
  }
  const length = tile.double ? 1 : 2;
  if (Math.abs(s.x + s.h * length) <= half - 1) {
    const x0 = s.h > 0 ? s.x : s.x - length;
    s.x += s.h * length;
    if (tile.double) return { ...tile, x: x0, y: s.cy - 1, vertical: true, first: near, second: near };
    return { ...tile, x: x0, y: s.cy - .5, vertical: false,
      first: s.h > 0 ? near : far, second: s.h > 0 ? far : near };
  }
  // The upright corner beside the row's end, its near half level with the row.
  const x0 = s.h > 0 ? s.x : s.x - 1;
  s.corner = x0;
  return { ...tile, x: x0, y: s.v > 0 ? s.cy - .5 : s.cy - 1.5, vertical: true,
    first: s.v > 0 ? near : far, second: s.v > 0 ? far : near };
}

// Where the next tile of an arm would go: the open end's target box, in units.
function nextSlot(s, half) {
  if (s.corner !== null) return { x: s.corner - .5, y: s.v > 0 ? s.cy + 1.5 : s.cy - 2.5, w: 2, h: 1 };
  if (Math.abs(s.x + s.h * 2) <= half - 1) return { x: s.h > 0 ? s.x : s.x - 2, y: s.cy - .5, w: 2, h: 1 };
  return { x: s.h > 0 ? s.x : s.x - 1, y: s.v > 0 ? s.cy - .5 : s.cy - 1.5, w: 1, h: 2 };
}

// The whole line laid out for a board `half` units wide each side of the centre.
export function layout(laid, leadIndex, half) {
  if (!laid.length) return { tiles: [], slots: { lead: { x: -1, y: -.5, w: 2, h: 1 } } };
  const line = laid.map((tile) => (tile.along ? { ...tile, double: false } : tile));  // a double laid along lies lengthwise
  const lead = line[leadIndex];
  const tiles = [];
  const leadLen = lead.double ? 1 : 2;
  if (lead.double) tiles.push({ ...lead, key: lead.tile, x: -.5, y: -1, vertical: true, first: lead.left, second: lead.right });
  else tiles.push({ ...lead, key: lead.tile, x: -1, y: -.5, vertical: false, first: lead.left, second: lead.right });
  const right = line.slice(leadIndex + 1).map((tile) => ({ ...tile, key: tile.tile, near: tile.left, far: tile.right }));
  const left = line.slice(0, leadIndex).reverse().map((tile) => ({ ...tile, key: tile.tile, near: tile.right, far: tile.left }));
  const rightArm = layArm(right, leadLen / 2, +1, +1, half);
  const leftArm = layArm(left, -leadLen / 2, -1, -1, half);
  tiles.push(...rightArm.placed, ...leftArm.placed);
  return { tiles, slots: { right: nextSlot(rightArm.end, half), left: nextSlot(leftArm.end, half) } };
}

function bounds(boxes) {
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const b of boxes) {
    x0 = Math.min(x0, b.x); y0 = Math.min(y0, b.y);
    x1 = Math.max(x1, b.x + b.w); y1 = Math.max(y1, b.y + b.h);
  }
  return { x0, y0, x1, y1 };
}

const box = (tile) => ({ x: tile.x, y: tile.y, w: tile.vertical ? 1 : 2, h: tile.vertical ? 2 : 1 });

// The largest unit (px) at which the line fits `width` × `height`, trying every board width
// from the widest (so that, of equally big layouts, the one with the fewest turns wins).
export function fit(line, leadIndex, width, height, maxUnit) {
  let best = null;
  for (let half = 30; half >= 4; half -= 1) {
    const laid = layout(line, leadIndex, half);
    const b = bounds([...laid.tiles.map(box), ...Object.values(laid.slots)]);
    const u = Math.min(maxUnit, width / (b.x1 - b.x0 + .4), height / (b.y1 - b.y0 + .4));
    if (!best || u > best.u + .01) best = { u, laid, b };
  }
  return best;
}

export const lineRenderer = {
  shape: "line",

  // Draws the board into `container`; returns the open places as boxes in px.
  render(container, view) {
    const width = Math.max(120, container.clientWidth);
    const height = Math.max(90, container.clientHeight);
    const maxUnit = Math.max(28, Math.min(96, Math.min(width, height) / 5));
    const { u, laid, b } = fit(view.line, view.lead, width, height, maxUnit);
    const ox = (width - (b.x1 - b.x0) * u) / 2 - b.x0 * u;
    const oy = (height - (b.y1 - b.y0) * u) / 2 - b.y0 * u;
    const canvas = svg("svg", { width, height, viewBox: `0 0 ${width} ${height}`, "aria-hidden": "true", focusable: "false", class: "board-svg" });
    for (const tile of laid.tiles) {
      const classes = ["tile"];
      if (tile.key === view.last) classes.push("last");
      if (tile.key === view.last && view.arrive) classes.push("arrive");
      const face = tileFace(tile.first, tile.second, ox + tile.x * u, oy + tile.y * u, u, tile.vertical, classes.join(" "));
      face.dataset.tile = tile.key;  // (the motion finds a tile's place by its key)
      canvas.append(face);
    }
    container.replaceChildren(canvas);
    const places = {};
    for (const [end, slot] of Object.entries(laid.slots)) {
      places[end] = { x: ox + slot.x * u, y: oy + slot.y * u, w: slot.w * u, h: slot.h * u };
    }
    return { unit: u, places };
  },
};
