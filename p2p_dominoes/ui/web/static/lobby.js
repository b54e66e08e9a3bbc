// The lobby: tables found on the network, creating and joining a table, the host's waiting room
// (seats filling, requests for a seat, cancel), and unfinished tables to resume.

import { $, el } from "./dom.js";
import { codeGiven, setupJoinCode } from "./join_code.js";
import { lang, t } from "./strings.js";

let presetWords = {};  // each preset's name in each language, from the peer (the editor's words)

function presetLabel(name) {
  return presetWords[name]?.[lang()] || presetWords[name]?.en || name;
}

let strategies = [];  // the bots the peer offers (p2p_dominoes.bots.BOTS), weakest first
let botDefaults = {};  // rules → the bot chosen unless the host picks one (partner in Kozel)
let pairsOnly = [];    // bots that only make sense where partners play

function botChoices() {
  const rules = $("create-rules").value;
  const fallback = botDefaults[rules] || "medium";
  const offered = strategies.filter((name) => !pairsOnly.includes(name) || fallback === "partner");
  return { offered, fallback: offered.includes(fallback) ? fallback : offered[0] };
}

function botOption(name, chosen) {
  const about = t(`bot_about_${name}`);
  const text = about === `bot_about_${name}` ? t(`bot_${name}`) : `${t(`bot_${name}`)} — ${about}`;
  return new Option(text, name, name === chosen, name === chosen);
}

// One choice per bot asked for ("bot-1 plays: medium"), each kept while the count changes; one
// the host did not pick follows the rules' default.
function renderBotKinds() {
  const box = $("bot-kinds");
  const count = strategies.length ? Math.max(0, Math.min(3, Number($("create-bots").value) || 0)) : 0;
  box.hidden = !count;
  if (!box.querySelector(".bot-fair")) box.querySelector("legend").after(el("p", { className: "bot-fair", textContent: t("bot_fair") }));
  const rows = [...box.querySelectorAll("label")];
  for (const row of rows.slice(count)) row.remove();
  for (let i = rows.length; i < count; i += 1) {
    const select = el("select", { id: `create-bot-kind-${i + 1}`, className: "bot-kind" });
    box.append(el("label", {}, el("span", { className: "bot-name", translate: "no", textContent: `bot-${i + 1} ` }), select));
  }
  const { offered, fallback } = botChoices();
  for (const select of box.querySelectorAll("select")) {
    const chosen = select.dataset.picked && offered.includes(select.value) ? select.value : fallback;
    select.replaceChildren(...offered.map((name) => botOption(name, chosen)));
    select.value = chosen;
  }
}

export function renderLobby(s, send) {
  const me = s.me;
  $("my-address").textContent = me.addresses.map((a) => (a.includes(":") ? `[${a}]` : a) + `:${me.port}`).join("  ·  ");
  presetWords = s.preset_words || {};
  const rules = $("create-rules");
  const saved = s.rule_sets || [];
  const wanted = [...s.presets, ...saved];
  if ([...rules.options].map((o) => o.value).join("\n") !== wanted.join("\n")) {
    const chosen = rules.value || "draw";
    rules.replaceChildren(
      ...s.presets.map((name) => new Option(presetLabel(name), name, name === chosen, name === chosen)),
      ...saved.map((name) => new Option(`${name} (${t("saved_set")})`, name, name === chosen, name === chosen)),
    );
  } else {
    for (const option of rules.options) {
      option.textContent = s.presets.includes(option.value) ? presetLabel(option.value) : `${option.value} (${t("saved_set")})`;
    }
  }
  strategies = s.bot_strategies || [];
  botDefaults = s.bot_defaults || {};
  pairsOnly = s.pairs_only_bots || [];
  renderBotKinds();
  const body = $("tables").querySelector("tbody");
  body.replaceChildren(...s.tables.map((table) => {
    const row = el("tr");
    for (const value of [table.table, table.host, table.fingerprint, table.seats, table.rules]) {
      row.append(el("td", { translate: "no", textContent: value }));
    }
    const button = el("button", { type: "button", textContent: t("join"), disabled: s.busy || table.phase !== "lobby" });
    button.addEventListener("click", () => send({ type: "join", address: table.address, fingerprint: table.pin, ...seatAsked(), ...codeGiven() }));
    row.append(el("td", {}, button));
    return row;
  }));
  $("tables").hidden = s.tables.length === 0;
  $("no-tables").hidden = s.tables.length > 0;
  $("discovery-note").textContent = s.discovery ? t("discovery_off") : "";
  $("create-button").disabled = s.busy;
  $("join-button").disabled = s.busy;
  const error = s.error;
  if ("error" in s) {  // (an older peer has no "error": its refusals are shown as they come)
    $("lobby-error").hidden = !error;
    $("lobby-error").textContent = error ? error.text : "";
  }
  for (const field of ["create-seats", "create-bots", "create-hands", "create-stall", "create-name", "join-address", "join-code"]) {
    $(field).removeAttribute("aria-invalid");
  }
  if (error?.field) {
    const map = { players: "create-seats", bots: "create-bots", hands: "create-hands", stall_timeout: "create-stall", table: "create-name", address: "join-address", code: "join-code" };
    if (map[error.field]) $(map[error.field]).setAttribute("aria-invalid", "true");
  }
  const joining = s.joining;
  $("joining").hidden = !joining;
  if (joining) $("joining-text").textContent = joining.line || t("joining", joining.address, joining.seconds);
  // The joiner's own short fingerprint, which the host's screen shows beside this request.
  $("joining-fp").replaceChildren(...(joining?.fingerprint && !(joining.line || "").includes(joining.fingerprint)
    ? [` ${t("your_fp_waiting")} `, el("code", { className: "fp-short", translate: "no", textContent: joining.fingerprint })]
    : []));
  renderUnfinished(s, send);
  $("lobby-lines").replaceChildren(...s.lines.map((line) => el("p", { textContent: line })));
  renderHostLobby(s, send);
}

