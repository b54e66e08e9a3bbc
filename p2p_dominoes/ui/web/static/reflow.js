// The board re-flows smoothly (issue 28): when a tile is laid and the board is laid out again
// (the line turns at the board's edge, a ray of the cross or telephone turns, a train's full row
// moves along as its older tiles give way to "+N", the whole board scales down to fit), every
// tile that was already there and is still shown glides from where it was to its new place
// (FLIP) instead of jumping. It is only a look: the new drawing, its places and their buttons
// are final at once, so input never waits; with prefers-reduced-motion nothing moves.

import { reducedMotion } from "./reveal.js";

const REFLOW_MS = 380;
const TILES = ".board-svg [data-tile]";

// Where each tile of the board is now (on the page), by its key: taken before a redraw.
export function tilePlaces(surface) {
  const places = new Map();
  for (const tile of surface.querySelectorAll(TILES)) places.set(tile.dataset.tile, tile.getBoundingClientRect());
  return places;
}

const laidOn = new WeakMap();  // surface → the keys of every tile on its board when last drawn

// Every tile on the board of `view`, shown or not (a long train shows only its newest tiles).
export function laidTiles(view) {
  if (view.shape && view.shape !== "line" && view.board?.root) {
    return new Set([view.board.root.tile, ...(view.board.rays || []).flatMap((ray) => ray.tiles.map((tile) => tile.tile))]);
  }
  return new Set((view.line || []).map((tile) => tile.tile));
}

// After a redraw: the tiles that were there before a tile was laid glide from their old places
// (turning a quarter when they now lie the other way); `laid` is every tile on the board now
// (laidTiles). Returns how many move.
export function reflow(surface, before, laid) {
  const was = laidOn.get(surface);
  laidOn.set(surface, laid);
  if (!before.size || !was || reducedMotion()) return 0;
  // Only when tiles were laid on this board: not for a resize, a choice, or a new hand.
  if (laid.size <= was.size || [...was].some((key) => !laid.has(key))) return 0;
  const tiles = [...surface.querySelectorAll(TILES)];
  let moving = 0;
  for (const tile of tiles) {
    const was = before.get(tile.dataset.tile);
    if (!was || !was.width) continue;  // (a board that was out of sight: nothing to glide from)
    const now = tile.getBoundingClientRect();
    const dx = was.left + was.width / 2 - (now.left + now.width / 2);
    const dy = was.top + was.height / 2 - (now.top + now.height / 2);
    const turned = (was.width > was.height) !== (now.width > now.height);
    const scale = Math.max(was.width, was.height) / Math.max(1, now.width, now.height);
    if (Math.hypot(dx, dy) < 1 && !turned && Math.abs(scale - 1) < .02) continue;
    tile.animate(
      [{ transform: `translate(${dx}px, ${dy}px) rotate(${turned ? 90 : 0}deg) scale(${scale})` }, { transform: "none" }],
      { duration: REFLOW_MS, easing: "cubic-bezier(.2, .7, .3, 1)" });
    moving += 1;
  }
  return moving;
}
