// The page of one player's own peer. It draws what the peer sends over the WebSocket and sends
// back the player's commands; every rule is decided by the peer, never here. This module holds
// the state and wires the parts: strings, socket, lobby, seats, board, hand, moves, overlays.

import { $, el } from "./dom.js";
import { LANGUAGES, browserLang, lang, setLang, t, translateStatic } from "./strings.js";
import { connect, disconnect, send } from "./socket.js";
import { renderLobby, setupLobby } from "./lobby.js";
import { renderBoneyard, renderMe, renderSeats } from "./seats.js";
import { renderBoard } from "./board.js";
import { renderHand } from "./hand.js";
import { moves, observe } from "./moves.js";
import { renderOverlay, renderPause } from "./overlays.js";
import { renderSheet } from "./sheet.js";
import { kozelEndWords } from "./kozel_live.js";
import { enableDrag } from "./drag.js";
import { renderLuck, renderScoreFlash } from "./score.js";
import { play, setSound, setVolume, soundOn, volume } from "./sound.js";
import { fly, leaving } from "./motion.js";
import { whenAsked } from "./lobby.js";
import { before, renderGoOn, renderLeave, setupLeave } from "./leave.js";

const LANG_KEY = "p2p-dominoes-lang";
const ACTION_HOLD_MS = 2000;  // after a draw, pass or play: ignore more until the peer answers

let state = null;
let selected = null;      // key of the selected tile in hand
let description = "";     // the peer's full board description (read on "describe the board")
let elsewhereShown = false;
let peerLost = false;
let pending = null;       // { until, sign }: an action sent and not answered yet
let focusHand = false;    // after our own play: put the focus back into the hand
let retry = null;
let receivedAt = 0;       // when the current snapshot came (its counters are as of then)
let tickedAt = 0;         // the whole seconds since the snapshot that the clock last drew
let warnedAbout = "";     // the stall warning last announced (seat and kind), once each
const CLOCK_MS = 200;     // the page's own clock: counters tick every second between snapshots

// -- language ------------------------------------------------------------------------------------

// The peer's --lang when it was given; else the page's own choice; else the browser's language.
function chooseLang(s) {
  if (s && s.lang_explicit) return s.lang;
  const mine = localStorage.getItem(LANG_KEY);
  if (mine && LANGUAGES.includes(mine)) return mine;
  if (s && !("lang_explicit" in s) && s.lang && s.lang !== "en") return s.lang;  // an older peer: only a non-default is a choice
  if (!s && document.documentElement.lang !== "en") return document.documentElement.lang;
  return browserLang();
}

function applyLang(code) {
  if (code === lang() && document.documentElement.dataset.translated) return;
  setLang(code);
  document.documentElement.dataset.translated = "1";
  $("lang-select").value = lang();
  translateStatic();
}

function syncPeerLang() {
  if (state && "lang_explicit" in state && !state.lang_explicit && state.lang !== lang()) {
    send({ type: "lang", lang: lang() });
  }
}

// -- messages from the peer ----------------------------------------------------------------------

function receive(message) {
  if (message.type === "elsewhere") {
    showElsewhere(Boolean(message.takeover));
  } else if (elsewhereShown || message.type === "heartbeat") {
    return;
  } else if (message.type === "state") {
    const prev = state;
    state = message;
    receivedAt = Date.now();
    tickedAt = 0;
    setPeerLost(false);
    applyLang(chooseLang(state));
    syncPeerLang();
    let caption = observe(prev, state);
    const notes = (state.rule_notes || []).join(" ");
    if (notes && notes !== (prev?.rule_notes || []).join(" ")) {  // what a house rule made happen
      moves.recent = [notes, ...moves.recent].slice(0, 3);
      caption = caption ? `${caption}. ${notes}` : notes;
    }
    const kozel = kozelEndWords(prev, state);  // Kozel: which pair scored and why, a ceremony
    if (kozel.ceremony) moves.recent = [kozel.ceremony, ...moves.recent].slice(0, 3);
    if (kozel.words) caption = caption ? `${caption}. ${kozel.words}` : kozel.words;
    if (pending && signature(state) !== pending.sign) pending = null;
    const happened = moves.events.splice(0);
    render();
    announceChanges(prev, caption);
    hear(prev, happened);
    fly(state, happened);
  } else if (message.type === "announce") {
    description = message.text;
    $("board-text").textContent = message.text;
  } else if (message.type === "refused") {
    pending = null;
    addLog(`${t("refused")} ${message.text}`);
    if (state && state.screen === "lobby" && !("error" in state)) {  // an older peer: say it here
      $("lobby-error").hidden = false;
      $("lobby-error").textContent = message.text;
    }
    if (state) render();
  } else if (message.type === "record") {
    download(message.name, message.data);
  }
}

