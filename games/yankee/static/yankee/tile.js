// Yankee Heist on the host's dashboard (the tile module: static/heist/host.js is its shell
// and says what `mount` returns): one table's card (one table), or a tile per table with
// its details on demand (several); the captain's duties the host may do at any table
// (start round 2, pass a reaction after 60 s, draw the relay seat, a relayed gift in);
// the end: who keeps which gift.
import { isMultiTable, partyResultTables, walkOf, walkText } from "../heist/party.js";
import { fmt, h, render, seatName } from "../heist/ui.js";
import { eventLog, noteEvents, roundTitle, statusLine, tableCard, toGate, vaultList, windowBox } from "./tableview.js";
import { giftLabel, relayWords } from "./words.js";

// The relay's sentences on the host's party bar, in Yankee Heist's rounds.
export { relayWords };

// What the shell lends (mount's ctx): its state, socket and helpers, under the names the
// dashboard's code has always used.
let S = null;
let live = null;
let root = null;
let DUTIES = null; // the captain's duties the host may do at any table (for tableview.js)
let busy = null;
let openDetails = null;
let tabletsAt = null;
let tabletsPanel = null;
let guestsAt = null;
let seatActions = null;
let giftArrived = null;
let listOf = null;
let whoWaits = null; // the shell's `waitingFor`: this module's export, or the shell's words
const logs = new Map(); // table id -> event lines

/** Who the table waits for in Yankee Heist's steps, in a few words ("Bea's turn",
 * "Asking Cam, Dee") and since when: the shell's `waitingFor` (the dashboard's idle
 * alert) asks the game; null for the gate and the end, which the shell words. */
export function waitingFor(view, meta, { listOf: list }) {
  const name = (seat) => seatName(meta, seat);
  switch (view.phase) {
    case "action": return { text: fmt(gettext("%(name)s's turn"), { name: name(view.active) }), since: meta.acted_at };
    case "reaction": return { text: fmt(gettext("Asking %(names)s"), { names: list((view.window ? view.window.waiting : []).map(name)) }), since: meta.window_opened_at };
    case "trim": {
      const seats = Object.keys(view.trims || {}).map((x) => name(Number(x)));
      return { text: fmt(ngettext("%(names)s discarding", "%(names)s discarding", seats.length), { names: list(seats) }), since: meta.acted_at };
    }
    case "reveal": return { text: gettext("Unwrapping: the captain starts round 2"), since: meta.acted_at };
    default: return null;
  }
}

/** Where a table short of the gate stands, for the host's party bar ("Everyone waits
 * for: B (round 2, turn 3 of 5)"), and how far it is on its way there (0-1). */
export function beforeGate(view, meta) {
  return {
    text: fmt(view.phase === "reveal"
      ? gettext("%(letter)s (unwrapping after round 1)")
      : gettext("%(letter)s (round %(round)s, turn %(turn)s of %(players)s)"),
    { letter: meta.letter, round: view.round, turn: Math.min(view.turn + 1, view.players), players: view.players }),
    progress: toGate(view),
  };
}

/** Every table: one table's card with its tablets, or with several a tile per table,
 * all on one screen (details on demand). */
function draw(tables) {
  if (isMultiTable(S.party)) render(root, tables.map((t) => tile(t)));
  else render(root, tables.map((t) => [tableCard(t, logs.get(t.table.id), DUTIES), tabletsPanel(t.table)]));
}

