// The overlays over the table: the summary at the end of a hand (the final board stays behind
// it), the match's end with the winner and the chart, and the table's stop with the next steps.

import { $, el } from "./dom.js";
import { renderChart } from "./chart.js";
import { t } from "./strings.js";
import { faceRow, revealDone } from "./reveal.js";
import { renderReview } from "./review.js";
import { play } from "./sound.js";
import { before } from "./leave.js";

let dismissed = 0;  // hand number whose summary the player closed (for a peer with no pause)
let shownFor = null;
let latest = null;  // the snapshot last drawn (the reveal's timer draws the summary from it)

function tileText(key) {
  const [a, b] = String(key).split("|");
  return t("tile_text", a, b);
}

// The tiles a player was left with: small faces, and their words for a screen reader.
function leftTiles(keys) {
  const words = keys.map(tileText).join(" ") || t("no_tiles");
  if (!keys.length) return el("td", { className: "left-tiles", textContent: words });
  return el("td", { className: "left-tiles" }, faceRow(keys, 12), el("span", { className: "visually-hidden", textContent: words }));
}

// "Ann went out: Bob's 8 + bot's 20 = 28 to Ann", checked against the peer's own arithmetic.
export function pointsInWords(names, end) {
  if (end.during_play) return end.words;  // Fives, Threes, Threes for luck: not a pip sum
  if (end.pairs) return end.words;  // Kozel: the peer names the pairs and the ceremonies
  const w = end.winner;
  if (w === null || w === undefined) return end.end === "block" ? t("blocked_tie") : "";
  const others = names.map((_, i) => i).filter((i) => i !== w);
  const parts = others.map((i) => t("pips_of", names[i], end.pips[i])).join(" + ");
  const sum = others.reduce((total, i) => total + end.pips[i], 0);
  if (end.end === "domino" && sum === end.points[w]) return t("went_out", names[w], parts, end.points[w]);
  if (end.end === "block" && sum - end.pips[w] === end.points[w]) {
    return t("blocked_low", names[w], parts, t("pips_of", names[w], end.pips[w]), end.points[w]);
  }
  return end.words || t("scored_plain", names[w], end.arithmetic);  // other scoring: the peer's words
}

function codeLine(s, codeText) {
  return s.code ? `${t("code_label")}: ${codeText(s.code)} (${s.code.digits})` : "";
}

// Whether the summary is up: during the peer's pause between hands, at the match end and after
// a stop; with a peer that does not pause, until the player closes it.
function wanted(s) {
  if (s.stopped) return "stopped";
  if (s.match?.over) return "match";
  if (!s.end) return null;
  if ("next_hand" in s) return s.next_hand ? "hand" : null;
  return s.end.hand_number > dismissed ? "hand" : null;
}

