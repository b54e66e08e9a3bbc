// Motion that tells the story (issue 28): a played tile travels from its player's seat (or the
// player's own hand) to its place on the board; a drawn tile from the boneyard to the seat or
// the hand. A copy flies over the page while the real tile waits unseen at its place; nothing
// waits for it (the copy takes no clicks), and with prefers-reduced-motion nothing moves.

import { $ } from "./dom.js";
import { reducedMotion } from "./reveal.js";

const FLIGHT_MS = 420;
let fromHand = null;  // where the player's own chosen tile was (its button), for its flight

// The player's tile is on its way: remember where it leaves from.
export function leaving(key) {
  const button = $("hand").querySelector(`[data-tile="${CSS.escape(key)}"]`);
  fromHand = button ? { key, rect: button.getBoundingClientRect() } : null;
}

function centre(rect) {
  return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
}

function seatRect(s, seat) {
  if (seat === s.seat) return $("me-bar").getBoundingClientRect();
  return document.querySelector(`.seat[data-seat="${seat}"]`)?.getBoundingClientRect() ?? null;
}

function launch(ghost, from, to, done) {
  document.body.append(ghost);
  const dx = from.x - to.x;
  const dy = from.y - to.y;
  const flight = ghost.animate(
    [{ transform: `translate(${dx}px, ${dy}px) scale(.8)`, opacity: .9 }, { transform: "none", opacity: 1 }],
    { duration: FLIGHT_MS, easing: "cubic-bezier(.2, .7, .3, 1)" });
  const end = () => { ghost.remove(); done?.(); };
  flight.addEventListener("finish", end);
  flight.addEventListener("cancel", end);
}

function flyPlay(s, event) {
  const tile = document.querySelector(`#board .board-svg [data-tile="${CSS.escape(event.key)}"]`);
  if (!tile) return;
  const to = tile.getBoundingClientRect();
  let from = null;
  if (event.seat === s.seat && fromHand?.key === event.key) from = fromHand.rect;
  else from = seatRect(s, event.seat);
  if (!from || !to.width) return;
  const box = tile.getBBox();
  const ghost = document.createElement("div");
  ghost.className = "flying-tile";
  ghost.dataset.kind = "play";
  ghost.dataset.seat = String(event.seat);
  Object.assign(ghost.style, { left: `${to.left}px`, top: `${to.top}px`, width: `${to.width}px`, height: `${to.height}px` });
  const copy = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  copy.setAttribute("viewBox", `${box.x} ${box.y} ${box.width} ${box.height}`);
  copy.setAttribute("width", String(to.width));
  copy.setAttribute("height", String(to.height));
  copy.setAttribute("aria-hidden", "true");
  const face = tile.cloneNode(true);
  face.classList.remove("arrive");
  copy.append(face);
  ghost.append(copy);
  tile.classList.remove("arrive");
  tile.style.opacity = "0";
  launch(ghost, centre(from), centre(to), () => { tile.style.opacity = ""; });
  ghost.dataset.fromX = String(Math.round(centre(from).x));
  ghost.dataset.fromY = String(Math.round(centre(from).y));
}

function flyDraw(s, event) {
  const yard = $("boneyard").getBoundingClientRect();
  if (!yard.width) return;
  let to = seatRect(s, event.seat);
  if (event.seat === s.seat && event.key) {
    to = $("hand").querySelector(`[data-tile="${CSS.escape(event.key)}"]`)?.getBoundingClientRect() ?? to;
  }
  if (!to) return;
  const ghost = document.createElement("div");
  ghost.className = "flying-tile flying-back";
  ghost.dataset.kind = "draw";
  ghost.dataset.seat = String(event.seat);
  const end = centre(to);
  Object.assign(ghost.style, { left: `${end.x - 12}px`, top: `${end.y - 24}px`, width: "24px", height: "48px" });
  launch(ghost, { x: yard.left + 40, y: yard.top + yard.height / 2 }, end);
}

// Fly what the latest snapshot brought (at most the last few moves), once the page is drawn.
export function fly(s, events) {
  if (reducedMotion() || document.hidden || s.screen !== "table") return;
  for (const event of events.slice(-3)) {
    if (event.kind === "play" && event.key) flyPlay(s, event);
    else if (event.kind === "draw") flyDraw(s, event);
  }
}
