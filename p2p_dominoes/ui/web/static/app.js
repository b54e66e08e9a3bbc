// The page of one player's own peer. It draws what the peer sends over the WebSocket and sends
// back the player's commands; every rule is decided by the peer, never here.
"use strict";

const TEXT = {
  en: {
    title: "p2p-dominoes", lobby: "Lobby", your_address: "Others can join you at",
    tables_found: "Tables on this network", col_table: "Table", col_host: "Host",
    col_fp: "Fingerprint", col_seats: "Seats", col_rules: "Rules",
    none_found: "No tables found yet.",
    hint_wifi: "Are you on the same Wi-Fi as the others?",
    hint_guest: "Guest networks and \"AP isolation\" hide players from each other.",
    hint_firewall: "A firewall may block the port shown above; a VPN can hide the network.",
    hint_address: "You can always join by address below.",
    create: "Create a table", table_name: "Table name", rules: "Rules", seats: "Seats",
    bots: "Bots for empty seats", hands: "Hands (empty: a whole match)",
    create_button: "Create and wait for players", join_address: "Join by address",
    host_port: "Host:port", join_button: "Join", join: "Join", status: "Status",
    compare_line: "Compare the fingerprints on every screen: they must match.",
    code_label: "Table code", fingerprints: "Full fingerprints", code_waiting: "(once every seat has signed)",
    code_compare: "Compare the table code aloud: every screen must show the same words. If one differs, leave the table.",
    table: "Table", draw: "Draw (D)", pass: "Pass (P)", scores: "Scores",
    download: "Download the signed record", rematch: "Rematch", to_lobby: "Back to the lobby",
    log: "What happened", you: "you", tiles: (n) => (n === 1 ? "1 tile" : `${n} tiles`),
    boneyard: (n, r) => `Boneyard: ${n} tiles — the last ${r} are never drawn.`,
    boneyard_open: (n) => `Boneyard: ${n} tiles.`,
    shuffle: (name, done, total) => `${name}'s shuffle verified, ${done} of ${total}`,
    shuffling: (total) => `Shuffling: 0 of ${total} shuffles verified`,
    waiting: (name, s) => `Waiting for ${name} (${s} s)`,
    your_turn: "Your turn: choose a tile, then where it goes.",
    turn_of: (name) => `${name}'s turn.`,
    tile_label: (a, b) => `tile ${a}–${b}`,
    lead_here: "Lead here", end_left: "left end", end_right: "right end",
    place_label: (end, value) => `${end}, needs ${value}`,
    target_score: (t) => `first to ${t}`,
    hand_over: (n) => `Hand ${n} is over`,
    domino: (name) => `${name} went out.`, block: "The hand is blocked.",
    nobody: "Nobody scores: the lowest total is shared.",
    scored: (name, text) => `${name} scores ${text}`,
    audit: "Audit: every shuffle, share, draw and pass checked — clean.",
    match_won: (name) => `${name} wins the match.`, match_drawn: "The match is drawn.",
    match_stopped: "The agreed number of hands has been played.",
    shows: (name, tiles) => `${name}: ${tiles || "no tiles left"}`,
    connected: "Connected to your peer.", disconnected: "Connection to your peer lost — reload the page.",
    discovery_off: "Discovery is unavailable here: join by address.",
    refused: "Not allowed:",
  },
  ru: {
    title: "p2p-домино", lobby: "Лобби", your_address: "К вам можно присоединиться по адресу",
    tables_found: "Столы в этой сети", col_table: "Стол", col_host: "Хозяин",
    col_fp: "Отпечаток", col_seats: "Места", col_rules: "Правила",
    none_found: "Столов пока не видно.",
    hint_wifi: "Вы в той же сети Wi-Fi, что и остальные?",
    hint_guest: "Гостевые сети и «изоляция клиентов» скрывают игроков друг от друга.",
    hint_firewall: "Брандмауэр может закрыть порт выше; VPN может скрыть сеть.",
    hint_address: "Всегда можно присоединиться по адресу ниже.",
    create: "Создать стол", table_name: "Название стола", rules: "Правила", seats: "Мест",
    bots: "Боты на пустые места", hands: "Сдач (пусто — целый матч)",
    create_button: "Создать и ждать игроков", join_address: "Присоединиться по адресу",
    host_port: "Хост:порт", join_button: "Присоединиться", join: "Сесть", status: "Состояние",
    compare_line: "Сверьте отпечатки на всех экранах: они должны совпадать.",
    code_label: "Код стола", fingerprints: "Полные отпечатки", code_waiting: "(когда все места подпишут)",
    code_compare: "Сверьте код стола вслух: на всех экранах должны быть те же слова. Если хоть одно отличается, уходите из-за стола.",
    table: "Стол", draw: "Взять (D)", pass: "Пропустить (P)", scores: "Счёт",
    download: "Скачать подписанную запись", rematch: "Реванш", to_lobby: "В лобби",
    log: "Что произошло", you: "вы", tiles: (n) => `костей: ${n}`,
    boneyard: (n, r) => `Базар: ${n} — последние ${r} не берут.`,
    boneyard_open: (n) => `Базар: ${n}.`,
    shuffle: (name, done, total) => `Перемешивание игрока ${name} проверено, ${done} из ${total}`,
    shuffling: (total) => `Перемешивание: проверено 0 из ${total}`,
    waiting: (name, s) => `Ждём игрока ${name} (${s} с)`,
    your_turn: "Ваш ход: выберите кость, затем место.",
    turn_of: (name) => `Ходит ${name}.`,
    tile_label: (a, b) => `кость ${a}–${b}`,
    lead_here: "Начать здесь", end_left: "левый конец", end_right: "правый конец",
    place_label: (end, value) => `${end}, нужно ${value}`,
    target_score: (t) => `до ${t}`,
    hand_over: (n) => `Сдача ${n} окончена`,
    domino: (name) => `${name} выложил(а) все кости.`, block: "Рыба: ходов нет.",
    nobody: "Никто не получает очков: наименьшая сумма разделена.",
    scored: (name, text) => `${name} получает ${text}`,
    audit: "Проверка: все перемешивания, доли, добор и пропуски проверены — чисто.",
    match_won: (name) => `${name} выигрывает матч.`, match_drawn: "Матч окончен вничью.",
    match_stopped: "Сыграно условленное число сдач.",
    shows: (name, tiles) => `${name}: ${tiles || "костей не осталось"}`,
    connected: "Связь с вашим узлом есть.", disconnected: "Связь с узлом потеряна — обновите страницу.",
    discovery_off: "Поиск столов здесь недоступен: присоединяйтесь по адресу.",
    refused: "Нельзя:",
  },
};