function signature(s) {
  return JSON.stringify([s.hand_number, s.turn, s.line?.length, s.counts, s.hand?.length]);
}

function announce(text) {
  const live = $("announce");
  live.textContent = "";
  if (text) requestAnimationFrame(() => { live.textContent = text; });
}

// Brief words for a screen reader: what was just played, and "Your turn" when it comes.
function announceChanges(prev, caption) {
  const s = state;
  if (s.screen !== "table") return;
  const mineNow = s.turn !== null && s.turn === s.seat;
  const mineBefore = prev && prev.screen === "table" && prev.turn === prev.seat && prev.hand_number === s.hand_number;
  const parts = [];
  if (caption) parts.push(caption);
  if (mineNow && !mineBefore) parts.push(t("your_turn"));
  if (parts.length) announce(parts.join(". "));
}

// The sounds of what just happened (sound.js plays nothing unless the player turned it on):
// one clack, draw or pass for the snapshot's moves, your turn, a hand or the match won.
function hear(prev, happened) {
  const s = state;
  if (s.screen !== "table") return;
  const last = happened.at(-1);
  if (last) play(last.kind === "play" ? "clack" : last.kind);
  const mineNow = s.turn !== null && s.turn === s.seat;
  const mineBefore = prev && prev.screen === "table" && prev.turn === prev.seat && prev.hand_number === s.hand_number;
  if (mineNow && !mineBefore) setTimeout(() => play("turn"), last ? 180 : 0);
  const mine = (winner, pairs) => winner !== null && winner !== undefined && (pairs ? winner === (s.seat ?? 0) % 2 : winner === s.seat);
  if (s.match?.over && !prev?.match?.over) {
    if (mine(s.match.winner, s.match.pairs)) play("match_won");
  } else if (s.end && s.end.hand_number !== prev?.end?.hand_number && mine(s.end.winner, s.end.pairs)) {
    play("hand_won");
  }
}

// The sound switch (a speaker that is on or off) and its volume, as this browser keeps them.
function renderSound() {
  const on = soundOn();
  $("sound").setAttribute("aria-pressed", on ? "true" : "false");
  $("sound").classList.toggle("on", on);
  $("volume").value = String(volume());
  $("volume").disabled = !on;
}

// Leaving the page mid-hand asks first (the table would wait for this player, then stop).
function midHand() {
  const s = state;
  return Boolean(s && s.screen === "table" && s.counts?.length && !s.stopped && !s.match?.over && !peerLost);
}

function showElsewhere(takeover) {
  elsewhereShown = true;
  $("lobby").hidden = true;
  $("table").hidden = true;
  $("summary").hidden = true;
  document.querySelector("main").inert = false;
  $("elsewhere").hidden = false;
  $("elsewhere-tab").hidden = !takeover;
  $("elsewhere-link").hidden = takeover;
  $("take-over").hidden = !takeover;
  $("connection").textContent = "";
}

function takeOver() {
  elsewhereShown = false;
  $("elsewhere").hidden = true;
  disconnect();
  start(true);
}

function setPeerLost(lost) {
  peerLost = lost;
  document.body.classList.toggle("peer-lost", lost);
  $("peer-lost").hidden = !lost;
  $("peer-lost").textContent = lost ? t("peer_lost") : "";
  $("connection").textContent = lost ? t("disconnected") : t("connected");
}

