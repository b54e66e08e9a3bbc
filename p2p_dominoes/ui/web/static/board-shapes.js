// The boards of the other table shapes, drawn from the snapshot's `board` (the peer's rays):
// the cross and the telephone as a centre double with up to four rays that turn at the board's
// edge (each clockwise, so they never meet), trains as one row per train from the engine, each
// labelled with its owner, a flag when it is open to all, and the common train apart.
// Geometry is in units (a tile is 1 by 2), scaled to the largest unit that fits, as for the line.

import { svg } from "./dom.js";
import { tileFace } from "./tiles.js";
import { t } from "./strings.js";

const DIRS = { A: [1, 0], B: [-1, 0], C: [0, -1], D: [0, 1], L0: [1, 0], L1: [-1, 0] };

// The words for a ray or train on its place's button: "end C", "Ann's train", "common train".
export function rayWord(ray, view) {
  if (ray === "TC") return t("train_common");
  if (ray.startsWith("T")) {
    const seat = Number(ray.slice(1));
    return seat === view.seat ? t("train_mine") : t("train_of", view.names?.[seat] ?? t("seat_n", seat + 1));
  }
  if (ray === "L0") return t("end_right");
  if (ray === "L1") return t("end_left");
  return t("ray_end", ray);
}

// A tile `near`–`far` laid with its length along direction d (the near half first).
function along(x, y, d, near, far, key) {
  const [dx, dy] = d;
  const vertical = dx === 0;
  const forward = dx > 0 || dy > 0;
  const bx = vertical ? x - .5 : (forward ? x : x - 2);
  const by = vertical ? (forward ? y : y - 2) : y - .5;
  return { key, x: bx, y: by, w: vertical ? 1 : 2, h: vertical ? 2 : 1, vertical,
    first: forward ? near : far, second: forward ? far : near };
}

// One ray from point (x, y) going d: returns its tiles' boxes and its next slot (the target).
function layRay(ray, start, d, frame) {
  let [x, y] = start;
  let dir = d;
  const placed = [];
  // Only the way the ray runs is bounded (after a turn it runs along the frame's edge).
  const inside = (px, py) => (dir[0] !== 0 ? Math.abs(px) <= frame.w : Math.abs(py) <= frame.h);
  const slot = () => {
    const [dx, dy] = dir;
    if (inside(x + 2 * dx, y + 2 * dy)) return along(x, y, dir, 0, 0, null);
    const n = [-dy, dx];
    return corner(x, y, dir, n, 0, 0, null);
  };
  for (const tile of ray.tiles) {
    const [dx, dy] = dir;
    const length = tile.double ? 1 : 2;
    if (inside(x + length * dx, y + length * dy)) {
      if (tile.double) {  // crosswise: 2 across, 1 along
        const vertical = dx !== 0;
        const cx = x + dx * .5, cy = y + dy * .5;
        placed.push({ key: tile.tile, x: cx - (vertical ? .5 : 1), y: cy - (vertical ? 1 : .5),
          w: vertical ? 1 : 2, h: vertical ? 2 : 1, vertical, first: tile.near, second: tile.near });
      } else placed.push(along(x, y, dir, tile.near, tile.far, tile.tile));
      x += length * dx; y += length * dy;
    } else {
      // The turn: the tile upright beside the row's end, its near half level with the row.
      const n = [-dy, dx];
      placed.push(corner(x, y, dir, n, tile.near, tile.far, tile.tile));
      x += .5 * dx + 1.5 * n[0]; y += .5 * dy + 1.5 * n[1];
      dir = n;
    }
  }
  return { placed, slot: slot(), end: [x, y], dir };
}

function corner(x, y, d, n, near, far, key) {
  const cx = x + .5 * d[0] - .5 * n[0], cy = y + .5 * d[1] - .5 * n[1];  // where its near half starts
  return along(cx, cy, n, near, far, key);
}

const overlaps = (a, b) => a.x < b.x + b.w - .01 && b.x < a.x + a.w - .01 && a.y < b.y + b.h - .01 && b.y < a.y + a.h - .01;

function bounds(boxes) {
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const b of boxes) {
    x0 = Math.min(x0, b.x); y0 = Math.min(y0, b.y);
    x1 = Math.max(x1, b.x + b.w); y1 = Math.max(y1, b.y + b.h);
  }
  return { x0, y0, x1, y1 };
}

