// The player's own tiles, large and upright at the bottom. Every tile is focusable and says its
// state ("[2|5], does not fit"); a playable one is chosen by click, tap or Enter.

import { el } from "./dom.js";
import { uprightTile } from "./tiles.js";
import { t } from "./strings.js";

const GAP = 6;

function fitsText(fits) {
  if (!fits.length) return t("no_fit");
  if (fits.includes("lead")) return t("fits_lead");
  if (fits.some((end) => end !== "left" && end !== "right")) return t("fits_places", fits.length);  // a shape's rays
  if (fits.includes("left") && fits.includes("right")) return t("fits_both");
  return fits.includes("left") ? t("fits_left") : t("fits_right");
}

// The unit (px) of a hand tile: as big as fits one row (two rows when many), never under 30
// (so a tile button stays at least 44 px wide), in as few rows as that allows.
const CHROME = 12;  // a tile button's padding and border, both sides, in px

function handUnit(width, count, maxUnit) {
  for (let rows = 1; rows < 4; rows += 1) {
    const perRow = Math.ceil(count / rows) || 1;
    const u = Math.min(maxUnit, Math.floor(width / perRow) - GAP - CHROME);
    if (u >= 30) return u;
  }
  return 30;
}

// view: { hand, selected, fresh: Set of keys, myTurn, onChoose(tile) }
export function renderHand(container, view) {
  const focused = document.activeElement?.dataset?.tile;
  const maxUnit = Math.max(30, Math.min(72, Math.round(window.innerHeight * .075), Math.round(window.innerWidth / 9)));
  const u = handUnit(container.clientWidth || window.innerWidth, view.hand.length, maxUnit);
  container.style.setProperty("--hand-unit", `${u}px`);
  container.replaceChildren(...view.hand.map((tile) => {
    const classes = ["tile-button"];
    const playable = tile.fits.length > 0;
    if (playable) classes.push("playable");
    if (view.selected === tile.tile) classes.push("selected");
    if (view.fresh.has(tile.tile)) classes.push("fresh");
    const parts = [fitsText(tile.fits)];
    if (view.fresh.has(tile.tile)) parts.push(t("new_tile"));
    if (view.selected === tile.tile) parts.push(t("selected_tile"));
    const button = el("button", {
      type: "button", className: classes.join(" "), dataset: { tile: tile.tile },
      "aria-label": t("tile_label", t("tile_text", tile.low, tile.high), parts.join(", ")),
      "aria-pressed": view.selected === tile.tile ? "true" : "false",
      "aria-disabled": playable ? "false" : "true",
    }, uprightTile(tile.low, tile.high, u));
    if (view.fresh.has(tile.tile)) button.append(el("span", { className: "fresh-mark", "aria-hidden": "true", textContent: t("new_badge") }));
    button.addEventListener("click", () => view.onChoose(tile));
    return button;
  }));
  if (focused) container.querySelector(`[data-tile="${CSS.escape(focused)}"]`)?.focus({ preventScroll: true });
}
