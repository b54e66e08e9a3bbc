// The players around the board: the others at the left, top and right (in turn order, as they
// sit), each with their name, face-down tiles, score, presence and what they just did; the
// player's own bar above the hand; and the boneyard as face-down tiles with the reserve apart.

import { el } from "./dom.js";
import { tileBacks } from "./tiles.js";
import { t } from "./strings.js";
import { isPartner } from "./kozel_live.js";
import { revealed } from "./reveal.js";
import { replacedBadge } from "./leave.js";

// Where the others sit, by how many players there are (turn order goes round clockwise).
const POSITIONS = { 2: ["top"], 3: ["left", "right"], 4: ["left", "top", "right"] };

// Its peer is connected but says its person closed the page (advisory, PROTOCOL.md §14).
function pageClosed(entry) {
  return entry.state === "connected" && entry.page === "closed";
}

function presenceText(entry) {
  if (!entry) return "";
  if (entry.state === "away") return t("state_away", entry.away_seconds ?? 0);
  if (pageClosed(entry)) return t("state_page_closed", entry.page_seconds ?? 0);
  if (entry.turn_seconds !== null && entry.turn_seconds !== undefined) {
    // One of our own bots (the host's page knows how each plays); others' seats are unknown.
    if (entry.bot) return t("state_bot_thinking", t(`bot_${entry.bot}`), entry.turn_seconds);
    return t("state_thinking", entry.turn_seconds);
  }
  if (entry.state === "connecting") return t("state_connecting");
  if (entry.state === "connected") return t("state_connected");
  return "";
}

function badgeText(badge) {
  if (!badge) return "";
  return badge.kind === "pass" ? t("badge_passed") : t("badge_drew", badge.count);
}

// What a seat has scored during this hand, under rules that score as tiles are laid (Fives,
// Threes), or its wins and penalties under Threes for luck; empty otherwise.
function handTally(s, seat) {
  if (s.luck) { const [won, lost] = s.luck[seat] ?? [0, 0]; return t("luck_tally", won, lost); }
  if (s.hand_points) return t("hand_points", s.hand_points[seat] ?? 0);
  return "";
}

function seatCard(s, seat, badges, position) {
  const count = s.counts.length ? s.counts[seat] : 0;
  const presence = (s.presence || []).find((p) => p.seat === seat);
  const classes = ["seat", `pos-${position}`];
  if (s.turn === seat) classes.push("turn");
  if (presence?.state === "away" || (presence && pageClosed(presence))) classes.push("away");
  const backUnit = window.innerWidth > 700 ? 12 : 8;
  const name = el("span", { className: "seat-name", translate: "no", textContent: s.names[seat] });
  if (isPartner(s, seat)) name.append(" ", el("span", { className: "partner-badge", translate: "yes", textContent: t("partner") }));
  const badge = replacedBadge(s, seat);  // v4: the seat changed hands
  if (badge) name.append(" ", badge);
  const card = el("li", { className: classes.join(" "), dataset: { seat } },
    el("div", { className: "seat-head" }, name,
      el("span", { className: "seat-score", textContent: String(s.scores[seat] ?? 0) })),
    el("div", { className: "seat-tally", textContent: handTally(s, seat) }),
    el("div", { className: "seat-tiles" }, tileBacks(Math.min(count, 14), backUnit),
      el("span", { className: "seat-count", textContent: s.counts.length ? t("tiles", count) : "" })),
    el("div", { className: "seat-status" },
      el("span", { className: "turn-badge", textContent: s.turn === seat ? t("badge_turn") : "" }),
      el("span", { className: "action-badge", textContent: badgeText(badges[seat]) }),
      el("span", { className: "presence", textContent: presenceText(presence) })));
  if (presence?.bot) card.append(el("div", { className: "seat-fair", textContent: t("bot_fair") }));
  const shown = revealed(s, seat, window.innerWidth > 700 ? 14 : 10);  // the hand's end: face up
  if (shown) { card.classList.add("showing"); card.querySelector(".seat-tiles").replaceWith(shown); }
  return card;
}

export function renderSeats(list, s, badges) {
  const n = s.names.length;
  const positions = POSITIONS[n] || POSITIONS[4];
  const me = s.seat ?? 0;
  const cards = [];
  for (let k = 1; k < n; k += 1) {
    const seat = (me + k) % n;
    cards.push(seatCard(s, seat, badges, positions[k - 1] || "top"));
  }
  list.replaceChildren(...cards);
}

// The player's own bar: name, score, whose turn it is, what they did last.
export function renderMe(bar, s, badges) {
  const me = s.seat ?? 0;
  bar.classList.toggle("turn", s.turn === me);
  bar.replaceChildren(
    el("span", { className: "seat-name", translate: "no", textContent: `${s.names[me]} (${t("you")})` }),
    el("span", { className: "seat-score", textContent: s.target ? `${s.scores[me] ?? 0} / ${s.target}` : String(s.scores[me] ?? 0) }),
    el("span", { className: "seat-tally", textContent: handTally(s, me) }),
    el("span", { className: "end-total",
      textContent: s.end_total === null || s.end_total === undefined ? "" : t("end_total", s.end_total) }),
    el("span", { className: "turn-badge", textContent: s.turn === me ? t("your_turn") : "" }),
    el("span", { className: "action-badge", textContent: badgeText(badges[me]) }));
  const shown = revealed(s, me, window.innerWidth > 700 ? 16 : 12);
  if (shown) bar.append(shown);
}

export function renderBoneyard(node, s) {
  if (!s.counts.length) { node.replaceChildren(); node.removeAttribute("aria-label"); node.removeAttribute("role"); return; }
  node.setAttribute("role", "img");  // (an image only while it has words: the table is not inert now at a hand's end)
  if (s.boneyard_in_play === false) {  // rules without drawing: the undealt tiles are out of play
    const text = s.boneyard ? `${t("no_boneyard")} (${t("out_of_play", s.boneyard)})` : t("no_boneyard");
    node.setAttribute("aria-label", text);
    node.replaceChildren(el("span", { className: "boneyard-title", textContent: text }));
    return;
  }
  const drawable = typeof s.drawable === "number" ? s.drawable : Math.max(0, s.boneyard - (s.reserve || 0));
  const reserve = Math.max(0, s.boneyard - drawable);
  const label = reserve ? t("boneyard", s.boneyard, reserve) : t("boneyard_open", s.boneyard);
  node.setAttribute("aria-label", label);
  const parts = [el("span", { className: "boneyard-title", textContent: `${t("boneyard_title")}: ${s.boneyard}` })];
  if (drawable) parts.push(tileBacks(Math.min(drawable, 21), 9, "backs drawable"));
  if (reserve) {
    parts.push(el("span", { className: "reserve" }, tileBacks(reserve, 9, "backs kept"),
      el("span", { className: "reserve-text", textContent: t("reserve", reserve) })));
  }
  node.replaceChildren(...parts);
}
