// Yankee Heist on the big screen (the board module: static/heist/screen.js is its shell
// and says what `mount` returns). Play: a tile per table with its round and progress, the
// gate as one room-wide progress bar. The relay: the ring, each drawn seat, the gifts
// moving table to table. The reveal. The end: who takes what home, paged when it does
// not fit. Motion only where prefers-reduced-motion allows; nothing flashes.
import { gateProgress, gateSeen, isMultiTable, ringLine, walkCount, walkOf } from "../heist/party.js";
import { storyLink } from "../heist/story-link.js";
import { noteEvents, statusLine, toGate } from "./tableview.js";
import { fill, h, render, seatName, tickClocks } from "../heist/ui.js";
import { giftLabel, roundName } from "./words.js";

const logs = new Map();
let party = null;
let code = "";
let endPage = 0;
let endTimer = null;

function draw(state) {
  party = state.party;
  const stage = party.status;
  const note = document.getElementById("lobby-note");
  note.textContent = stage === "lobby"
    ? gettext("Scan the code, join, and write your number on your gift.")
    : stage === "playing" ? gettext("The heist is on.") : gettext("The party is over: everyone takes a gift home.");
  if (stage === "over") note.append(" ", storyLink(code, { screen: true }));
  const list = state.tables;
  const tilesBox = document.getElementById("tables");
  tilesBox.hidden = stage === "lobby" || stage === "over";
  tilesBox.dataset.count = String(list.length);
  if (!tilesBox.hidden) {
    render(tilesBox, list.map(tile)); // the shell lays them out, then calls fitTiles (mount's fit)
  }
  drawPartyBar(list);
  drawEnd(list);
  tickClocks();
}

/** How far a table is through its four rounds (0-1). */
function progress(view) {
  if (view.phase === "over") return 1;
  return Math.min(1, ((view.round - 1) * view.players + Math.min(view.turn, view.players)) / (4 * view.players));
}

function tile(payload) {
  const { view, table: meta } = payload;
  const pct = Math.round(progress(view) * 100);
  const relay = party.relay;
  let badge = null;
  if (view.phase === "reveal") badge = h("p", { class: "tile-badge reveal", text: gettext("Unwrap your gifts!") });
  else if (view.phase === "gate" && walkOf(relay, meta.letter)) {
    const w = walkOf(relay, meta.letter);
    badge = h("p", { class: `tile-badge walk ${w.arrived ? "arrived" : "walking"}`, text: interpolate(w.arrived ? gettext("Gift %(gift)s is here") : gettext("Waiting for gift %(gift)s"), { gift: w.mine.received }, true) });
  } else if (view.phase === "gate") badge = h("p", { class: "tile-badge gate", text: gettext("At the gate") });
  else if (view.phase === "over") badge = h("p", { class: "tile-badge over", text: gettext("Finished") });
  let relayLine = null;
  if (relay && relay.status === "open" && view.phase === "gate") {
    const seat = view.relay_seat;
    relayLine = seat === null || seat === undefined
      ? h("p", { class: "tile-relay pending", text: gettext("Captain draws a seat…") })
      : h("p", { class: "tile-relay drawn" }, fill(gettext("%(name)s carries %(gift)s"), {
        name: seatName(meta, seat),
        gift: h("span", { class: "gift-tag", text: interpolate(gettext("gift %(gift)s"), { gift: giftLabel(view.seats[seat].gift) }, true) }),
      }));
  }
  const lines = logs.get(meta.id) || [];
  const quiet = view.phase === "gate" || view.phase === "over";
  const last = quiet || !lines.length ? null : lines[lines.length - 1];
  // Read in the order things happened, the newest last: "⊘ Bea blocked it" right under
  // the move it blocked (newest first, it sat under the next move and read as its block).
  const earlier = quiet ? [] : lines.slice(-4, -1);
  // The round as two lines that wrap whole ("Round 2" / "THE SCRAMBLE"), never cut.
  const round = view.phase === "over"
    ? [h("span", { class: "round-no", text: gettext("Game over") })]
    : [h("span", { class: "round-no", text: interpolate(gettext("Round %(round)s"), { round: view.round }, true) }), h("span", { class: "round-name", text: roundName(view.round) })];
  return h("article", { class: `screen-tile phase-${view.phase}`, "aria-labelledby": `st-${meta.id}`, data: { tableId: meta.id, letter: meta.letter, version: payload.version, phase: view.phase } },
    h("h2", { id: `st-${meta.id}`, class: "tile-head" },
      h("span", { class: "table-letter", text: meta.letter }),
      h("span", { class: "round" }, round)),
    h("div", { class: "bar", role: "progressbar", "aria-valuemin": 0, "aria-valuemax": 100, "aria-valuenow": pct, "aria-label": interpolate(gettext("Table %(letter)s progress"), { letter: meta.letter }, true) },
      barFill(pct)),
    badge,
    relayLine,
    ["over", "gate", "reveal"].includes(view.phase) ? null : h("p", { class: "tile-status" }, tileDoing(view, meta)),
    // The lines before the last, where the tile has room for them (fitTiles drops them first).
    earlier.length ? h("ol", { class: "plain tile-log", data: { optional: "2" }, "aria-label": interpolate(gettext("Earlier at table %(letter)s"), { letter: meta.letter }, true) }, earlier.map((t) => h("li", { text: t }))) : null,
    last ? h("p", { class: "tile-last", data: { optional: "0" }, text: last }) : null,
    tileSeats(view, meta));
}