let lang = "en";
let state = null;
let selected = null;   // key of the selected tile in hand
let socket = null;
let lastDescription = "";
const $ = (id) => document.getElementById(id);
const t = (key, ...args) => {
  const entry = (TEXT[lang] || TEXT.en)[key] ?? TEXT.en[key];
  return typeof entry === "function" ? entry(...args) : entry;
};

// -- the connection to our own peer ---------------------------------------------------------------

function connect() {
  const token = new URLSearchParams(location.hash.slice(1)).get("token") || "";
  socket = new WebSocket(`ws://${location.host}/ws?token=${encodeURIComponent(token)}`);
  socket.addEventListener("open", () => { $("connection").textContent = t("connected"); });
  socket.addEventListener("close", () => { $("connection").textContent = t("disconnected"); });
  socket.addEventListener("message", (event) => receive(JSON.parse(event.data)));
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function receive(message) {
  if (message.type === "state") {
    state = message;
    if (message.lang && message.lang !== lang) { lang = message.lang; translateStatic(); }
    render();
  } else if (message.type === "announce") {
    $("board-text").textContent = message.text;
    lastDescription = message.text;
  } else if (message.type === "refused") {
    addLog(`${t("refused")} ${message.text}`);
  } else if (message.type === "record") {
    download(message.name, message.data);
  }
}

function translateStatic() {
  document.documentElement.lang = lang;
  for (const node of document.querySelectorAll("[data-i18n]")) {
    const value = t(node.dataset.i18n);
    if (typeof value === "string") node.textContent = value;
  }
}

// -- rendering -------------------------------------------------------------------------------------

function render() {
  const me = state.me;
  $("me").textContent = `${me.name} · ${me.fingerprint}`;
  const onTable = state.screen === "table";
  $("lobby").hidden = onTable;
  $("table").hidden = !onTable;
  if (onTable) renderTable(); else renderLobby();
}

function renderLobby() {
  const me = state.me;
  $("my-address").textContent = me.addresses.map((a) => (a.includes(":") ? `[${a}]` : a) + `:${me.port}`).join("  ·  ");
  const rules = $("create-rules");
  if (!rules.options.length) {
    for (const name of state.presets) rules.add(new Option(name, name, name === "draw", name === "draw"));
  }
  const body = $("tables").querySelector("tbody");
  body.replaceChildren();
  for (const table of state.tables) {
    const row = body.insertRow();
    for (const value of [table.table, table.host, table.fingerprint, table.seats, table.rules]) {
      row.insertCell().textContent = value;
    }
    const button = document.createElement("button");
    button.textContent = t("join");
    button.disabled = state.busy || table.phase !== "lobby";
    button.addEventListener("click", () => send({ type: "join", address: table.address, fingerprint: table.pin }));
    row.insertCell().append(button);
  }
  $("no-tables").hidden = state.tables.length > 0;
  $("discovery-note").textContent = state.discovery ? t("discovery_off") : "";
  $("create-button").disabled = state.busy;
  $("join-button").disabled = state.busy;
  const lines = $("lobby-lines");
  lines.replaceChildren(...state.lines.map((line) => Object.assign(document.createElement("li"), { textContent: line })));
}

function renderTable() {
  const s = state;
  const names = s.names;
  const alert = $("alert");
  alert.hidden = !s.alert;
  alert.textContent = s.alert || "";

  const players = $("players");
  players.replaceChildren();
  names.forEach((name, seat) => {
    const item = document.createElement("li");
    const you = seat === s.seat ? ` (${t("you")})` : "";
    const count = s.counts.length ? ` · ${t("tiles", s.counts[seat])}` : "";
    item.innerHTML = "";
    item.append(`${name}${you} `);
    item.append(`${count} · ${s.scores[seat]}`);
    if (s.turn === seat) item.classList.add("turn");
    players.append(item);
  });
  renderCode();

  const progress = s.progress;
  $("progress").textContent = progress.total && progress.done < progress.total
    ? (progress.done ? t("shuffle", progress.last, progress.done, progress.total) : t("shuffling", progress.total))
    : (progress.done ? t("shuffle", progress.last, progress.done, progress.total) : "");
  $("waiting").textContent = s.waiting ? t("waiting", s.waiting.name, s.waiting.seconds) : "";
  $("turn").textContent = s.turn === null ? "" : (s.turn === s.seat ? t("your_turn") : t("turn_of", names[s.turn]));

  if (s.description && s.description !== lastDescription) {
    $("board-text").textContent = s.description;
    lastDescription = s.description;
  }
  renderBoard();
  renderHand();
  renderControls();
  $("boneyard").textContent = s.counts.length
    ? (s.reserve ? t("boneyard", s.boneyard, s.reserve) : t("boneyard_open", s.boneyard)) : "";
  $("scores-text").textContent = names.map((n, i) => `${n}: ${s.scores[i]}`).join(" · ") + ` (${t("target_score", s.target)})`;
  renderChart();
  renderEnd();
  const log = $("log");
  log.replaceChildren(...s.log.map((line) => Object.assign(document.createElement("li"), { textContent: line })));
  log.scrollTop = log.scrollHeight;
}

// Tiles as SVG: a horizontal tile is 2 units by 1, a double lies crosswise (1 by 2).
const PIPS = {
  0: [], 1: [[.5, .5]], 2: [[.25, .25], [.75, .75]], 3: [[.25, .25], [.5, .5], [.75, .75]],
  4: [[.25, .25], [.75, .25], [.25, .75], [.75, .75]],
  5: [[.25, .25], [.75, .25], [.5, .5], [.25, .75], [.75, .75]],
  6: [[.25, .22], [.75, .22], [.25, .5], [.75, .5], [.25, .78], [.75, .78]],
};
const SVGNS = "http://www.w3.org/2000/svg";

function svg(tag, attrs) {
  const node = document.createElementNS(SVGNS, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  return node;
}

function tileGroup(first, second, x, y, u, vertical) {
  const group = svg("g", {});
  const w = vertical ? u : 2 * u;
  const h = vertical ? 2 * u : u;
  group.append(svg("rect", { x, y, width: w, height: h, rx: u * .15, fill: "#fffdf7", stroke: "#1b1f24", "stroke-width": 1.5 }));
  if (vertical) group.append(svg("line", { x1: x + 4, y1: y + u, x2: x + u - 4, y2: y + u, stroke: "#1b1f24" }));
  else group.append(svg("line", { x1: x + u, y1: y + 4, x2: x + u, y2: y + u - 4, stroke: "#1b1f24" }));
  [first, second].forEach((value, half) => {
    const ox = vertical ? x : x + half * u;
    const oy = vertical ? y + half * u : y;
    for (const [px, py] of PIPS[value]) {
      group.append(svg("circle", { cx: ox + px * u, cy: oy + py * u, r: u * .09, fill: "#1b1f24" }));
    }
  });
  return group;
}

function tileSvg(a, b, u) {
  const node = svg("svg", { width: 2 * u + 4, height: u + 4, viewBox: `-2 -2 ${2 * u + 4} ${u + 4}`, "aria-hidden": "true" });
  node.append(tileGroup(a, b, 0, 0, u, false));
  return node;
}

function renderBoard() {
  const board = $("board");
  board.replaceChildren();
  const line = state.line;
  const width = Math.max(280, board.clientWidth - 24);
  const u = width < 500 ? 22 : 30;
  const gap = 4;
  // Lay the line out as a snake: left to right, then the next row right to left, and so on.
  const rows = [[]];
  let used = u * 1.6;
  for (const tile of line) {
    const w = (tile.double ? u : 2 * u) + gap;
    if (used + w > width - u * 1.6 && rows[rows.length - 1].length) { rows.push([]); used = u * 1.6; }
    rows[rows.length - 1].push(tile);
    used += w;
  }
  const rowHeight = 2 * u + 16;
  const height = Math.max(rows.length * rowHeight, rowHeight);
  const canvas = svg("svg", { width, height, viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": state.description || "" });
  const positions = [];
  rows.forEach((row, r) => {
    const leftToRight = r % 2 === 0;
    let x = leftToRight ? u * 1.6 : width - u * 1.6;
    const y0 = r * rowHeight + 8;
    for (const tile of row) {
      const w = tile.double ? u : 2 * u;
      const left = leftToRight ? x : x - w;
      const y = tile.double ? y0 : y0 + u / 2;
      const [a, b] = leftToRight ? [tile.left, tile.right] : [tile.right, tile.left];
      canvas.append(tileGroup(a, b, left, y, u, tile.double));
      positions.push({ x: left, y, w, h: tile.double ? 2 * u : u });
      x = leftToRight ? x + w + gap : x - w - gap;
    }
  });
  board.style.height = `${height + 24}px`;
  board.append(canvas);

  // Open places: a marker at each end; a target when the selected tile fits there.
  const fits = selected ? (state.hand.find((h) => h.tile === selected)?.fits || []) : [];
  const markers = [];
  if (!line.length && state.turn !== null) {
    markers.push({ end: "lead", label: t("lead_here"), x: width / 2 - u, y: 8 + u / 2 });
  }
  for (const place of state.ends) {
    const index = place.end === "left" ? 0 : positions.length - 1;
    const p = positions[index];
    const rowOf = place.end === "left" ? 0 : rows.length - 1;
    const leftToRight = rowOf % 2 === 0;
    const before = place.end === "left" ? leftToRight : !leftToRight;
    const x = before ? p.x - u * 1.4 : p.x + p.w + u * .2;
    const label = t("place_label", place.end === "left" ? t("end_left") : t("end_right"), place.value);
    markers.push({ end: place.end, label, value: place.value, x, y: p.y + (p.h - u) / 2 });
  }
  for (const marker of markers) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "marker-button";
    button.dataset.end = marker.end;
    const target = fits.includes(marker.end);
    if (target) button.classList.add("target");
    button.disabled = !target;
    button.textContent = marker.value ?? "＋";
    button.setAttribute("aria-label", marker.label);
    button.title = marker.label;
    Object.assign(button.style, { left: `${marker.x + 12}px`, top: `${marker.y + 12}px`, width: `${u * 1.2}px`, height: `${u}px` });
    button.addEventListener("click", () => playAt(marker.end));
    board.append(button);
  }
}

function renderHand() {
  const hand = $("hand");
  const focused = document.activeElement?.dataset?.tile;
  hand.replaceChildren();
  if (selected && !state.hand.some((h) => h.tile === selected && h.fits.length)) selected = null;
  for (const tile of state.hand) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "tile-button";
    button.dataset.tile = tile.tile;
    if (tile.fits.length) button.classList.add("playable");
    if (selected === tile.tile) button.classList.add("selected");
    button.setAttribute("aria-label", t("tile_label", tile.low, tile.high));
    button.setAttribute("aria-pressed", selected === tile.tile ? "true" : "false");
    button.disabled = !tile.fits.length;
    button.append(tileSvg(tile.low, tile.high, 26));
    button.addEventListener("click", () => selectTile(tile));
    hand.append(button);
    if (focused === tile.tile) button.focus();
  }
}

function selectTile(tile) {
  if (!tile.fits.length) return;
  if (tile.fits.length === 1 && selected === tile.tile) { playAt(tile.fits[0]); return; }
  selected = tile.tile;
  renderBoard();
  renderHand();
  const target = document.querySelector(".marker-button.target");
  if (target) target.focus();
}

function playAt(end) {
  if (!selected) return;
  send({ type: "play", tile: selected, end });
  selected = null;
}

function renderControls() {
  const controls = state.controls;
  for (const kind of ["draw", "pass"]) {
    const button = $(kind);
    const allowed = controls ? controls[`can_${kind}`] : false;
    button.disabled = !allowed;
    $(`${kind}-reason`).textContent = controls && !allowed ? controls[`${kind}_reason`] : "";
  }
}

function renderChart() {
  const chart = $("chart");
  chart.replaceChildren();
  const history = [new Array(state.names.length).fill(0), ...state.history];
  const top = Math.max(state.target, ...history.flat());
  const marks = ["", "8 4", "2 3", "10 3 2 3"];  // line styles tell seats apart without colour
  const colours = ["#0b5cad", "#c45a00", "#1b1f24", "#6b4aa5"];
  chart.append(svg("line", { x1: 20, x2: 295, y1: 110 - 100 * state.target / top, y2: 110 - 100 * state.target / top, stroke: "#999", "stroke-dasharray": "3 3" }));
  state.names.forEach((name, seat) => {
    const points = history.map((scores, i) => `${20 + i * 275 / Math.max(1, history.length - 1)},${110 - 100 * scores[seat] / top}`);
    const path = svg("polyline", { points: points.join(" "), fill: "none", stroke: colours[seat], "stroke-width": 2, "stroke-dasharray": marks[seat] });
    path.append(Object.assign(svg("title", {}), { textContent: name }));
    chart.append(path);
  });
}

// The table code every player reads aloud; the full fingerprints stay one click away.
function codeText(code) {
  if (!code) return "";
  const words = (code[lang] || code.en).join(" ");
  return lang === "en" ? words : `${words} / ${code.en.join(" ")}`;
}

function renderCode() {
  const code = state.code;
  $("code-words").textContent = code ? codeText(code) : t("code_waiting");
  $("code-digits").textContent = code ? `(${code.digits})` : "";
  $("fingerprint-list").replaceChildren(...state.names.map((name, seat) => {
    const item = Object.assign(document.createElement("li"), { textContent: `${name}: ` });
    item.append(Object.assign(document.createElement("span"), { className: "fp", textContent: state.fingerprints[seat] }));
    return item;
  }));
}

function renderEnd() {
  const end = state.end;
  const panel = $("end");
  const over = state.match.over;
  panel.hidden = !end && !over;
  if (!end) return;
  const names = state.names;
  $("end-title").textContent = t("hand_over", end.hand_number);
  $("end-hands").replaceChildren(...end.hands.map((tiles, seat) => Object.assign(
    document.createElement("li"), { textContent: t("shows", names[seat], tiles.map((x) => `[${x}]`).join(" ")) })));
  let text = end.end === "domino" ? t("domino", names[end.winner]) : t("block");
  if (end.winner === null) text += " " + t("nobody");
  else text += " " + t("scored", names[end.winner], end.arithmetic);
  $("end-points").textContent = text;
  $("end-audit").textContent = t("audit");
  $("end-code").textContent = state.code ? `${t("code_label")}: ${codeText(state.code)} (${state.code.digits})` : "";
  $("end-match").textContent = over
    ? (state.match.winner !== null ? t("match_won", names[state.match.winner]) : (state.match.draw ? t("match_drawn") : t("match_stopped")))
    : "";
  $("rematch").hidden = !over || state.seat !== 0;
  $("to-lobby").hidden = !over;
}

function addLog(line) {
  const item = Object.assign(document.createElement("li"), { textContent: line });
  $("log").append(item);
  $("announce").textContent = line;
}

function download(name, data) {
  const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([bytes], { type: "application/octet-stream" }));
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
}

// -- input -------------------------------------------------------------------------------------------

function setup() {
  translateStatic();
  $("create-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const hands = $("create-hands").value;
    send({
      type: "host", table: $("create-name").value, rules: $("create-rules").value,
      players: Number($("create-seats").value), bots: Number($("create-bots").value),
      hands: hands ? Number(hands) : null,
    });
  });
  $("join-form").addEventListener("submit", (event) => {
    event.preventDefault();
    send({ type: "join", address: $("join-address").value });
  });
  $("draw").addEventListener("click", () => send({ type: "draw" }));
  $("pass").addEventListener("click", () => send({ type: "pass" }));
  $("download").addEventListener("click", () => send({ type: "record" }));
  $("rematch").addEventListener("click", () => send({ type: "rematch" }));
  $("to-lobby").addEventListener("click", () => send({ type: "lobby" }));
  document.addEventListener("keydown", (event) => {
    if (!state || state.screen !== "table" || event.target.tagName === "INPUT") return;
    if (event.key === "d" || event.key === "D") { if (!$("draw").disabled) send({ type: "draw" }); }
    else if (event.key === "p" || event.key === "P") { if (!$("pass").disabled) send({ type: "pass" }); }
    else if (event.key === "Escape") { selected = null; renderBoard(); renderHand(); }
  });
  window.addEventListener("resize", () => { if (state && state.screen === "table") renderBoard(); });
  connect();
}

setup();
