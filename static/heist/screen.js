// The big screen (projector, 1920x1080 or 1280x720): it never scrolls. Lobby: the QR
// code and join code large, names as guests join. Play: a tile per table with its
// round and progress, the gate as one room-wide progress bar. The relay: the ring, each
// drawn seat, the gifts moving table to table. The reveal. The end: who takes what
// home, paged when it does not fit. Motion only where prefers-reduced-motion allows;
// nothing flashes.
import { Live } from "./live.js";
import { gateProgress, gateSeen, isMultiTable, ringLine, walkCount, walkOf } from "./party.js";
import { ROYAL_STORY, storyLink } from "./story-link.js";
import { noteEvents, statusLine } from "./tableview.js";
import { giftLabel, h, oncePerFrame, render, roundName, seatName, startClocks, tickClocks } from "./ui.js";
import { leaderRow, renderLeaderboard } from "./royal/leaderboard.js";
import { renderTable } from "./royal/table.js";

const app = document.getElementById("app");
const code = app.dataset.code;
// A Royal Heist party: each table's tile (royal/table.js) and the leaderboard, to the
// end; none of Yankee Heist's gifts, relay or story.
const ROYAL = app.dataset.game === "royal";
const tables = new Map();
const logs = new Map();
let party = null;
let endPage = 0;
let endTimer = null;

const sorted = () => [...tables.values()].sort((a, b) => a.table.letter.localeCompare(b.table.letter));

/** How far a table is through its four rounds (0-1). */
function progress(view) {
  if (view.phase === "over") return 1;
  return Math.min(1, ((view.round - 1) * view.players + Math.min(view.turn, view.players)) / (4 * view.players));
}

function draw() {
  if (!party) return;
  const stage = party.status;
  document.body.dataset.stage = stage;
  const note = document.getElementById("lobby-note");
  if (ROYAL) {
    drawRoyal(stage, note);
    return;
  }
  note.textContent = stage === "lobby"
    ? "Scan the code, join, and write your number on your gift."
    : stage === "playing" ? "The heist is on." : "The party is over: everyone takes a gift home.";
  if (stage === "over") note.append(" ", storyLink(code, { screen: true }));
  document.getElementById("join-panel").hidden = stage !== "lobby";
  if (stage === "lobby") drawLobby();
  const list = sorted();
  const tilesBox = document.getElementById("tables");
  tilesBox.hidden = stage === "lobby" || stage === "over";
  tilesBox.dataset.count = String(list.length);
  if (!tilesBox.hidden) {
    render(tilesBox, list.map(tile));
    fitTiles(tilesBox);
  }
  drawPartyBar(list);
  drawEnd(list);
  tickClocks();
}

function drawRoyal(stage, note) {
  note.textContent = stage === "lobby" ? "Scan the code and join." : stage === "playing" ? "The heists are on." : "The heists are over.";
  if (stage === "over") note.append(" ", storyLink(code, { screen: true, text: ROYAL_STORY }));
  document.getElementById("join-panel").hidden = stage !== "lobby";
  document.getElementById("party-bar").hidden = true;
  document.getElementById("end").hidden = true;
  if (stage === "lobby") drawLobby();
  const list = sorted();
  const tilesBox = document.getElementById("tables");
  tilesBox.hidden = stage === "lobby";
  tilesBox.dataset.count = String(list.length);
  const rows = list.flatMap(({ view, table: meta }) => view.seats.map((s) => leaderRow(s, seatName(meta, s.seat), meta.letter)));
  if (!tilesBox.hidden) render(tilesBox, [renderLeaderboard(rows, { limit: 10 }), list.map((t) => renderTable(t.view, t.table, { tile: true }))]);
  tickClocks();
}

function drawLobby() {
  const names = party.names || [];
  document.getElementById("joined-count").textContent = String(party.guest_count);
  // Newest first: when the wall is full, the oldest names are the ones cut off.
  render(document.getElementById("names"), [...names].reverse().map((n, i) => h("li", { class: i === 0 ? "name newest" : "name", text: n })));
}