function tile(payload) {
  const { view, table: meta } = payload;
  const letter = meta.letter;
  const guests = guestsAt(letter);
  const offline = guests.filter((g) => !g.online);
  const captain = guests.find((g) => g.captain);
  const walk = view.phase === "gate" ? walkOf(S.party.relay, letter) : null;
  const gate = walk ? walkStatus(walk) : gateStatus(view);
  // The host's "Gift arrived" overrides are in the party bar (the tiles keep their size).
  const who = walk
    ? {
        text: walk.arrived
          ? fmt(gettext("Waiting for %(name)s to deliver gift %(gift)s"), { name: walk.mine.guest, gift: walk.mine.sent })
          : fmt(gettext("Waiting for gift %(gift)s from %(letter)s (%(name)s)"), { gift: walk.mine.received, letter: walk.from.table, name: walk.from.guest }),
        since: null,
      }
    : whoWaits(view, meta);
  const tablets = tabletsAt(meta.id);
  return h("article", {
    class: `tile phase-${view.phase}${offline.length ? " has-offline" : ""}`,
    "aria-labelledby": `tile-${meta.id}-h`,
    data: { tableId: meta.id, letter, version: payload.version, phase: view.phase, round: view.round },
  },
  h("div", { class: "tile-top" },
    h("h2", { id: `tile-${meta.id}-h`, class: "tile-head" },
      h("span", { class: "table-letter", text: letter }),
      h("span", { class: "sr-only", text: fmt(gettext("Table %(letter)s, "), { letter }) }),
      h("span", { class: "round", text: view.phase === "over" ? gettext("Game over") : fmt(gettext("Round %(round)s · turn %(turn)s of %(players)s"), { round: view.round, turn: Math.min(view.turn + 1, view.players), players: view.players }) })),
    h("button", { class: "btn small details-btn", type: "button", data: { key: `details-${meta.id}` }, "aria-label": fmt(gettext("Details of table %(letter)s"), { letter }), "aria-haspopup": "dialog",
      on: { click: () => openDetails(meta.id) } }, gettext("Details"))),
  h("p", { class: "tile-who" }, h("strong", { text: who.text }),
    who.since ? h("span", { class: "clock", data: { openedAt: who.since, clock: "" }, text: "" }) : null),
  h("p", { class: `gate-status ${gate.cls}` }, h("span", { "aria-hidden": "true", text: `${gate.icon} ` }), gate.short),
  h("p", { class: `presence-line ${offline.length ? "some-off" : "all-on"}` },
    h("span", { "aria-hidden": "true", text: offline.length ? "○ " : "● " }),
    offline.length ? fmt(gettext("Offline: %(names)s"), { names: listOf(offline.map((g) => g.name)) }) : gettext("Everyone connected")),
  h("p", { class: "captain-line" }, h("span", { "aria-hidden": "true", text: "⚑ " }), captain ? fmt(gettext("Captain: %(name)s"), { name: captain.name }) : gettext("No captain"),
    h("span", { class: tablets.length ? "tablet-mark on" : "tablet-mark off", text: tablets.length ? gettext(" · tablet ✓") : gettext(" · no tablet") })),
  view.phase === "reveal"
    ? h("button", { class: "btn small", type: "button", data: { key: `reveal-${meta.id}` }, "aria-label": fmt(gettext("Start round 2 at table %(letter)s"), { letter }), on: { click: (ev) => DUTIES.onConfirm(meta.id, ev.currentTarget) } }, gettext("Start round 2"))
    : null,
  );
}

/** A table waiting for its relay walks, in the tiles' words. */
function walkStatus(walk) {
  return walk.arrived
    ? {
        icon: "◐",
        text: fmt(gettext("Gift %(gift)s arrived; waiting for its carrier %(name)s"), { gift: walk.mine.received, name: walk.mine.guest }),
        short: fmt(gettext("Gift %(gift)s is in"), { gift: walk.mine.received }),
        cls: "walking",
      }
    : { icon: "⇢", text: fmt(gettext("Waiting for gift %(gift)s from table %(letter)s"), { gift: walk.mine.received, letter: walk.from.table }), short: gettext("Relay gift on its way"), cls: "walking" };
}

/** Where a table is on its way to (or past) the gate, in words and an icon. */
function gateStatus(view) {
  if (view.phase === "over") return { icon: "■", text: gettext("Finished round 4"), short: gettext("Finished"), cls: "over" };
  if (view.phase === "gate") return { icon: "‖", text: gettext("At the gate: finished round 2"), short: gettext("At the gate"), cls: "at-gate" };
  if (view.relayed) return { icon: "✓", text: gettext("Relay done; playing on"), short: gettext("Relay done"), cls: "past" };
  if (view.gate) {
    const turn = Math.min(view.turn + 1, view.players);
    return {
      icon: "▶",
      text: fmt(gettext("Not at the gate yet: round %(round)s, turn %(turn)s of %(players)s"), { round: view.round, turn, players: view.players }),
      short: gettext("Not at the gate yet"),
      cls: "playing",
    };
  }
  return { icon: "▶", text: gettext("Playing"), short: gettext("Playing"), cls: "playing" };
}