function start(takeover = false) {
  connect({
    open: () => { clearTimeout(retry); setPeerLost(false); },
    message: receive,
    lost: () => {
      if (elsewhereShown) return;
      setPeerLost(true);
      if (state) render();
      clearTimeout(retry);
      retry = setTimeout(() => { if (peerLost && !elsewhereShown) start(); }, 3000);
    },
  }, takeover);
}

// -- drawing -------------------------------------------------------------------------------------

let shownScreen = null;   // the screen last drawn: a new one starts at its top

function render() {
  const s = state;
  const onTable = s.screen === "table";
  renderMeLine(s.me, onTable);
  if (s.screen !== shownScreen) { shownScreen = s.screen; window.scrollTo(0, 0); }
  document.body.classList.toggle("on-table", onTable);
  document.documentElement.style.setProperty("--header-h", `${document.querySelector("header").offsetHeight}px`);
  $("lobby").hidden = onTable;
  $("table").hidden = !onTable;
  if (onTable) renderTable();
  else {
    $("summary").hidden = true;
    document.body.classList.remove("overlay-open");
    document.querySelector("main").inert = false;
    document.title = t("title");
    renderLobby(s, send);
  }
}

// Who this page is: the full fingerprint in the lobby (where it is compared), the short one at
// the table (the full ones are in the table code's details, and in this line's title).
function renderMeLine(me, onTable) {
  const short = me.short_fingerprint || me.fingerprint.split("-").slice(0, 2).join("-");
  $("me").textContent = `${me.name} · ${onTable ? short : me.fingerprint}`;
  $("me").title = onTable ? me.fingerprint : "";
}

function myTurn() {
  return state && state.turn !== null && state.turn === state.seat && !peerLost;
}

function renderTable() {
  const s = state;
  const names = s.names;
  $("alert").hidden = !s.alert;
  $("alert").textContent = s.alert || "";
  const turn = $("turn");
  if (s.turn === null || s.turn === undefined) turn.replaceChildren();
  else if (s.turn === s.seat) turn.replaceChildren(t("your_turn"), el("span", { className: "hint", textContent: ` ${t("turn_hint")}` }));
  else turn.replaceChildren(t("turn_of", names[s.turn]));
  $("turn").classList.toggle("mine", s.turn === s.seat);
  $("caption").replaceChildren(...moves.recent.map((text, i) => el("span", { className: i ? "before" : "now", textContent: text })));
  const progress = s.progress;
  $("progress").textContent = progress.total && progress.done < progress.total
    ? (progress.done ? t("shuffle", progress.last, progress.done, progress.total) : t("shuffling", progress.total))
    : "";
  renderCode();
  $("goal").hidden = !s.goal;
  $("goal").textContent = s.goal || "";
  $("rules-box").hidden = !s.rules_summary;
  $("rules-text").textContent = s.rules_summary || "";
  if (s.description) description = s.description;
  $("board-text").textContent = description;
  if (selected && !s.hand.some((h) => h.tile === selected && h.fits.length)) selected = null;
  renderOverlay(s, { send, codeText, onClose: () => focusHandNow() });
  renderGoOn(s);
  renderLeave(s);
  renderClock(s);
  drawHand();
  renderBoneyard($("boneyard"), s);
  renderScoreFlash(s);
  renderControls();
  const carried = (i) => (before(s, i) === null ? "" : ` (${t("carried", before(s, i))})`);  // v4
  $("scores-text").textContent = names.map((n, i) => `${n}${carried(i)}: ${s.scores[i]}`).join(" · ") + (s.target ? ` (${t("target_score", s.target)})` : "");
  renderSheet($("sheet"), s);
  const log = $("log");
  log.replaceChildren(...s.log.map((line) => el("p", { textContent: line })));
  log.scrollTop = log.scrollHeight;
  drawBoard();  // last: the parts above (the hand's tile size, the sheet) decide the board's size
  document.title = myTurn() ? t("title_your_turn") : t("title");
  if (focusHand) { focusHand = false; focusHandNow(); }
}

