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

// view: { hand, selected, fresh: Set of keys, locked, onChoose(tile) }
// Each tile's button is kept from one snapshot to the next and only changed where its state
// changed: a tap is never lost to a button replaced under the finger (issue 28 L1).
export function renderHand(container, view) {
  const focused = document.activeElement?.dataset?.tile;
  const maxUnit = Math.max(30, Math.min(72, Math.round(window.innerHeight * .075), Math.round(window.innerWidth / 9)));
  const u = handUnit(container.clientWidth || window.innerWidth, view.hand.length, maxUnit);
  container.style.setProperty("--hand-unit", `${u}px`);
  const kept = new Map([...container.children].map((b) => [b.dataset.tile, b]));
  const buttons = view.hand.map((tile) => {
    const classes = ["tile-button"];
    const playable = tile.fits.length > 0 && !view.locked;
    if (playable) classes.push("playable");
    if (view.selected === tile.tile) classes.push("selected");
    if (view.fresh.has(tile.tile)) classes.push("fresh");
    const parts = [fitsText(tile.fits)];
    if (view.fresh.has(tile.tile)) parts.push(t("new_tile"));
    if (view.selected === tile.tile) parts.push(t("selected_tile"));
    let button = kept.get(tile.tile);
    if (!button) {
      button = el("button", { type: "button", dataset: { tile: tile.tile } });
      button.addEventListener("click", () => button.choose?.(button.tile));
    }
    button.tile = tile;
    button.choose = view.onChoose;
    const wanted = {
      class: classes.join(" "),
      "aria-label": t("tile_label", t("tile_text", tile.low, tile.high), parts.join(", ")),
      "aria-pressed": view.selected === tile.tile ? "true" : "false",
      "aria-disabled": playable ? "false" : "true",
    };
    for (const [name, value] of Object.entries(wanted)) {
      if (button.getAttribute(name) !== value) button.setAttribute(name, value);
    }
    if (button.dataset.unit !== String(u)) {
      button.dataset.unit = String(u);
      button.replaceChildren(uprightTile(tile.low, tile.high, u));
    }
    const mark = button.querySelector(".fresh-mark");
    if (view.fresh.has(tile.tile) && !mark) button.append(el("span", { className: "fresh-mark", "aria-hidden": "true", textContent: t("new_badge") }));
    else if (mark && !view.fresh.has(tile.tile)) mark.remove();
    else if (mark) mark.textContent = t("new_badge");
    return button;
  });
  const same = buttons.length === container.children.length && buttons.every((b, i) => container.children[i] === b);
  if (!same) container.replaceChildren(...buttons);
  if (focused && document.activeElement?.dataset?.tile !== focused) {
    container.querySelector(`[data-tile="${CSS.escape(focused)}"]`)?.focus({ preventScroll: true });
  }
}