// The end of a hand is told on the table (issue 28 M7): the tiles left turn face up at the
// seats, then the summary takes the hand's row under the board (never over it, on any screen).
// The match's end is a winner's screen over the table; a stop, a modal with the next steps.
export function renderOverlay(s, options) {
  const { send, codeText, onClose } = options;
  const overlay = $("summary");
  let kind = wanted(s);
  if ((kind === "hand" || kind === "match") && !revealDone(s, () => renderOverlay(latest, options))) kind = null;
  latest = s;
  const wasOpen = !overlay.hidden;
  const docked = kind === "hand";
  overlay.hidden = !kind;
  overlay.classList.toggle("docked", docked);
  overlay.classList.toggle("winner-screen", kind === "match");
  const home = docked ? document.querySelector(".table-screen") : document.body;
  if (kind && overlay.parentElement !== home) home.append(overlay);
  overlay.querySelector(".dialog").setAttribute("aria-modal", docked ? "false" : "true");
  document.body.classList.toggle("overlay-open", Boolean(kind) && !docked);
  document.body.classList.toggle("hand-over", docked);
  document.querySelector("main").inert = Boolean(kind) && !docked;  // a modal: Tab stays in it
  if (!kind) { shownFor = null; $("summary-goat").hidden = true; if (wasOpen) onClose(); return; }  // (a next goat bleats anew)
  const names = s.names;
  // A table stopped in a later hand has no result of its own: the last one is an earlier hand's.
  const end = kind === "stopped" && s.end && s.hand_number && s.end.hand_number !== s.hand_number ? null : s.end;
  const key = `${kind}:${end?.hand_number ?? 0}`;
  overlay.dataset.hand = String(end?.hand_number ?? 0);
  const stopTitles = { left: "left_title", asking_back: "asking_back_title" };  // else it stopped
  $("summary-title").textContent = kind === "stopped" ? t(stopTitles[s.stopped.reason] || "stopped_title")
    : kind === "match" ? t("match_over") : t("hand_over", end.hand_number);
  const winner = $("summary-winner");
  winner.hidden = kind !== "match";
  if (kind === "match") {
    const w = s.match.winner;
    winner.textContent = s.match.pairs ? s.match.text  // Kozel: the goat pair and its title
      : w !== null && w !== undefined ? (w === s.seat ? t("you_won") : t("match_won", names[w]))
      : (s.match.draw ? t("match_drawn") : t("match_stopped"));
  }
  renderGoat(s, kind);
  $("summary-stopped").hidden = kind !== "stopped";
  $("summary-stopped").textContent = s.stopped?.text || "";
  $("summary-points").textContent = end ? (pointsInWords(names, end) || end.words || "") : "";
  // Kozel's ceremony (a General, an Admiral, the snotty goat…) gets its own line, large.
  $("summary-ceremony").hidden = !end?.ceremony_text;
  $("summary-ceremony").textContent = end?.ceremony_text ? t("ceremony", end.ceremony_text) : "";
  $("summary-result").hidden = !end;
  if (end) {
    const goats = kind === "match" && s.match.pairs ? (s.match.losers || []) : [];
    $("summary-rows").replaceChildren(...names.map((name, seat) => el("tr", { className: goats.includes(seat % 2) ? "goat"
      : (end.pairs ? seat % 2 : seat) === end.winner ? "winner" : "" },
      el("th", { scope: "row", translate: "no", textContent: name },
        ...(before(s, seat) !== null ? [el("span", { className: "carried-mark", translate: "yes", textContent: ` (${t("carried", before(s, seat))})` })] : []),
        ...(goats.includes(seat % 2) ? [el("span", { className: "goat-mark", textContent: ` (${t("goat_row")})` })] : [])),
      leftTiles(end.hands[seat] || []),
      el("td", { textContent: String(end.pips[seat]) }),
      el("td", { textContent: end.points[seat] > 0 ? `+${end.points[seat]}` : String(end.points[seat]).replace("-", "−") }),
      el("td", { textContent: s.target ? t("scores_vs", s.scores[seat], s.target) : String(s.scores[seat]) }))));  // no target: a fixed number of hands
  }
  $("summary-audit").textContent = end && end.audit === "clean" ? t("audit") : "";
  renderReview(s, end && kind !== "stopped" ? end.hand_number : 0, send);
  $("summary-code").textContent = codeLine(s, codeText);
  renderChart($("chart"), $("chart-legend"), s);
  const pause = s.next_hand;
  const next = $("next-hand");
  next.hidden = kind !== "hand";
  next.disabled = Boolean(pause?.ready);
  $("summary-goal").textContent = s.goal || "";
  const steps = kind === "stopped" ? (s.stopped.next || ["lobby", "record"]) : (kind === "match" ? ["lobby", "record"] : ["record"]);
  // The peer says when a rematch is on offer (to the host and the joiners); an older peer: the host.
  $("rematch").hidden = "rematch" in s ? !s.rematch : !(kind === "match" && s.seat === 0);
  $("to-lobby").hidden = !steps.includes("lobby");
  $("download").hidden = !steps.includes("record");
  $("resume-table").hidden = !steps.includes("resume");
  if (shownFor !== key) {
    shownFor = key;
    const first = kind === "hand" ? next : (kind === "match" && s.seat === 0 ? $("rematch") : $("to-lobby"));
    first.focus({ preventScroll: true });
  }
  $("next-hand").onclick = () => {
    if ("next_hand" in s) send({ type: "next_hand" });
    else { dismissed = end.hand_number; renderOverlay(s, { send, codeText, onClose }); }
  };
}

// Kozel's match end gives the goat its moment: the pair that reached the line, by name and
// title («Козёл: Борис & bot-2!»), with a goat that runs in and hops (still with reduced
// motion; it takes no clicks, so it never delays the buttons under it) and bleats as it comes
// (when the player has sound on: sound.js decides, at the player's volume).
function renderGoat(s, kind) {
  const box = $("summary-goat");
  const losers = kind === "match" && s.match?.pairs ? (s.match.losers || []) : [];
  const arrives = box.hidden && losers.length > 0;
  box.hidden = !losers.length;
  if (!losers.length) return;
  if (arrives) play("goat");
  const names = s.names;
  const pair = (p) => (names.length === 4 ? `${names[p]} & ${names[p + 2]}` : t("pair_n", p + 1));
  const title = t(`title_${s.match.title || "goat"}`);
  $("summary-goat-words").textContent = t("goat_moment", title.startsWith("title_") ? t("title_goat") : title, losers.map(pair).join(", "));
}

// The pause before the next hand, counting down (the page's clock redraws it every second).
export function renderPause(s) {
  const pause = s.next_hand;
  $("summary-next").textContent = pause ? (pause.ready ? t("next_waiting") : t("next_in", pause.seconds_left)) : "";
}