/** Who sits at the table: the one whose turn it is (or who is asked) marked, each with
 * the gift in front of them. */
function tileSeats(view, meta) {
  const asked = new Set(view.window ? view.window.waiting : []);
  return h("ol", { class: "plain tile-seats", data: { optional: "1" }, "aria-label": interpolate(gettext("Seats at table %(letter)s"), { letter: meta.letter }, true) },
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
  if (view.phase === "action") return [h("span", { "aria-hidden": "true", text: "▶ " }), interpolate(gettext("%(name)s's turn"), { name: name(view.active) }, true)];
  if (view.phase === "reaction" && view.window) {
    const w = view.window;
    return [
      h("strong", { text: interpolate(gettext("%(name)s plays %(card)s"), { name: name(w.active), card: w.label }, true) }),
      h("span", { class: "asking", text: interpolate(gettext("asking %(names)s"), { names: w.waiting.map(name).join(", ") }, true) }),
    ];
  }
  if (view.phase === "trim") {
    const who = Object.keys(view.trims).map((s) => name(Number(s)));
    return [h("span", { "aria-hidden": "true", text: "✂ " }), interpolate(ngettext("%(names)s discards", "%(names)s discard", who.length), { names: who.join(", ") }, true)];
  }
  return statusLine(view, meta);
}

/** Whether the gift walking to table `letter` has arrived. */
function arrivedAt(relay, letter) {
  const w = walkOf(relay, letter);
  return Boolean(w && w.arrived);
}

/** A progress bar's fill. Its width is set through the CSSOM: the CSP forbids style
 * attributes (style-src 'self'), not styles set from a script of this origin. */
function barFill(pct) {
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
    // the room's way to the gate: every table's turns of rounds 1-2
    const pct = Math.round(gateProgress(list, (t) => toGate(t.view)) * 100);
    const g = gateSeen(party, list);
    render(bar,
      h("h2", { id: "party-bar-h", text: interpolate(ngettext("The gate: %(at)s of %(tables)s table there", "The gate: %(at)s of %(tables)s tables there", g.tables), { at: g.at_gate, tables: g.tables }, true) }),
      h("div", { class: "bar room", role: "progressbar", "aria-valuemin": 0, "aria-valuemax": 100, "aria-valuenow": pct, "aria-label": gettext("The room's progress to the gate") },
        barFill(pct)),
      h("p", { class: "hint", text: g.open ? gettext("Every table is at the gate: the relay opens next.") : gettext("Every table plays rounds 1 and 2, then waits here for the others.") }));
    return;
  }
  if (relay.status === "open") {
    const drawn = list.filter((t) => t.view.relay_seat !== null && t.view.relay_seat !== undefined).length;
    render(bar,
      h("h2", { id: "party-bar-h", text: interpolate(ngettext("The relay: %(drawn)s of %(seats)s seat drawn", "The relay: %(drawn)s of %(seats)s seats drawn", relay.ring.length), { drawn, seats: relay.ring.length }, true) }),
      ringLine(relay, "ring big-ring"));
    return;
  }
  // The walk: each drawn gift moves one table along the ring, carried by its guest.
  const walking = relay.status === "walk";
  const moving = walking || list.some((t) => t.view.round === 3);
  const count = walkCount(relay);
  render(bar,
    h("h2", { id: "party-bar-h", text: walking
      ? interpolate(ngettext("The relay: %(arrived)s of %(gifts)s gift arrived", "The relay: %(arrived)s of %(gifts)s gifts arrived", count.gifts), { arrived: count.arrived, gifts: count.gifts }, true)
      : moving ? gettext("The relay: every drawn gift moved one table along") : gettext("The relay has run") }),
    ringLine(relay, "ring big-ring"),
    moving
      ? h("ol", { class: "relay-moves", "aria-label": gettext("Gifts moving") }, relay.result.map((r) =>
          h("li", { class: "move", data: { table: r.table } },
            h("span", { class: "from", text: r.table }),
            h("span", { class: "track", "aria-hidden": "true" }, h("span", { class: `gift-tag ${arrivedAt(relay, r.sent_to) ? "arrived" : "moving"}`, text: interpolate(pgettext("a gift's tag moving along the relay's track: at most about 7 characters", "gift %(gift)s"), { gift: r.sent }, true) })),
            h("span", { class: "to", text: r.sent_to }),
            h("span", { class: "sr-only", text: interpolate(gettext("%(guest)s carries gift %(gift)s from table %(from)s to table %(to)s"), { guest: r.guest, gift: r.sent, from: r.table, to: r.sent_to }, true) }))))
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
    // Leftover vault gifts go back to whoever brought them (the party's `vault_returns`
    // names them once it is over).
    for (const v of view.vault || []) {
      const back = (party.vault_returns || []).find((r) => r.table === meta.letter && r.gift === v.gift);
      const owner = back ? back.returns_to : "";
      rows.push({ name: owner || gettext("Back from the vault"), vault: Boolean(owner), letter: meta.letter, gift: giftLabel(v.gift), description: v.description || "" });
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
    h("h2", { id: "end-h", text: gettext("Who takes what home") }),
    pages > 1 ? h("p", { class: "page-no", text: interpolate(gettext("Page %(page)s of %(pages)s"), { page: endPage + 1, pages }, true) }) : null,
    h("ul", { class: "plain end-list" }, chunk.map((r) => h("li", { class: r.vault ? "vault-return" : null },
      fill(r.vault ? gettext("%(name)s (back from the vault, table %(letter)s) %(gift)s") : gettext("%(name)s (table %(letter)s) %(gift)s"), {
        name: h("strong", { text: r.name }),
        letter: r.letter,
        gift: h("span", { class: "gift-tag", text: interpolate(gettext("gift %(gift)s"), { gift: r.gift }, true) }),
      }),
      r.description ? ` ${r.description}` : ""))));
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

/** Draw Yankee Heist's big screen in the page's regions. */
export function mount(root, ctx) {
  code = ctx.code;
  return {
    table(msg) {
      noteEvents(logs, msg);
    },
    draw,
    fit: fitTiles,
  };
}