function tile(payload) {
  const { view, table: meta } = payload;
  const pct = Math.round(progress(view) * 100);
  const relay = party.relay;
  let badge = null;
  if (view.phase === "reveal") badge = h("p", { class: "tile-badge reveal", text: "Unwrap your gifts!" });
  else if (view.phase === "gate" && walkOf(relay, meta.letter)) {
    const w = walkOf(relay, meta.letter);
    badge = h("p", { class: `tile-badge walk ${w.arrived ? "arrived" : "walking"}`, text: w.arrived ? `Gift ${w.mine.received} is here` : `Waiting for gift ${w.mine.received}` });
  } else if (view.phase === "gate") badge = h("p", { class: "tile-badge gate", text: "At the gate" });
  else if (view.phase === "over") badge = h("p", { class: "tile-badge over", text: "Finished" });
  let relayLine = null;
  if (relay && relay.status === "open" && view.phase === "gate") {
    const seat = view.relay_seat;
    relayLine = seat === null || seat === undefined
      ? h("p", { class: "tile-relay pending", text: "Captain draws a seat…" })
      : h("p", { class: "tile-relay drawn" }, `${seatName(meta, seat)} carries `, h("span", { class: "gift-tag", text: `gift ${giftLabel(view.seats[seat].gift)}` }));
  }
  const lines = logs.get(meta.id) || [];
  const quiet = view.phase === "gate" || view.phase === "over";
  const last = quiet || !lines.length ? null : lines[lines.length - 1];
  const earlier = quiet ? [] : lines.slice(-4, -1).reverse();
  // The round as two lines that wrap whole ("Round 2" / "THE SCRAMBLE"), never cut.
  const round = view.phase === "over"
    ? [h("span", { class: "round-no", text: "Game over" })]
    : [h("span", { class: "round-no", text: `Round ${view.round}` }), h("span", { class: "round-name", text: roundName(view.round) })];
  return h("article", { class: `screen-tile phase-${view.phase}`, "aria-labelledby": `st-${meta.id}`, data: { tableId: meta.id, letter: meta.letter, version: payload.version, phase: view.phase } },
    h("h2", { id: `st-${meta.id}`, class: "tile-head" },
      h("span", { class: "table-letter", text: meta.letter }),
      h("span", { class: "round" }, round)),
    h("div", { class: "bar", role: "progressbar", "aria-valuemin": 0, "aria-valuemax": 100, "aria-valuenow": pct, "aria-label": `Table ${meta.letter} progress` },
      fill(pct)),
    badge,
    relayLine,
    ["over", "gate", "reveal"].includes(view.phase) ? null : h("p", { class: "tile-status" }, tileDoing(view, meta)),
    last ? h("p", { class: "tile-last", data: { optional: "0" }, text: last }) : null,
    // Shown where the tile has room for them (fitTiles drops them otherwise, last first).
    earlier.length ? h("ol", { class: "plain tile-log", data: { optional: "2" }, "aria-label": `Earlier at table ${meta.letter}` }, earlier.map((t) => h("li", { text: t }))) : null,
    tileSeats(view, meta));
}

/** Who sits at the table: the one whose turn it is (or who is asked) marked, each with
 * the gift in front of them. */
function tileSeats(view, meta) {
  const asked = new Set(view.window ? view.window.waiting : []);
  return h("ol", { class: "plain tile-seats", data: { optional: "1" }, "aria-label": `Seats at table ${meta.letter}` },
    view.seats.map((s) => {
      const turn = view.active === s.seat && view.phase !== "over";
      return h("li", { class: turn ? "turn" : asked.has(s.seat) ? "asked" : "" },
        h("span", { class: "mark-icon", "aria-hidden": "true", text: turn ? "▶" : asked.has(s.seat) ? "?" : "" }),
        h("span", { class: "seat-who", text: seatName(meta, s.seat) }),
        " ",
        h("span", { class: "gift-tag", text: giftLabel(s.gift) }));
    }));
}

/** Drop a tile's optional parts, least needed first, until it shows whole. */
function fitTiles(box) {
  for (const tileEl of box.querySelectorAll(".screen-tile")) {
    const parts = [...tileEl.querySelectorAll("[data-optional]")].sort((a, b) => Number(b.dataset.optional) - Number(a.dataset.optional));
    const overflows = () => tileEl.scrollHeight > tileEl.clientHeight + 1;
    for (const part of parts) {
      if (!overflows()) break;
      if (part.classList.contains("tile-last")) {
        part.classList.add("one-line"); // the last move in one line rather than none
        if (!overflows()) break;
      }
      part.hidden = true;
    }
  }
}

/** What the table is doing, short enough for a tile: whose turn, who is asked, who
 * discards (the host's and phones' status line is a whole sentence). */
function tileDoing(view, meta) {
  const name = (seat) => seatName(meta, seat);
  if (view.phase === "action") return [h("span", { "aria-hidden": "true", text: "▶ " }), `${name(view.active)}'s turn`];
  if (view.phase === "reaction" && view.window) {
    const w = view.window;
    return [h("strong", { text: `${name(w.active)} plays ${w.label}` }), h("span", { class: "asking", text: `asking ${w.waiting.map(name).join(", ")}` })];
  }
  if (view.phase === "trim") return [h("span", { "aria-hidden": "true", text: "✂ " }), `${Object.keys(view.trims).map((s) => name(Number(s))).join(", ")} discard${Object.keys(view.trims).length > 1 ? "" : "s"}`];
  return statusLine(view, meta);
}

/** Whether the gift walking to table `letter` has arrived. */
function arrivedAt(relay, letter) {
  const w = walkOf(relay, letter);
  return Boolean(w && w.arrived);
}

/** A progress bar's fill. Its width is set through the CSSOM: the CSP forbids style
 * attributes (style-src 'self'), not styles set from a script of this origin. */
function fill(pct) {
  const el = h("span", { class: "fill" });
  el.style.width = `${pct}%`;
  return el;
}