// Counters as of now: the snapshot's, aged by the whole seconds since it came (the peer sends
// them again only every few seconds, or when something changes).
function aged(s) {
  const gone = Math.floor((Date.now() - receivedAt) / 1000);
  if (gone <= 0) return s;
  const up = (v) => (v === null || v === undefined ? v : v + gone);
  const down = (v) => Math.max(0, v - gone);
  return {
    ...s,
    waiting: s.waiting && { ...s.waiting, seconds: up(s.waiting.seconds) },
    presence: s.presence && s.presence.map((p) => ({ ...p, away_seconds: up(p.away_seconds), turn_seconds: up(p.turn_seconds), page_seconds: up(p.page_seconds) })),
    stall_warning: s.stall_warning && { ...s.stall_warning, seconds_left: down(s.stall_warning.seconds_left) },
    next_hand: s.next_hand && (s.next_hand.ready ? s.next_hand : { ...s.next_hand, seconds_left: down(s.next_hand.seconds_left) }),
  };
}

function stallText(w) {
  if (!("me" in w)) return w.text || "";  // an older peer: its own words
  if (w.me) return t("stall_you_move", w.seconds_left);
  return t(w.away ? "stall_come_back" : "stall_to_move", w.name, w.seconds_left);
}

// What counts: the stall warning, whom we wait for, each seat's presence, the pause before the
// next hand. Drawn with each snapshot and again every second by the page's own clock.
function renderClock(s) {
  const stall = s.stall_warning;
  $("stall").hidden = !stall;
  $("stall").textContent = stall ? stallText(stall) : "";
  const about = stall ? `${stall.seat} ${stall.away} ${stall.me}` : "";
  if (about && about !== warnedAbout) announce(stallText(stall));  // said once, not every second
  warnedAbout = about;
  const waitingKey = s.waiting?.page_closed ? "waiting_page_closed" : "waiting";
  $("waiting").textContent = s.waiting ? t(waitingKey, s.waiting.name, s.waiting.seconds) : "";
  renderSeats($("players"), s, moves.badges);
  renderMe($("me-bar"), s, moves.badges);
  renderPause(s);
}

function tick() {
  if (!state || state.screen !== "table" || peerLost || elsewhereShown) return;
  const gone = Math.floor((Date.now() - receivedAt) / 1000);
  if (gone === tickedAt) return;
  tickedAt = gone;
  renderClock(aged(state));
}

let boardSign = "";  // what the board was last drawn from

function drawBoard() {
  const s = state;
  const chosen = selected ? s.hand.find((h) => h.tile === selected) : null;
  const fits = chosen?.fits || [];
  // The hand's last board: kept by the peer ("final_board"), or by the page for an older peer.
  const kept = !s.final_board && !s.line.length && moves.finalLine && !$("summary").hidden;
  const finalBoard = kept || Boolean(s.final_board);
  const view = {
    shape: s.shape || "line",
    board: s.board, names: s.names, seat: s.seat,
    line: kept ? moves.finalLine.line : s.line,
    lead: kept ? moves.finalLine.lead : Math.min(moves.lead, Math.max(0, s.line.length - 1)),
    last: kept ? moves.finalLine.last : moves.last,
    arrive: moves.arrive,
    ends: finalBoard ? [] : s.ends,
    closed: s.closed || [],
    leadOpen: !s.line.length && s.turn !== null && s.turn !== undefined && !finalBoard,
    fits: peerLost ? [] : fits,
    orient: chosen?.orient || {},
    lang: lang(),
  };
  // Drawn again only when something on it changed (its tiles, places, choice, size, language):
  // not for every snapshot, whose place buttons a tap would otherwise miss (issue 28 L1).
  const surface = $("board").querySelector(".board-surface");
  const sign = JSON.stringify([view, surface.clientWidth, surface.clientHeight]);
  if (sign !== boardSign || moves.arrive) {
    boardSign = sign;
    renderBoard($("board"), { ...view, onPlay: playAt });
  }
  moves.arrive = false;
}

