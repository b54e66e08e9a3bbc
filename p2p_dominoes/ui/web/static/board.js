// The board area: a renderer per board shape draws the tiles, and this module puts a button on
// each open place (a target when the selected tile fits there). A new shape (cross, telephone,
// trains) is a new renderer registered here; it returns its open places as boxes in px.

import { el } from "./dom.js";
import { lineRenderer } from "./board-line.js";
import { crossRenderer, rayWord, trainsRenderer } from "./board-shapes.js";
import { t } from "./strings.js";
import { laidTiles, reflow, tilePlaces } from "./reflow.js";

const RENDERERS = { line: lineRenderer, cross: crossRenderer, telephone: crossRenderer, trains: trainsRenderer };
const MIN_TARGET = 44;  // px: the smallest box a finger can hit

export function rendererFor(shape) {
  return RENDERERS[shape] || lineRenderer;
}

// view: { shape, line, lead, last, arrive, ends: [{end, tile, value}], closed: [{tile}], leadOpen,
//   fits: [end…], orient: {end: {across, along}} of the selected double, onPlay(end, along) }
// A place where the selected double may lie across or along becomes two targets, each with the
// ends' total that way and its points (view.orient: {end: {across: {total, points}, along: …}}).
function withWays(markers, view) {
  const out = [];
  for (const marker of markers) {
    const ways = view.orient?.[marker.end];
    if (!ways || marker.closed || !view.fits.includes(marker.end)) { out.push(marker); continue; }
    for (const way of ["across", "along"]) {
      const { total, points } = ways[way];
      const word = t(`way_${way}`);
      out.push({ ...marker, way, text: t("way_text", word, total, points), label: t("way_label", marker.label, word, total, points) });
    }
  }
  return out;
}

export function renderBoard(container, view) {
  const surface = container.querySelector(".board-surface") || container;
  const had = document.activeElement?.closest?.(".marker-button");  // kept across a redraw
  const focused = had && surface.contains(had) ? { ...had.dataset } : null;
  const before = tilePlaces(surface);  // (the tiles already laid glide to their new places)
  const { places, unit } = rendererFor(view.shape).render(surface, view);
  reflow(surface, before, laidTiles(view));
  const markers = [];
  if (view.leadOpen) markers.push({ end: "lead", label: t("lead_here"), text: t("lead_here") });
  const closed = new Set((view.closed || []).map((c) => String(c.tile).replace("-", "|")));
  for (const place of view.ends) {
    const end = place.end === "left" ? t("end_left") : place.end === "right" ? t("end_right") : rayWord(place.end, view);
    const shut = closed.has(String(place.tile).replace("-", "|"));
    const label = shut ? t("place_closed", end) : t("place_label", end, place.value);
    markers.push({ end: place.end, label, text: String(place.value), closed: shut });
  }
  const buttons = withWays(markers, view).filter((m) => places[m.end]).map((marker) => {
    const p = places[marker.end];
    const target = view.fits.includes(marker.end) && !marker.closed;
    const w = Math.max(MIN_TARGET, p.w, marker.end === "lead" || marker.way ? 110 : 0);
    const h = Math.max(MIN_TARGET, marker.way ? 0 : p.h);
    // Across above the place's centre, along below it (a double that may go either way).
    const shift = marker.way === "across" ? -h / 2 - 2 : marker.way === "along" ? h / 2 + 2 : 0;
    const button = el("button", {
      type: "button", className: "marker-button" + (target ? " target" : "") + (marker.closed ? " closed" : "")
        + (marker.way ? ` way way-${marker.way}` : ""),
      textContent: marker.text,
      title: marker.label, "aria-label": marker.label, disabled: !target,
      dataset: { end: marker.end, ...(marker.way ? { along: marker.way === "along" ? "1" : "0" } : {}) },
    });
    const left = Math.min(Math.max(0, p.x + p.w / 2 - w / 2), surface.clientWidth - w);
    const top = Math.min(Math.max(0, p.y + p.h / 2 - h / 2 + shift), surface.clientHeight - h);
    Object.assign(button.style, { left: `${left}px`, top: `${top}px`, width: `${w}px`, height: `${h}px`,
      fontSize: marker.way ? "16px" : `${Math.max(16, Math.min(28, unit * .6))}px` });
    button.addEventListener("click", () => view.onPlay(marker.end, marker.way === "along"));
    return button;
  });
  surface.append(...buttons);
  if (focused) {
    const same = buttons.find((b) => b.dataset.end === focused.end && b.dataset.along === focused.along);
    if (same && !same.disabled) same.focus({ preventScroll: true });
  }
  return buttons;
}