function compactCard(payload) {
  const { view, table: meta } = payload;
  const letter = meta.letter;
  const guests = guestsAt(letter);
  const bySeat = new Map(guests.map((g) => [g.seat, g]));
  const offline = guests.filter((g) => !g.online);
  const captain = guests.find((g) => g.captain);
  const relay = S.party.relay;
  const walk = view.phase === "gate" ? walkOf(relay, letter) : null;
  // After the relay ran, a table at the gate waits for its walks (docs/RULES.md).
  const gate = walk ? { icon: "⇢", text: walkText(relay, letter, relayWords), cls: "walking" } : gateStatus(view);
  const waiting = new Set(view.window ? view.window.waiting : []);
  let relayLine = null;
  if (walk && !walk.arrived) {
    relayLine = h("p", { class: "relay-line walking" },
      h("button", { class: "btn small", type: "button", data: { key: `arrived-${meta.id}` }, "aria-label": fmt(gettext("Gift %(gift)s has arrived at table %(letter)s"), { gift: walk.mine.received, letter }),
        text: fmt(gettext("Gift %(gift)s arrived"), { gift: walk.mine.received }),
        on: { click: (ev) => giftArrived(walk.mine, ev.currentTarget) } }));
  }
  if (view.phase === "gate" && relay && relay.status === "open") {
    if (view.relay_seat === null) {
      relayLine = h("p", { class: "relay-line pending" },
        h("span", { "aria-hidden": "true", text: "○ " }),
        captain ? fmt(gettext("Relay seat not drawn yet (captain %(name)s)"), { name: captain.name }) : gettext("Relay seat not drawn yet"), " ",
        h("button", { class: "btn small", type: "button", data: { key: `draw-${meta.id}` }, "aria-label": fmt(gettext("Draw the relay seat for table %(letter)s"), { letter }), text: gettext("Draw the relay seat"),
          on: { click: (ev) => busy(ev.currentTarget, live.act({ type: "draw_relay_seat" }, { table: meta.id, version: payload.version })) } }));
    } else {
      const r = meta.roster[view.relay_seat];
      relayLine = h("p", { class: "relay-line done" }, h("span", { "aria-hidden": "true", text: "✓ " }),
        fmt(gettext("Drawn seat: %(name)s (seat %(seat)s, gift %(gift)s)"), { name: r ? r.name : "", seat: view.relay_seat + 1, gift: giftLabel(view.seats[view.relay_seat].gift) }));
    }
  }
  return h(
    "article",
    {
      class: `panel table compact-table phase-${view.phase}`,
      "aria-labelledby": `table-${meta.id}-h`,
      data: { tableId: meta.id, letter, version: payload.version, phase: view.phase, round: view.round },
    },
    h("h2", { id: `table-${meta.id}-h` },
      h("span", { class: "table-letter", text: fmt(gettext("Table %(letter)s"), { letter }) }), " ",
      h("span", { class: "round", text: `· ${roundTitle(view)}` })),
    h("p", { class: `gate-status ${gate.cls}` }, h("span", { "aria-hidden": "true", text: `${gate.icon} ` }), gate.text),
    h("p", { class: "status-line", text: statusLine(view, meta) }),
    windowBox(view, meta, DUTIES),
    view.phase === "reveal"
      ? h("button", { class: "btn primary", type: "button", data: { key: `reveal-${meta.id}` }, on: { click: (ev) => DUTIES.onConfirm(meta.id, ev.currentTarget) } }, fmt(gettext("Everyone at table %(letter)s unwrapped — start round 2"), { letter }))
      : null,
    relayLine,
    h("p", { class: "captain-line" }, h("span", { "aria-hidden": "true", text: "⚑ " }), captain ? fmt(gettext("Captain: %(name)s"), { name: captain.name }) : gettext("No captain")),
    h("p", { class: `presence-line ${offline.length ? "some-off" : "all-on"}`, role: "status" },
      h("span", { "aria-hidden": "true", text: offline.length ? "○ " : "● " }),
      offline.length ? fmt(gettext("Disconnected: %(names)s"), { names: listOf(offline.map((g) => g.name)) }) : gettext("Everyone connected")),
    h("ol", { class: "seats compact", "aria-label": fmt(gettext("Seats at table %(letter)s"), { letter }) },
      view.seats.map((s) => {
        const g = bySeat.get(s.seat);
        const name = g ? g.name : (meta.roster[s.seat] || {}).name || fmt(gettext("Seat %(seat)s"), { seat: s.seat + 1 });
        const marks = [];
        if (g && g.captain) marks.push(h("span", { class: "mark captain" }, h("span", { "aria-hidden": "true", text: "⚑ " }), gettext("captain")));
        if (g && !g.online) marks.push(h("span", { class: "mark offline" }, h("span", { "aria-hidden": "true", text: "○ " }), gettext("offline")));
        if (view.active === s.seat && view.phase !== "over") marks.push(h("span", { class: "mark turn" }, h("span", { "aria-hidden": "true", text: "▶ " }), pgettext("seat mark", "turn")));
        if (waiting.has(s.seat)) marks.push(h("span", { class: "mark asked" }, h("span", { "aria-hidden": "true", text: "? " }), gettext("being asked")));
        if ((view.trims || {})[String(s.seat)]) marks.push(h("span", { class: "mark trim" }, h("span", { "aria-hidden": "true", text: "✂ " }), gettext("discarding")));
        if (view.relay_seat === s.seat && !view.relayed) marks.push(h("span", { class: "mark relay" }, h("span", { "aria-hidden": "true", text: "⇄ " }), pgettext("seat mark", "relay")));
        return h("li", { class: `seat${view.active === s.seat ? " active" : ""}`, data: { seat: s.seat, guest: g ? g.id : null } },
          h("span", { class: "seat-no", text: `${s.seat + 1}` }),
          h("span", { class: "seat-main" },
            h("strong", { class: "seat-name", text: name }),
            h("span", { class: "seat-gift" }, h("span", { class: "gift-tag", text: fmt(gettext("gift %(gift)s"), { gift: giftLabel(s.gift) }) }), s.open && s.description ? ` ${s.description}` : ""),
            marks.length ? h("span", { class: "marks" }, marks) : null,
            g ? seatActions(g, fmt(gettext("Make %(name)s captain of table %(letter)s"), { name: g.name, letter })) : null),
          h("span", { class: "seat-cards", "aria-label": fmt(ngettext("%(n)s card in hand", "%(n)s cards in hand", s.cards), { n: s.cards }) }, h("span", { "aria-hidden": "true", text: "🂠 " }), `${s.cards}`));
      })),
    vaultList(view),
    h("details", { class: "table-log" }, h("summary", { text: fmt(gettext("What happened at table %(letter)s"), { letter }) }), eventLog(logs.get(meta.id)) || h("p", { class: "hint", text: gettext("Nothing yet.") })),
  );
}


