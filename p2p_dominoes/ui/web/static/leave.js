// Issue 29 (v4): leaving the table and being left. *Leave the table* under the table, with a
// confirm step before the signed goodbye; the question to the others when a seat is gone ("go
// on with a bot in their seat?", a modal with two buttons, no answer in time counts as no); and
// the badge of a seat that changed hands.

import { $, el } from "./dom.js";
import { t } from "./strings.js";

let askedFor = null;  // the question on screen (its seat's name), so focus moves to it once

// The Leave button and its confirm step (wired once).
export function setupLeave(send) {
  const confirm = $("leave-confirm");
  $("leave").addEventListener("click", () => {
    confirm.hidden = false;
    $("leave").setAttribute("aria-expanded", "true");
    $("leave-no").focus();  // the safe answer first
  });
  const close = () => {
    confirm.hidden = true;
    $("leave").setAttribute("aria-expanded", "false");
  };
  $("leave-no").addEventListener("click", () => { close(); $("leave").focus(); });
  $("leave-yes").addEventListener("click", () => { close(); send({ type: "leave" }); });
  confirm.addEventListener("keydown", (event) => {
    if (event.key === "Escape") { event.stopPropagation(); close(); $("leave").focus(); }
  });
  $("go-on-yes").addEventListener("click", () => send({ type: "go_on", answer: true }));
  $("go-on-no").addEventListener("click", () => send({ type: "go_on", answer: false }));
}

// The Leave button is there while this player holds a seat in a match that goes on.
export function renderLeave(s) {
  const box = $("leave-box");
  const seated = s.seat !== null && s.seat !== undefined && !s.stopped && !s.match?.over;
  box.hidden = !seated;
  if (!seated) $("leave-confirm").hidden = true;
}

// The question to the others: a modal over the table while the peer asks it.
export function renderGoOn(s) {
  const overlay = $("go-on");
  const asked = s.go_on;
  overlay.hidden = !asked;
  if (!asked) { askedFor = null; return; }
  document.querySelector("main").inert = true;  // a modal: Tab stays in it (drawn after the summary)
  $("go-on-title").textContent = t("go_on_title", asked.name);
  $("go-on-text").textContent = t("go_on_text", asked.name, asked.bot, asked.seconds);
  if (askedFor !== asked.name) { askedFor = asked.name; $("go-on-yes").focus({ preventScroll: true }); }
}

// Whose a seat was before it changed hands (v4), or null.
export function before(s, seat) {
  const found = (s.replaced || []).find((r) => r.seat === seat);
  return found ? found.before : null;
}

// The "bot" badge of a seat that changed hands, with words for a screen reader.
export function replacedBadge(s, seat) {
  const was = before(s, seat);
  if (was === null) return null;
  return el("span", { className: "bot-badge", translate: "yes" },
    el("span", { "aria-hidden": "true", textContent: t("bot_badge") }),
    el("span", { className: "visually-hidden", textContent: t("took_seat", was) }));
}
