// Games that score during play (Fives, Threes, Threes for luck): the flash of the last scoring
// move over the board ("Ann +2: 10 at the ends"), kept in sight until the next one, and under
// Threes for luck the draws of this turn ("3 of 5 drawn") with the draw button as "Try my luck".
// The peer says what scored and how many were drawn; nothing is counted here.

import { $, el } from "./dom.js";
import { t } from "./strings.js";

let flashedSerial = null;  // the move whose flash was last started (it animates once)

function flashNode() {
  let node = $("score-flash");
  if (!node) {
    // aria-hidden: the live region already reads the rule's note ("Ann: +2 (10 at the ends).")
    node = el("p", { id: "score-flash", className: "score-flash", "aria-hidden": "true" });
    $("board").append(node);
  }
  return node;
}

// The last move that scored, over the board, with the scorer's name; "" when none this hand.
export function renderScoreFlash(s) {
  const node = flashNode();
  const flash = s.score_flash;
  if (!flash || !flash.items?.length) {
    node.hidden = true;
    node.replaceChildren();
    flashedSerial = null;
    return;
  }
  node.hidden = false;
  node.replaceChildren(...flash.items.map((item) => el("span", {
    className: `flash-item ${item.kind}`,
    textContent: `${s.names[item.seat] ?? t("seat_n", item.seat + 1)} ${item.text}`,
  })));
  if (flash.serial !== flashedSerial) {
    flashedSerial = flash.serial;
    node.classList.remove("fresh");
    void node.offsetWidth;  // restart the animation
    node.classList.add("fresh");
  }
}

// Threes for luck: the draw button reads "Try my luck", and the turn's draws are counted.
export function renderLuck(s) {
  const luck = s.luck_draws;
  const label = $("draw").querySelector("[data-i18n]");
  const key = luck || s.luck ? "try_luck" : "draw";  // also once the hand is over
  if (label && label.dataset.i18n !== key) { label.dataset.i18n = key; label.textContent = t(key); }
  let count = $("luck-draws");
  if (!count) {
    count = el("p", { id: "luck-draws", className: "luck-draws" });
    $("reason").before(count);
  }
  if (!luck || luck.seat === null || luck.seat === undefined) { count.hidden = true; count.textContent = ""; return; }
  count.hidden = false;
  const drawn = t("luck_drawn", luck.drawn, luck.limit);
  count.textContent = luck.seat === s.seat ? drawn : `${s.names[luck.seat]}: ${drawn}`;
}
