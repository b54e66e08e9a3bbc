// A hand's review on its summary (issue 27): the player asks for it ("Review this hand"), the
// peer works it out off its event loop and the snapshot's "review" brings a "working" state,
// then a row for each of the player's own decisions: what was played, what expert would play
// from that seat's view, and what the choice cost; the costliest three are marked in words too.

import { $, el } from "./dom.js";
import { t } from "./strings.js";

// The review section for snapshot `s` on the summary of hand `hand` (0: no hand's summary).
export function renderReview(s, hand, send) {
  const button = $("review-hand");
  const review = s.review && s.review.hand === hand ? s.review : null;
  button.hidden = !hand || s.seat === null || s.seat === undefined;
  button.disabled = Boolean(review);
  button.onclick = () => send({ type: "review", hand });
  const box = $("review");
  box.hidden = !review;
  if (!review) return;
  $("review-title").textContent = review.title;
  $("review-status").textContent = review.working ? t("review_working") : "";
  box.setAttribute("aria-busy", review.working ? "true" : "false");
  $("review-table").hidden = !review.rows.length;
  $("review-rows").replaceChildren(...review.rows.map((row) => el("tr", { className: row.costly ? "costly" : "" },
    el("th", { scope: "row" }, String(row.index),
      ...(row.costly ? [el("span", { className: "costly-mark" }, el("span", { "aria-hidden": "true", textContent: " ★" }),
        el("span", { className: "visually-hidden", textContent: ` (${t("review_costly")})` }))] : [])),
    el("td", { textContent: row.played }),
    el("td", { textContent: row.best ?? t("review_agrees") }),
    el("td", { textContent: row.points }),
    el("td", { textContent: row.chance }))));
  $("review-legend").hidden = !review.rows.some((row) => row.costly);
  $("review-total").textContent = review.total;
}
