// The big screen (projector): every table's public view, read-only; with several
// tables also the gate, the relay ring, the captains' draws and what the relay moved.
import { Live } from "./live.js";
import { drawnSeatList, gateText, isMultiTable, relayResultList, ringLine } from "./party.js";
import { storyLink } from "./story-link.js";
import { noteEvents, tableCard } from "./tableview.js";
import { h, render, startClocks, tickClocks } from "./ui.js";

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
    if (party.status === "over") note.append(" ", storyLink(code, { screen: true }));
    document.getElementById("join-panel").hidden = party.status !== "lobby";
  }
  const sorted = [...tables.values()].sort((a, b) => a.table.letter.localeCompare(b.table.letter));
  render(document.getElementById("tables"), sorted.map((t) => tableCard(t, logs.get(t.table.id))));
  drawPartyBar(sorted);
  tickClocks();
}

function drawPartyBar(sorted) {
  const bar = document.getElementById("party-bar");
  bar.hidden = !(party && party.status !== "lobby" && isMultiTable(party));
  if (bar.hidden) return;
  const relay = party.relay;
  const parts = [
    h("h2", { id: "party-bar-h", text: relay ? "The relay" : "The gate" }),
    relay && relay.status === "done"
      ? h("p", { class: "gate-count done" }, h("span", { "aria-hidden": "true", text: "✓ " }), "The relay has run: every table plays rounds 3 and 4.")
      : h("p", { class: `gate-count ${party.gate.open ? "open" : ""}` }, h("span", { "aria-hidden": "true", text: party.gate.open ? "✓ " : "‖ " }), gateText(party)),
  ];
  if (!relay) {
    parts.push(h("p", { class: "hint", text: "Every table plays rounds 1 and 2, then waits for the others. Then one drawn player per table carries their gift to the next table." }));
  } else {
    parts.push(ringLine(relay, "ring big-ring"));
    parts.push(relay.status === "open" ? drawnSeatList(relay, sorted) : relayResultList(relay));
  }
  render(bar, parts);
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
