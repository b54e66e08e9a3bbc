// Dragging a tile from the hand onto its place on the board (mouse, pen or finger). A drag that
// ends on a target plays there; anywhere else it only leaves the tile chosen. Clicks and the
// keyboard work as before: this is another way, not the only one.

const THRESHOLD = 8;  // px the pointer moves before a press becomes a drag

// hand: the container of the tile buttons (it stays; the buttons are redrawn).
// choose(key) selects a tile (and shows its targets); drop(end, along) plays it there.
export function enableDrag(hand, { choose, drop }) {
  let press = null;   // { key, x, y, id }
  let ghost = null;
  let swallowClick = false;

  const targetAt = (x, y) => document.elementFromPoint(x, y)?.closest(".marker-button.target");

  hand.addEventListener("pointerdown", (event) => {
    const button = event.target.closest(".tile-button.playable");
    if (!button || event.button !== 0) return;
    press = { key: button.dataset.tile, x: event.clientX, y: event.clientY, id: event.pointerId, button };
  });

  window.addEventListener("pointermove", (event) => {
    if (!press || event.pointerId !== press.id) return;
    if (!ghost) {
      if (Math.hypot(event.clientX - press.x, event.clientY - press.y) < THRESHOLD) return;
      choose(press.key);
      ghost = press.button.cloneNode(true);
      ghost.classList.add("drag-ghost");
      ghost.removeAttribute("id");
      ghost.setAttribute("aria-hidden", "true");
      document.body.append(ghost);
    }
    event.preventDefault();
    ghost.style.left = `${event.clientX}px`;
    ghost.style.top = `${event.clientY}px`;
    for (const node of document.querySelectorAll(".marker-button.drop-over")) node.classList.remove("drop-over");
    targetAt(event.clientX, event.clientY)?.classList.add("drop-over");
  }, { passive: false });

  const finish = (event) => {
    if (!press || event.pointerId !== press.id) return;
    if (ghost) {
      ghost.remove();
      ghost = null;
      swallowClick = true;  // until the click this release may cause (none when off the hand)
      setTimeout(() => { swallowClick = false; }, 0);
      const target = event.type === "pointerup" ? targetAt(event.clientX, event.clientY) : null;
      if (target) drop(target.dataset.end, target.dataset.along === "1");
    }
    press = null;
  };
  window.addEventListener("pointerup", finish);
  window.addEventListener("pointercancel", finish);
  // The click that follows a drag is not a second click on the tile.
  hand.addEventListener("click", (event) => {
    if (swallowClick) { swallowClick = false; event.stopPropagation(); event.preventDefault(); }
  }, true);
}