let dealtHand = null;  // the hand whose tiles were last dealt into the player's hand

function drawHand() {
  renderHand($("hand"), {  // (locked while a move is on its way: no second move on an old view)
    hand: state.hand, selected, fresh: moves.fresh, onChoose: chooseTile, locked: Boolean(pending),
  });
  // The deal: a new hand's tiles come in one after another (CSS; none with reduced motion).
  if (state.hand.length && state.hand_number !== dealtHand && !state.final_board) {
    dealtHand = state.hand_number;
    const hand = $("hand");
    [...hand.children].forEach((button, i) => button.style.setProperty("--i", String(i)));
    hand.classList.add("dealing");
    setTimeout(() => hand.classList.remove("dealing"), 1500);
  }
}

function renderControls() {
  const controls = state.controls;
  const reasons = [];
  $("draw").hidden = state.boneyard_in_play === false;  // rules with no drawing (Kozel, block)
  for (const kind of ["draw", "pass"]) {
    const allowed = Boolean(controls && controls[`can_${kind}`]) && !peerLost && !pending;
    $(kind).disabled = !allowed;
    if ($(kind).hidden) continue;
    if (controls && !controls[`can_${kind}`] && controls[`${kind}_reason`] && state.turn === state.seat) {
      reasons.push(controls[`${kind}_reason`]);
    }
  }
  $("reason").textContent = [...new Set(reasons)].join(" ");
  $("skip").hidden = !state.can_skip;
  $("skip").disabled = !state.can_skip || peerLost || Boolean(pending);
  $("describe").disabled = !description;
  renderLuck(state);
}

// The table code every player reads aloud; the full fingerprints stay one click away.
function codeText(code) {
  if (!code) return "";
  const words = (code[lang()] || code.en).join(" ");
  return lang() === "en" ? words : `${words} / ${code.en.join(" ")}`;
}

function renderCode() {
  const code = state.code;
  $("code-words").textContent = code ? codeText(code) : t("code_waiting");
  $("code-digits").textContent = code ? `(${code.digits})` : "";
  $("fingerprint-list").replaceChildren(...state.names.map((name, seat) => el("li", { textContent: `${name}: ` },
    el("span", { className: "fp", textContent: state.fingerprints[seat] }))));
}

function addLog(line) {
  $("log").append(el("p", { textContent: line }));
  announce(line);
}

function download(name, data) {
  const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
  const link = el("a", { href: URL.createObjectURL(new Blob([bytes], { type: "application/octet-stream" })), download: name });
  document.body.append(link);
  link.click();
  link.remove();
}

// -- the player's input --------------------------------------------------------------------------

function act(message) {
  if (pending && Date.now() < pending.until) return false;
  if (peerLost || !state) return false;
  pending = { until: Date.now() + ACTION_HOLD_MS, sign: signature(state) };
  if (typeof state.move === "number") message = { ...message, move: state.move };  // the peer drops a stale ask's
  setTimeout(() => { if (pending && Date.now() >= pending.until) { pending = null; if (state) render(); } }, ACTION_HOLD_MS + 50);
  send(message);
  renderControls();
  drawHand();
  return true;
}

function chooseTile(tile) {
  if (!tile.fits.length || peerLost || pending) return;
  const twoWays = Boolean(tile.orient?.[tile.fits[0]]);  // across or along: the player says which
  if (tile.fits.length === 1 && selected === tile.tile && !twoWays) { playAt(tile.fits[0]); return; }
  selected = tile.tile;
  drawBoard();
  drawHand();
  document.querySelector(".marker-button.target")?.focus({ preventScroll: true });
}

function playAt(end, along = false) {
  if (!selected) return;
  leaving(selected);
  if (act({ type: "play", tile: selected, end, ...(along ? { along: true } : {}) })) {
    selected = null;
    focusHand = true;
  }
}

function focusHandNow() {
  const hand = $("hand");
  const target = hand.querySelector(".tile-button.playable") || hand.querySelector(".tile-button") || $("draw");
  target?.focus({ preventScroll: true });
}

