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
    house_rules: "House rules", saved_set: "saved",
    bots: "Bots for empty seats", hands: "Hands (empty: a whole match)",
    create_button: "Create and wait for players", join_address: "Join by address",
    host_port: "Host:port", join_button: "Join", join: "Join", status: "Status",
    compare_line: "In the lobby, check a full fingerprint against the screen it belongs to; once everyone is seated, compare the table code aloud.",
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
    your_table: "Your table", requests: "Asking for a seat",
    no_requests: "Nobody is asking right now.",
    requests_hint: "Seat only people you know: compare the fingerprint with the one on their screen.",
    seats_taken: (n, total) => `Seats taken: ${n} of ${total}. You can remove a player before the game begins.`,
    asks: (name) => `${name} asks for a seat`,
    from_source: (source, s) => `from ${source} · ${s} s left to answer`,
    approve: "Seat", refuse: "Refuse", remove: "Remove", bot: "bot",
    elsewhere_title: "This page is open elsewhere",
    elsewhere_tab: "Your game is open in another tab or window of this browser; only one can show your tiles.",
    elsewhere_link: "The link to this page works only once, and it has been used. If that was not you, someone else on this computer tried to open your page. To open it here, press Enter in the p2p-dominoes window and open the new link it prints.",
    take_over: "Use it here",
    resume: "Resume the unfinished table",
    unfinished: (name, seat, n) => `Table '${name}' was not finished (you sat at seat ${seat}, ${n} messages kept).`,
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
    house_rules: "Домашние правила", saved_set: "свой набор",
    bots: "Боты на пустые места", hands: "Сдач (пусто — целый матч)",
    create_button: "Создать и ждать игроков", join_address: "Присоединиться по адресу",
    host_port: "Хост:порт", join_button: "Присоединиться", join: "Сесть", status: "Состояние",
    compare_line: "В лобби сверяйте полный отпечаток с экраном его владельца; когда все сядут, сверьте вслух код стола.",
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
    your_table: "Ваш стол", requests: "Просят место",
    no_requests: "Сейчас никто не просит места.",
    requests_hint: "Сажайте только знакомых: сверьте отпечаток с тем, что на их экране.",
    seats_taken: (n, total) => `Занято мест: ${n} из ${total}. До начала игры можно убрать игрока.`,
    asks: (name) => `${name} просит место`,
    from_source: (source, s) => `с адреса ${source} · на ответ осталось ${s} с`,
    approve: "Посадить", refuse: "Отказать", remove: "Убрать", bot: "бот",
    elsewhere_title: "Эта страница открыта в другом месте",
    elsewhere_tab: "Ваша игра открыта в другой вкладке или окне этого браузера; ваши кости видны только в одной.",
    elsewhere_link: "Ссылка на эту страницу действует один раз, и она уже использована. Если это были не вы, кто-то другой на этом компьютере пытался открыть вашу страницу. Чтобы открыть её здесь, нажмите Enter в окне p2p-dominoes и откройте новую ссылку, которую оно напечатает.",
    take_over: "Открыть здесь",
    resume: "Вернуться за недоигранный стол",
    unfinished: (name, seat, n) => `Стол «${name}» не доигран (ваше место ${seat}, сохранено сообщений: ${n}).`,
  },
};

let lang = document.documentElement.lang === "ru" ? "ru" : "en";
let state = null;
let selected = null;   // key of the selected tile in hand
let socket = null;
let lastDescription = "";
let elsewhereShown = false;  // another tab holds the session: draw nothing it sends
const $ = (id) => document.getElementById(id);
const t = (key, ...args) => {
  const entry = (TEXT[lang] || TEXT.en)[key] ?? TEXT.en[key];
  return typeof entry === "function" ? entry(...args) : entry;
};

// -- the connection to our own peer ---------------------------------------------------------------

// The session cookie (HttpOnly, set when the one-time link was opened) and the socket key
// (kept by enter.js in this origin's localStorage) authorise the socket.
// One tab at a time holds the session; a tab keeps its id across reloads (sessionStorage), so a
// reload takes the session back at once, while another tab is offered "use it here".
function tabId() {
  let id = sessionStorage.getItem("p2p-dominoes-tab");
  if (!id) {
    id = Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, "0")).join("");
    sessionStorage.setItem("p2p-dominoes-tab", id);
  }
  return id;
}