function renderUnfinished(s, send) {
  const unfinished = s.unfinished;
  $("unfinished").hidden = !unfinished;
  if (unfinished) $("unfinished-text").textContent = t("unfinished", unfinished.name, unfinished.seat, unfinished.messages) + " ";
  $("resume-button").disabled = s.busy;
  const more = (s.unfinished_tables || []).slice(1);
  $("unfinished-more").replaceChildren(...more.map((table) => {
    const button = el("button", { type: "button", textContent: t("resume_this"), disabled: s.busy });
    button.addEventListener("click", () => send({ type: "resume", table: table.id }));
    return el("li", {}, el("span", { textContent: t("unfinished", table.name, table.seat, table.messages) + " " }), button);
  }));
}

// The seat a joiner asks for (the join form's choice, 2–4; none: any free seat), sent 0-based.
function seatAsked() {
  const seat = $("join-seat").value;
  return seat ? { seat: Number(seat) - 1 } : {};  // the options count from 1, as people do
}

// At a Kozel table (pairs) each seat says its pair, and the host may swap two seats (not its own).
function seatExtras(desk, place, send) {
  if (!desk.pairs || desk.players !== 4) return [];
  const extras = [" ", el("span", { className: "pair", textContent: `(${t("pair_n", (place % 2) + 1)})` })];
  if (place === 0) return extras;
  const swap = el("select", { className: "swap", "aria-label": t("seat_n", place + 1) });
  swap.append(new Option("⇄", ""), ...[1, 2, 3].filter((p) => p !== place).map((p) => new Option(t("swap_with", p + 1), String(p))));
  swap.addEventListener("change", () => { if (swap.value) send({ type: "swap", seats: [place, Number(swap.value)] }); });
  extras.push(" ", swap);
  return extras;
}

// The table this player hosts, before the start: who sits (removable) and who asks for a seat.
// Every name comes from the network: it is only ever set as textContent.
let askedBefore = new Set();  // the requests already shown (a new one is scrolled to, and heard)
let onAsked = () => {};

// Called when someone new asks for a seat (the page plays its sound).
export function whenAsked(callback) {
  onAsked = callback;
}