function cancelChoice() {
  const was = selected;
  selected = null;
  drawBoard();
  drawHand();
  if (was) $("hand").querySelector(`[data-tile="${CSS.escape(was)}"]`)?.focus({ preventScroll: true });
}

function describeBoard() {
  if (description) announce(description);
}

// Shortcuts by physical key (KeyD is D on a QWERTY and В on a Russian layout alike).
function onKey(event) {
  if (!state || state.screen !== "table" || event.ctrlKey || event.metaKey || event.altKey) return;
  if (["INPUT", "SELECT", "TEXTAREA"].includes(event.target.tagName)) return;
  if (!$("go-on").hidden) return;  // the question whether to go on (v4) takes the keys
  if (event.code === "KeyD") { if (!$("draw").disabled && !$("draw").hidden) act({ type: "draw" }); }
  else if (event.code === "KeyP") { if (!$("pass").disabled) act({ type: "pass" }); }
  else if (event.code === "KeyS") { if (!$("skip").hidden && !$("skip").disabled) act({ type: "skip" }); }
  else if (event.code === "KeyB") describeBoard();
  else if (event.key === "Escape" && $("summary").hidden) cancelChoice();
  else return;
  event.preventDefault();
}

function setup() {
  applyLang(chooseLang(null));
  setupLobby(send);
  $("lang-select").addEventListener("change", () => {
    localStorage.setItem(LANG_KEY, $("lang-select").value);
    applyLang($("lang-select").value);
    syncPeerLang();
    if (state) render();
  });
  $("draw").addEventListener("click", () => act({ type: "draw" }));
  $("pass").addEventListener("click", () => act({ type: "pass" }));
  $("skip").addEventListener("click", () => act({ type: "skip" }));
  $("describe").addEventListener("click", describeBoard);
  $("download").addEventListener("click", () => send({ type: "record" }));
  $("rematch").addEventListener("click", () => send({ type: "rematch" }));
  $("to-lobby").addEventListener("click", () => send({ type: "lobby" }));
  // Resume this very table (its id from the peer); an older peer: the lobby, which offers it.
  $("resume-table").addEventListener("click", () => send(state?.resume_table ? { type: "resume", table: state.resume_table } : { type: "lobby" }));
  $("take-over").addEventListener("click", takeOver);
  setupLeave(send);
  enableDrag($("hand"), {
    choose: (key) => {
      const tile = state?.hand.find((h) => h.tile === key);
      if (tile && tile.fits.length && !peerLost) { selected = key; drawBoard(); drawHand(); }
    },
    drop: (end, along) => playAt(end, along),
  });
  document.addEventListener("keydown", onKey);
  renderSound();
  $("sound").addEventListener("click", () => {
    setSound(!soundOn());
    renderSound();
    play("turn");  // what it sounds like (nothing when just turned off)
  });
  $("volume").addEventListener("input", () => setVolume(Number($("volume").value)));
  $("volume").addEventListener("change", () => play("clack"));
  whenAsked(() => play("ask"));
  window.addEventListener("beforeunload", (event) => {
    if (!midHand()) return;
    event.preventDefault();
    event.returnValue = "";  // the browser shows its own "Leave site?" question
  });
  setInterval(tick, CLOCK_MS);
  let resizing = null;
  window.addEventListener("resize", () => {
    cancelAnimationFrame(resizing);
    resizing = requestAnimationFrame(() => { if (state && state.screen === "table") { drawHand(); drawBoard(); } });
  });
  // The board is drawn for its surface's size, and anything else can change that size after
  // (a hand of another tile size or row count, a caption, the sheet, a font): it is drawn again
  // whenever the size changes, after layout and before the frame is painted. (Drawn before the
  // hand, it was once left at a size up to 34 px too tall: tiles and places below its edge.)
  new ResizeObserver(() => {
    if (state && state.screen === "table" && !elsewhereShown) drawBoard();
  }).observe($("board").querySelector(".board-surface"));
  if (document.body.dataset.screen === "elsewhere") showElsewhere(false);  // no session cookie
  else start();
}

setup();