// The centre and its rays laid out in a frame of half-width `fw` and half-height `fh`.
function layCross(board, fw, fh) {
  const root = board.root;
  const centred = board.rays.some((r) => "ABCD".includes(r.ray));
  const tiles = [];
  if (centred) tiles.push({ key: root.tile, x: -.5, y: -1, w: 1, h: 2, vertical: true, first: root.low, second: root.high, root: true });
  else tiles.push({ key: root.tile, x: -1, y: -.5, w: 2, h: 1, vertical: false, first: root.low, second: root.high, root: true });
  const starts = centred ? { A: [.5, 0], B: [-.5, 0], C: [0, -1], D: [0, 1] } : { L0: [1, 0], L1: [-1, 0] };
  const slots = {};
  const shut = {};
  for (const ray of board.rays) {
    if (!starts[ray.ray]) continue;
    const laid = layRay(ray, starts[ray.ray], DIRS[ray.ray], { w: fw, h: fh });
    tiles.push(...laid.placed);
    if (ray.open) slots[ray.ray] = laid.slot;
    else if (ray.closed) shut[ray.ray] = { at: laid.end, dir: laid.dir };
  }
  return { tiles, slots, shut };
}

export function fitCross(board, width, height, maxUnit) {
  let best = null;
  for (let fw = 30; fw >= 3; fw -= 1) {
    const fh = Math.max(2.5, fw * height / width);
    const laid = layCross(board, fw, fh);
    const boxes = laid.tiles;
    if (boxes.some((a, i) => boxes.some((b, j) => j > i && overlaps(a, b)))) continue;
    const slots = Object.values(laid.slots);
    if (slots.some((s, i) => boxes.some((b) => overlaps(s, b)) || slots.some((o, j) => j > i && overlaps(s, o)))) continue;
    const b = bounds([...boxes, ...Object.values(laid.slots)]);
    const u = Math.min(maxUnit, width / (b.x1 - b.x0 + .4), height / (b.y1 - b.y0 + .4));
    if (!best || u > best.u + .01) best = { u, laid, b };
  }
  return best || (() => { const laid = layCross(board, 99, 99); return { u: 12, laid, b: bounds(laid.tiles) }; })();
}

function classesOf(tile, view) {
  const classes = ["tile"];
  if (tile.key === view.last) classes.push("last");
  if (tile.key === view.last && view.arrive) classes.push("arrive");
  return classes.join(" ");
}

// A shape's canvas at the container's size; before the first tile, the one place to lead on.
function startBoard(container, cls, view) {
  const width = Math.max(120, container.clientWidth);
  const height = Math.max(90, container.clientHeight);
  const canvas = svg("svg", { width, height, viewBox: `0 0 ${width} ${height}`, "aria-hidden": "true", focusable: "false", class: `board-svg ${cls}` });
  if (view.board?.root) return { width, height, canvas, empty: null };
  container.replaceChildren(canvas);
  const u = Math.min(60, width / 5);
  const lead = { x: width / 2 - u, y: height / 2 - u / 2, w: 2 * u, h: u };
  return { width, height, canvas, empty: { unit: u, places: { lead } } };
}

export const crossRenderer = {
  shape: "cross",

  render(container, view) {
    const { width, height, canvas, empty } = startBoard(container, "shape-board", view);
    if (empty) return empty;
    const board = view.board;
    const places = {};
    const maxUnit = Math.max(28, Math.min(96, Math.min(width, height) / 5));
    const { u, laid, b } = fitCross(board, width, height, maxUnit);
    const ox = (width - (b.x1 - b.x0) * u) / 2 - b.x0 * u;
    const oy = (height - (b.y1 - b.y0) * u) / 2 - b.y0 * u;
    for (const tile of laid.tiles) {
      const cls = classesOf(tile, view) + (tile.root ? " centre" : "");
      const face = tileFace(tile.first, tile.second, ox + tile.x * u, oy + tile.y * u, u, tile.vertical, cls);
      face.dataset.tile = tile.key;
      canvas.append(face);
    }
    for (const [ray, end] of Object.entries(laid.shut)) {  // a closed ray: a bar across its end
      const [x, y] = end.at;  // (once spread into the object: "not iterable", no board drawn)
      const [dx, dy] = end.dir;
      const n = [-dy, dx];
      canvas.append(svg("line", { class: "ray-closed", "data-ray": ray,
        x1: ox + (x + .15 * dx - .7 * n[0]) * u, y1: oy + (y + .15 * dy - .7 * n[1]) * u,
        x2: ox + (x + .15 * dx + .7 * n[0]) * u, y2: oy + (y + .15 * dy + .7 * n[1]) * u }));
    }
    container.replaceChildren(canvas);
    for (const [ray, slot] of Object.entries(laid.slots)) {
      places[ray] = { x: ox + slot.x * u, y: oy + slot.y * u, w: slot.w * u, h: slot.h * u };
    }
    return { unit: u, places };
  },
};

// Trains: the engine at the left, one row per train to its right, each with its owner's label
// (above the row, or in a column at its left when the board is short: a phone with a full hand);
// the common train last, apart. A train longer than its row shows its newest tiles (the end
// that is played on) after "+N" for the older ones: one train is never two rows, and the tiles
// stay big enough to read on a phone (issue 28 M5).
const LABEL = 14;  // px of a label line above a row
const SIDE = 78;   // px of the label column in the short board's layout
const MIN_ROW = 44;  // px: a row is as tall as a place's button, which so never covers a label
const READABLE = 28;  // px: the unit tried for before a smaller one