function renderHostLobby(s, send) {
  const desk = s.host_lobby;
  const appeared = Boolean(desk) && $("host-lobby").hidden;
  $("host-lobby").hidden = !desk;
  if (!desk) { askedBefore = new Set(); return; }
  if (appeared) $("host-lobby").scrollIntoView({ block: "start" });  // the host's table, at the top
  $("host-code").hidden = !desk.code;
  if (desk.code) $("host-code-words").textContent = `${desk.code[lang()] || desk.code.en} (${desk.code.digits})`;
  $("host-seats-title").textContent = t("seats_taken", desk.seats.length, desk.players) + (desk.pairs ? ` ${t("pairs_note")}` : "");
  const items = desk.seats.map((seat) => {
    const label = seat.seat === 0 ? ` (${t("you")})` : (seat.bot ? ` (${t("bot")})` : "");
    const item = el("li", { dataset: { seat: seat.seat } },
      el("span", { className: "seat-number", textContent: `${t("seat_n", seat.seat + 1)}: ` }),
      el("span", { className: "name", translate: "no", textContent: seat.name + label }), " ",
      el("code", { className: "fp", translate: "no", textContent: seat.fingerprint }));
    if (seat.seat !== 0) {
      const remove = el("button", { type: "button", className: "remove", textContent: t("remove") });
      remove.addEventListener("click", () => send({ type: "remove", seat: seat.seat }));
      item.append(" ", remove);
    }
    item.append(...seatExtras(desk, seat.seat, send));
    return item;
  });
  const taken = new Set(desk.seats.map((seat) => seat.seat));
  for (let seat = 0; seat < desk.players; seat += 1) {
    if (taken.has(seat)) continue;
    items.push(el("li", { className: "empty", dataset: { seat } }, el("span", { className: "seat-number", textContent: `${t("seat_n", seat + 1)}: ` }), t("empty_seat"), ...seatExtras(desk, seat, send)));
  }
  $("host-seats").replaceChildren(...items.filter((item) => !item.classList.contains("empty")));
  $("host-empty").replaceChildren(...items.filter((item) => item.classList.contains("empty")));
  $("no-requests").hidden = desk.pending.length > 0;
  // The host looks at the page's top, or at another tab: the title says who asks (issue 28 M8).
  if (desk.pending.length) document.title = `${desk.pending.map((r) => t("asks", r.name)).join(", ")} · ${t("title")}`;
  const fresh = desk.pending.filter((r) => !askedBefore.has(r.number));
  askedBefore = new Set(desk.pending.map((r) => r.number));
  $("requests").replaceChildren(...desk.pending.map((request) => {
    const item = el("li", { dataset: { request: request.number } },
      el("strong", { className: "name", textContent: t("asks", request.name) }),
      ...(request.short ? [el("code", { className: "fp-short", translate: "no", textContent: request.short }), " "] : []),
      el("code", { className: "fp", translate: "no", textContent: request.fingerprint }),
      el("span", { className: "source", textContent: t("from_source", request.source, request.seconds) }));
    for (const [kind, label] of [["approve", t("approve")], ["refuse", t("refuse")]]) {
      const button = el("button", { type: "button", className: kind, textContent: label });
      button.addEventListener("click", () => send({ type: kind, request: request.number }));
      item.append(button);
    }
    return item;
  }));
  if (fresh.length) {
    $("requests").querySelector(`[data-request="${fresh[0].number}"]`)?.scrollIntoView({ block: "nearest" });
    onAsked();
  }
  $("cancel-table").hidden = !("joining" in s || "bot_strategies" in s);  // a peer that knows "cancel"
}

export function setupLobby(send) {
  $("create-bots").addEventListener("input", renderBotKinds);
  setupJoinCode();
  $("create-rules").addEventListener("change", renderBotKinds);
  $("bot-kinds").addEventListener("change", (event) => { event.target.dataset.picked = "1"; });
  $("create-form").addEventListener("submit", (event) => {
    event.preventDefault();
    $("lobby-error").hidden = true;
    const hands = $("create-hands").value;
    const command = {
      type: "host", table: $("create-name").value, rules: $("create-rules").value,
      players: Number($("create-seats").value), bots: Number($("create-bots").value),
      hands: hands ? Number(hands) : null,
    };
    const kinds = [...$("bot-kinds").querySelectorAll("select")].map((select) => select.value);
    if (kinds.length && kinds.length === command.bots) command.bot = kinds;
    const stall = $("create-stall").value;
    if (stall) command.stall_timeout = Number(stall);
    command.join_code = $("create-code").checked;
    send(command);
  });
  $("join-form").addEventListener("submit", (event) => {
    event.preventDefault();
    $("lobby-error").hidden = true;
    send({ type: "join", address: $("join-address").value, ...seatAsked(), ...codeGiven() });
  });
  $("resume-button").addEventListener("click", () => send({ type: "resume" }));
  $("cancel-join").addEventListener("click", () => send({ type: "cancel" }));
  $("cancel-table").addEventListener("click", () => send({ type: "cancel" }));
}
