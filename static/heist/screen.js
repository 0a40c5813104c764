// The big screen (projector): every table's public view, read-only.
import { Live } from "./live.js";
import { noteEvents, tableCard } from "./tableview.js";
import { render, startClocks, tickClocks } from "./ui.js";

const app = document.getElementById("app");
const code = app.dataset.code;
const tables = new Map();
const logs = new Map();
let party = null;

function draw() {
  const note = document.getElementById("lobby-note");
  if (party) {
    note.textContent =
      party.status === "lobby"
        ? `${party.guest_count} guest${party.guest_count === 1 ? "" : "s"} in. Join now and write your number on your gift!`
        : party.status === "playing" ? "The heist is on." : "The party is over.";
    document.getElementById("join-panel").hidden = party.status !== "lobby";
  }
  render(
    document.getElementById("tables"),
    [...tables.values()].sort((a, b) => a.table.letter.localeCompare(b.table.letter)).map((t) => tableCard(t, logs.get(t.table.id))),
  );
  tickClocks();
}

const live = new Live({
  code,
  role: "spectator",
  token: null,
  onSnapshot(snap) {
    party = snap.party;
    tables.clear();
    for (const t of snap.tables) tables.set(t.table.id, t);
    draw();
  },
  onTable(msg) {
    tables.set(msg.table.id, msg);
    noteEvents(logs, msg);
    draw();
  },
  onParty(p) {
    const hadTables = party && party.tables && party.tables.length;
    party = p;
    // Seating makes tables this socket has not seen yet: fetch them.
    if (!hadTables && p.tables && p.tables.length) live.resync();
    draw();
  },
}).start();
startClocks(() => live.serverNow());