function drawPartyBar(list) {
  const bar = document.getElementById("party-bar");
  bar.hidden = !(party.status === "playing" && isMultiTable(party));
  if (bar.hidden) return;
  const relay = party.relay;
  if (!relay) {
    const pct = Math.round(gateProgress(list) * 100);
    const g = gateSeen(party, list);
    render(bar,
      h("h2", { id: "party-bar-h", text: `The gate: ${g.at_gate} of ${g.tables} tables there` }),
      h("div", { class: "bar room", role: "progressbar", "aria-valuemin": 0, "aria-valuemax": 100, "aria-valuenow": pct, "aria-label": "The room's progress to the gate" },
        fill(pct)),
      h("p", { class: "hint", text: g.open ? "Every table is at the gate: the relay opens next." : "Every table plays rounds 1 and 2, then waits here for the others." }));
    return;
  }
  if (relay.status === "open") {
    const drawn = list.filter((t) => t.view.relay_seat !== null && t.view.relay_seat !== undefined).length;
    render(bar,
      h("h2", { id: "party-bar-h", text: `The relay: ${drawn} of ${relay.ring.length} seats drawn` }),
      ringLine(relay, "ring big-ring"));
    return;
  }
  // The walk: each drawn gift moves one table along the ring, carried by its guest.
  const walking = relay.status === "walk";
  const moving = walking || list.some((t) => t.view.round === 3);
  const count = walkCount(relay);
  render(bar,
    h("h2", { id: "party-bar-h", text: walking ? `The relay: ${count.arrived} of ${count.gifts} gifts arrived` : moving ? "The relay: every drawn gift moved one table along" : "The relay has run" }),
    ringLine(relay, "ring big-ring"),
    moving
      ? h("ol", { class: "relay-moves", "aria-label": "Gifts moving" }, relay.result.map((r) =>
          h("li", { class: "move", data: { table: r.table } },
            h("span", { class: "from", text: r.table }),
            h("span", { class: "track", "aria-hidden": "true" }, h("span", { class: `gift-tag ${arrivedAt(relay, r.sent_to) ? "arrived" : "moving"}`, text: `gift ${r.sent}` })),
            h("span", { class: "to", text: r.sent_to }),
            h("span", { class: "sr-only", text: `${r.guest} carries gift ${r.sent} from table ${r.table} to table ${r.sent_to}` }))))
      : null);
}

/** The end: who takes what home, paged (a page every 12 s) when it does not fit. */
function drawEnd(list) {
  const box = document.getElementById("end");
  const over = party.status === "over";
  box.hidden = !over;
  clearInterval(endTimer);
  if (!over) return;
  const rows = [];
  for (const { view, table: meta } of list) {
    if (!view.result) continue;
    view.result.forEach((gift, seat) => {
      const s = view.seats[seat];
      rows.push({ name: seatName(meta, seat), letter: meta.letter, gift: giftLabel(gift), description: s && s.description ? s.description : "" });
    });
    // Leftover vault gifts go back to whoever brought them.
    for (const v of view.vault || []) {
      rows.push({ name: "Back from the vault", letter: meta.letter, gift: giftLabel(v.gift), description: v.description || "" });
    }
  }
  const pages = paginate(box, rows);
  endPage = endPage % pages.length;
  const show = () => renderEnd(box, pages[endPage], pages.length);
  show();
  if (pages.length > 1) endTimer = setInterval(() => { endPage = (endPage + 1) % pages.length; show(); }, 12000);
}

function renderEnd(box, chunk, pages) {
  render(box,
    h("h2", { id: "end-h", text: "Who takes what home" }),
    pages > 1 ? h("p", { class: "page-no", text: `Page ${endPage + 1} of ${pages}` }) : null,
    h("ul", { class: "plain end-list" }, chunk.map((r) => h("li", {},
      h("strong", { text: r.name }), ` (table ${r.letter}) `, h("span", { class: "gift-tag", text: `gift ${r.gift}` }), r.description ? ` ${r.description}` : ""))));
}

/** The rows in pages, measured on the screen itself: each page the most rows that do
 * not overflow the box (rows wrap rather than cut a name or a gift short). */
function paginate(box, rows) {
  const fits = (chunk) => {
    renderEnd(box, chunk, 2);
    return box.scrollHeight <= box.clientHeight + 1;
  };
  if (fits(rows)) return [rows];
  const pages = [];
  let i = 0;
  while (i < rows.length) {
    let lo = 1;
    let hi = rows.length - i;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (fits(rows.slice(i, i + mid))) lo = mid;
      else hi = mid - 1;
    }
    pages.push(rows.slice(i, i + lo));
    i += lo;
  }
  return pages;
}

// One draw per frame, however many updates arrive in it: a draw lays out every tile
// and fits it (fitTiles measures), and ten tables of fast play send dozens of updates
// a second; drawn one by one, the screen fell seconds behind the room.
const redraw = oncePerFrame(() => draw());

const live = new Live({
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
    noteEvents(logs, msg);
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
startClocks(() => live.serverNow());
window.heistLive = live;
window.addEventListener("resize", () => redraw());