// How the board is laid out: the unit, the row's height, and where the labels go.
function trainsLayout(rays, width, height) {
  const common = rays.some((ray) => ray.ray === "TC") ? 4 : 0;
  const longest = Math.max(...rays.map((ray) => ray.tiles.length + (ray.open ? 1 : 0)));
  const modes = [{ side: 0, label: LABEL }, { side: SIDE, label: 0 }];
  const perOf = (unit, side) => Math.max(1, Math.floor((width - 1.4 * unit - 12 - side) / (2 * unit)));
  for (const floor of [READABLE, 16]) {
    for (const { side, label } of modes) {
      const wanted = Math.max(3, Math.min(longest, perOf(READABLE, side)));
      for (let unit = Math.floor(Math.min(56, height / 3)); unit >= floor; unit -= 1) {
        const row = Math.max(unit, MIN_ROW) + 2;
        const need = rays.length * (label + row + 2) + 6 + common;
        if (need <= height && perOf(unit, side) >= wanted) return { u: unit, row, side, label, common, per: perOf(unit, side) };
      }
    }
  }
  const row = Math.max(16, Math.floor((height - 6 - common) / rays.length) - 2);  // no room: squeezed
  const wanted = Math.max(3, Math.min(longest, perOf(READABLE, SIDE)));
  let u = Math.min(row - 2, 40);
  while (u > 12 && perOf(u, SIDE) < wanted) u -= 1;
  return { u, row, side: SIDE, label: 0, common, per: perOf(u, SIDE) };
}

export const trainsRenderer = {
  shape: "trains",

  render(container, view) {
    const { width, height, canvas, empty } = startBoard(container, "trains-board", view);
    if (empty) return empty;
    const board = view.board;
    const places = {};
    const rays = board.rays;
    const { u, row, side, label: labelLine, common, per: perLine } = trainsLayout(rays, width, height);
    const engineW = 1.4 * u + 4;
    const left = engineW + side;
    let y = 2;
    const engineTop = y;
    for (const ray of rays) {
      if (ray.ray === "TC") y += common;  // the common train apart
      const owner = ray.ray === "TC" ? t("train_common") : rayWord(ray.ray, view);
      const open = ray.state === "open";
      const label = svg("text", { class: "train-label" + (open ? " open" : ""), "data-ray": ray.ray });
      if (side) {  // in the column at the row's left: the owner, and the flag under it
        label.setAttribute("x", engineW);
        label.setAttribute("y", y + row / 2 - (open ? 3 : -4));
        label.textContent = owner;
        if (owner.length * 6.2 > side - 4) {
          label.setAttribute("textLength", side - 4);
          label.setAttribute("lengthAdjust", "spacingAndGlyphs");
        }
        canvas.append(label);
        if (open) {
          const flag = svg("text", { x: engineW, y: y + row / 2 + 12, class: "train-label open", "data-ray": ray.ray });
          flag.textContent = `⚑ ${t("train_open")}`;
          canvas.append(flag);
        }
      } else {
        label.setAttribute("x", left);
        label.setAttribute("y", y + LABEL - 3);
        label.textContent = owner + (open ? ` · ⚑ ${t("train_open")}` : "");
        canvas.append(label);
      }
      y += labelLine;
      const top = y;
      const tileTop = top + (row - 2 - u) / 2;
      const room = perLine - (ray.open ? 1 : 0);  // tiles the row can show
      const n = ray.tiles.length;
      const hidden = n > room ? n - (room - 1) : 0;  // the older ones, counted in a "+N" slot
      let slot = 0;
      if (hidden) {
        const more = svg("text", { x: left + u, y: tileTop + u * .68, class: "train-more", "text-anchor": "middle", "data-ray": ray.ray });
        more.textContent = `+${hidden}`;
        canvas.append(more);
        slot = 1;
      }
      for (const tile of ray.tiles.slice(hidden)) {
        const face = tileFace(tile.near, tile.far, left + slot * 2 * u, tileTop, u, false, classesOf({ key: tile.tile }, view));
        face.dataset.ray = ray.ray;
        face.dataset.tile = tile.tile;
        canvas.append(face);
        slot += 1;
      }
      if (ray.open) places[ray.ray] = { x: left + slot * 2 * u, y: top, w: 2 * u, h: row - 2 };
      y = top + row + 2;
    }
    // The engine: the double every train starts from, upright at the left.
    const root = board.root;
    const ey = Math.max(engineTop, Math.min(height - 2 * u, (engineTop + y) / 2 - u));
    const engine = tileFace(root.low, root.high, 2, ey, u, true, classesOf({ key: root.tile }, view) + " engine");
    engine.dataset.tile = root.tile;
    canvas.prepend(engine);
    container.replaceChildren(canvas);
    return { unit: u, places };
  },
};