function connect(takeover = false) {
  const key = encodeURIComponent(localStorage.getItem("p2p-dominoes-key") || "");
  const query = `tab=${tabId()}&key=${key}` + (takeover ? "&takeover=1" : "");
  const ws = new WebSocket(`ws://${location.host}/ws?${query}`);
  socket = ws;
  ws.addEventListener("open", () => { if (socket === ws) $("connection").textContent = t("connected"); });
  ws.addEventListener("close", () => {
    if (socket === ws && !elsewhereShown) $("connection").textContent = t("disconnected");
  });
  ws.addEventListener("message", (event) => { if (socket === ws) receive(JSON.parse(event.data)); });
}

// "This page is open elsewhere": in another tab of this browser (which may take the session
// back here), or, without the session cookie, wherever the one-time link was opened.
function showElsewhere(takeover) {
  elsewhereShown = true;
  $("lobby").hidden = true;
  $("table").hidden = true;
  $("elsewhere").hidden = false;
  $("elsewhere-tab").hidden = !takeover;
  $("elsewhere-link").hidden = takeover;
  $("take-over").hidden = !takeover;
  $("connection").textContent = "";
}

function takeOver() {
  elsewhereShown = false;
  $("elsewhere").hidden = true;
  if (socket) socket.close();
  connect(true);
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function receive(message) {
  if (message.type === "elsewhere") {
    showElsewhere(Boolean(message.takeover));
  } else if (elsewhereShown) {
    return;
  } else if (message.type === "state") {
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
    for (const name of state.rule_sets || []) rules.add(new Option(`${name} (${t("saved_set")})`, name));
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
  const unfinished = state.unfinished;
  $("unfinished").hidden = !unfinished;
  if (unfinished) $("unfinished-text").textContent = t("unfinished", unfinished.name, unfinished.seat, unfinished.messages) + " ";
  $("resume-button").disabled = state.busy;
  const lines = $("lobby-lines");
  lines.replaceChildren(...state.lines.map((line) => Object.assign(document.createElement("li"), { textContent: line })));
  renderHostLobby();
}

// The table this player hosts, before the start: who sits (removable) and who asks for a seat.
// Every name comes from the network: it is only ever set as textContent.
function renderHostLobby() {
  const desk = state.host_lobby;
  $("host-lobby").hidden = !desk;
  if (!desk) return;
  $("host-seats-title").textContent = t("seats_taken", desk.seats.length, desk.players);
  const seats = $("host-seats");
  seats.replaceChildren(...desk.seats.map((seat) => {
    const item = document.createElement("li");
    item.dataset.seat = seat.seat;
    const label = seat.seat === 0 ? ` (${t("you")})` : (seat.bot ? ` (${t("bot")})` : "");
    item.append(Object.assign(document.createElement("span"), { className: "name", textContent: seat.name + label }), " ");
    item.append(Object.assign(document.createElement("code"), { className: "fp", textContent: seat.fingerprint }));
    if (seat.seat !== 0) {
      const remove = Object.assign(document.createElement("button"), { type: "button", className: "remove", textContent: t("remove") });
      remove.addEventListener("click", () => send({ type: "remove", seat: seat.seat }));
      item.append(" ", remove);
    }
    return item;
  }));
  const requests = $("requests");
  $("no-requests").hidden = desk.pending.length > 0;
  requests.replaceChildren(...desk.pending.map((request) => {
    const item = document.createElement("li");
    item.dataset.request = request.number;
    item.append(Object.assign(document.createElement("strong"), { className: "name", textContent: t("asks", request.name) }));
    item.append(Object.assign(document.createElement("code"), { className: "fp", textContent: request.fingerprint }));
    item.append(Object.assign(document.createElement("span"), { className: "source", textContent: t("from_source", request.source, request.seconds) }));
    for (const [kind, label] of [["approve", t("approve")], ["refuse", t("refuse")]]) {
      const button = Object.assign(document.createElement("button"), { type: "button", className: kind, textContent: label });
      button.addEventListener("click", () => send({ type: kind, request: request.number }));
      item.append(button);
    }
    return item;
  }));
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
  $("resume-button").addEventListener("click", () => send({ type: "resume" }));
  $("to-lobby").addEventListener("click", () => send({ type: "lobby" }));
  $("take-over").addEventListener("click", takeOver);
  document.addEventListener("keydown", (event) => {
    if (!state || state.screen !== "table" || event.target.tagName === "INPUT") return;
    if (event.key === "d" || event.key === "D") { if (!$("draw").disabled) send({ type: "draw" }); }
    else if (event.key === "p" || event.key === "P") { if (!$("pass").disabled) send({ type: "pass" }); }
    else if (event.key === "Escape") { selected = null; renderBoard(); renderHand(); }
  });
  window.addEventListener("resize", () => { if (state && state.screen === "table") renderBoard(); });
  if (document.body.dataset.screen === "elsewhere") showElsewhere(false);  // no session cookie
  else connect();
}

setup();
