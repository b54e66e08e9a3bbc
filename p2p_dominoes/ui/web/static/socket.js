// The socket to this player's own peer. The session cookie (HttpOnly, set when the one-time link
// was opened) and the socket key (kept by enter.js in localStorage, sent as a subprotocol)
// authorise it. One tab at a time holds the session; a tab keeps its id across reloads
// (sessionStorage), so a reload takes the session back at once, while another tab is offered
// "use it here".

const SILENCE_MS = 12000;  // no message for this long (once heartbeats were heard): peer lost

let socket = null;
let lastHeard = 0;
let heartbeats = false;
let lostTimer = null;

function tabId() {
  let id = sessionStorage.getItem("p2p-dominoes-tab");
  if (!id) {
    id = Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, "0")).join("");
    sessionStorage.setItem("p2p-dominoes-tab", id);
  }
  return id;
}

// handlers: { open(), message(msg), lost(reason) } — lost is "closed" or "silent".
export function connect(handlers, takeover = false) {
  // The key goes as a subprotocol, never in the URL: a failed connection's URL is printed in
  // the browser's console (issue 28 L9). It is URL-safe base64, which a protocol name allows.
  const key = localStorage.getItem("p2p-dominoes-key") || "";
  const query = `tab=${tabId()}` + (takeover ? "&takeover=1" : "");
  const ws = new WebSocket(`ws://${location.host}/ws?${query}`, ["p2p-dominoes", `key.${key}`]);
  socket = ws;
  ws.addEventListener("open", () => { if (socket === ws) handlers.open(); });
  ws.addEventListener("close", () => { if (socket === ws) handlers.lost("closed"); });
  ws.addEventListener("message", (event) => {
    if (socket !== ws) return;
    lastHeard = Date.now();
    const message = JSON.parse(event.data);
    if (message.type === "heartbeat") heartbeats = true;
    handlers.message(message);
  });
  clearInterval(lostTimer);
  lostTimer = setInterval(() => {
    if (socket === ws && heartbeats && Date.now() - lastHeard > SILENCE_MS) handlers.lost("silent");
  }, 1000);
}

export function disconnect() {
  if (socket) socket.close();
  socket = null;
}

export function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}