/** The end: everyone keeps the gift in front of them; the CSV; every table's keeps. */
function result(partyResult, { csv }) {
  return [
    h("p", { text: gettext("Everyone keeps the gift in front of them; leftover vault gifts go back to their contributors.") }),
    csv,
    partyResultTables(partyResult),
  ];
}

/** Mount Yankee Heist's dashboard tables in `rootEl` (#tables). */
export function mount(rootEl, ctx) {
  root = rootEl;
  S = ctx.state;
  live = ctx.live;
  DUTIES = {
    duty: true,
    // Naming the window: a pass tapped as the window closed never passes the next one.
    onPass: (table, seat, button, window) => ctx.actAt(table, { type: "timeout_pass", seat, window }, button),
    onConfirm: (table, button) => ctx.actAt(table, { type: "confirm_reveal" }, button),
  };
  ({ busy, openDetails, tabletsAt, tabletsPanel, guestsAt, seatActions, giftArrived, listOf } = ctx);
  whoWaits = ctx.waitingFor;
  return {
    table(msg) {
      noteEvents(logs, msg);
    },
    draw,
    details: compactCard,
    result,
    words: {
      deal: (n, least) => n < least // least: the definition's min_players, 2
        ? gettext("Deal the cards (needs 2 guests)")
        : fmt(ngettext("Deal the cards (%(n)s player)", "Deal the cards (%(n)s players)", n), { n }),
      dealt: gettext("Cards dealt. Everyone takes the gift their phone shows."),
    },
  };
}
