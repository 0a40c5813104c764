// The big screen (projector, 1920x1080 or 1280x720): it never scrolls. Lobby: the QR
// code and join code large, names as guests join. Then the party's game's board module
// (heist-game's `module`, game.js) draws the tables, the party's progress and the end.
//
// This is the shell: the socket (a spectator's, live.js), every table's latest payload,
// one draw per frame, the lobby. The board module's interface: `mount(root, ctx)` returns
// `{draw(state), table?(msg)}`: `draw({party, tables})` (the party; every table's latest
// payload, by letter) draws into the page's regions #lobby-note (a line under the
// party's name), #tables, #party-bar and #end (templates/events/screen.html), hiding
// what it does not use; `table(msg)` sees each table update first (an event log).
import { gameInfo, gameModule, liveFacade } from "./game.js";
import { Live } from "./live.js";
import { holdAwake } from "./awake.js";
import { h, oncePerFrame, render, startClocks } from "./ui.js";

const app = document.getElementById("app");
const code = app.dataset.code;
const tables = new Map();
let party = null;
let screen = null; // the game's board module, mounted

const sorted = () => [...tables.values()].sort((a, b) => a.table.letter.localeCompare(b.table.letter));

function draw() {
  if (!party || !screen) return;
  const stage = party.status;
  document.body.dataset.stage = stage;
  document.getElementById("join-panel").hidden = stage !== "lobby";
  if (stage === "lobby") drawLobby();
  screen.draw({ party, tables: sorted() });
}

function drawLobby() {
  const names = party.names || [];
  document.getElementById("joined-count").textContent = String(party.guest_count);
  // Newest first: when the wall is full, the oldest names are the ones cut off.
  render(document.getElementById("names"), [...names].reverse().map((n, i) => h("li", { class: i === 0 ? "name newest" : "name", text: n })));
}

// One draw per frame, however many updates arrive in it: a draw lays out every tile
// and fits it (fitTiles measures), and ten tables of fast play send dozens of updates
// a second; drawn one by one, the screen fell seconds behind the room.
const redraw = oncePerFrame(() => draw());

const game = await gameModule();
let live = null;
screen = game.mount(app, { code, game: gameInfo(), live: liveFacade(() => live) });
live = new Live({
  code,
  role: "spectator",
  token: null,
  onSnapshot(snap) {
    party = snap.party;
    tables.clear();
    for (const t of snap.tables) tables.set(t.table.id, t);
    redraw();
  },
  onTable(msg) {
    tables.set(msg.table.id, msg);
    if (screen.table) screen.table(msg);
    redraw();
  },
  onParty(p) {
    const hadTables = party && party.tables && party.tables.length;
    party = p;
    // Seating makes tables this socket has not seen yet: fetch them.
    if (!hadTables && p.tables && p.tables.length) live.resync();
    redraw();
  },
}).start();
holdAwake(null, true); // the big screen stays on all night (awake.js); no phone's note on it
startClocks(() => live.serverNow());
window.heistLive = live;
window.addEventListener("resize", () => redraw());
