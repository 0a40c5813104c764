// A party of several tables: the gate after round 2, the relay ring, the seats the
// captains drew, what the relay moved, and the party's result. Shared by the host
// dashboard, the big screen and the phones. Text only through h()/textContent.
import { giftLabel, h } from "./ui.js";

/** True once the party is seated at more than one table. */
export function isMultiTable(party) {
  return Boolean(party && party.tables && party.tables.length > 1);
}

/** How far the room is on its way to the gate (0-1): each table's turns of rounds 1-2
 * (a table at the gate, past it or over counts 1; one unwrapping after round 1, 0.5). */
export function gateProgress(payloads) {
  if (!payloads.length) return 0;
  let sum = 0;
  for (const { view } of payloads) {
    if (view.phase === "gate" || view.relayed || view.phase === "over") sum += 1;
    else if (view.phase === "reveal") sum += 0.5;
    else sum += Math.min(1, ((view.round - 1) * view.players + Math.min(view.turn, view.players)) / (2 * view.players));
  }
  return sum / payloads.length;
}

/** The gate as a screen with every table's view sees it (the host, the big screen):
 * counted from those views, which are version-checked (a missed update resyncs), where
 * the party's own count is not: a table arriving at the gate does not move the party's
 * revision, so a lost party broadcast would leave the count, and the host's "Open the
 * relay", behind until the next party change. Without every table's view: the party's. */
export function gateSeen(party, payloads) {
  const g = party.gate || { tables: 0, at_gate: 0, open: false };
  if (!payloads || !payloads.length || payloads.length < g.tables) return g;
  const at = payloads.filter(({ view }) => view.phase === "gate").length;
  return { tables: payloads.length, at_gate: at, open: payloads.length > 1 && at === payloads.length };
}

export function gateText(gate) {
  return `Tables at the gate: ${gate.at_gate} of ${gate.tables}`;
}

/** "A → B → C → A": the relay order, back to the first table. */
export function ringText(relay) {
  const ring = relay && relay.ring ? relay.ring : [];
  return ring.length ? [...ring, ring[0]].join(" → ") : "";
}

export function ringLabel(relay) {
  const ring = relay && relay.ring ? relay.ring : [];
  return `Relay order: table ${ring.join(", then ")}, then back to ${ring[0]}`;
}

/** The ring as a prominent line, read out as words. */
export function ringLine(relay, cls = "ring") {
  return h("p", { class: cls, role: "img", "aria-label": ringLabel(relay) }, h("span", { "aria-hidden": "true", text: ringText(relay) }));
}

/** The relay entry of the table that sends to `letter`'s table, etc. */
export function relayEntry(relay, letter) {
  return relay && relay.result ? relay.result.find((r) => r.table === letter) || null : null;
}

/** One line per drawn player: what they send where, what they receive from where. */
export function relayResultList(relay) {
  if (!relay || !relay.result) return null;
  return h(
    "ol",
    { class: "plain relay-result", "aria-label": "What the relay moved" },
    relay.result.map((r) => {
      const to = relayEntry(relay, r.sent_to);
      return h(
        "li",
        { data: { table: r.table } },
        h("strong", { text: `Table ${r.table}, seat ${r.seat + 1}: ${r.guest}` }),
        " sends ",
        h("span", { class: "gift-tag", text: `gift ${r.sent}` }),
        ` to table ${r.sent_to}${to ? ` (seat ${to.seat + 1}, ${to.guest})` : ""} and receives `,
        h("span", { class: "gift-tag", text: `gift ${r.received}` }),
        ` from table ${r.received_from}.`,
      );
    }),
  );
}

/** Per table: the seat its captain drew (from the table's public view `relay_seat`). */
export function drawnSeatList(relay, payloads, captainOf = () => null) {
  return h(
    "ul",
    { class: "plain drawn-seats", "aria-label": "Relay seats drawn by the captains" },
    relay.ring.map((letter) => {
      const p = payloads.find((t) => t.table.letter === letter);
      const seat = p ? p.view.relay_seat : null;
      if (seat === null || seat === undefined) {
        const captain = captainOf(letter);
        return h("li", { class: "drawn pending", data: { table: letter } },
          h("span", { "aria-hidden": "true", text: "○ " }),
          `Table ${letter}: not drawn yet${captain ? ` (captain ${captain})` : ""}`);
      }
      const r = p.table.roster[seat];
      return h("li", { class: "drawn done", data: { table: letter } },
        h("span", { "aria-hidden": "true", text: "✓ " }),
        `Table ${letter}: drawn seat: ${r ? r.name : `seat ${seat + 1}`} (seat ${seat + 1}, gift ${giftLabel(p.view.seats[seat].gift)})`);
    }),
  );
}

/** The party's result: who keeps which gift, and the vault gifts going home. */
export function partyResultTables(result) {
  const keeps = h(
    "table",
    { class: "result-table keeps-table" },
    h("caption", { text: `Who keeps what (${result.keeps.length} guests)` }),
    h("thead", {}, h("tr", {}, ["Guest", "Table", "Seat", "Keeps", "Description", "Source"].map((c) => h("th", { scope: "col", text: c })))),
    h("tbody", {}, result.keeps.map((r) =>
      h("tr", {},
        // A seat a substitute played: it goes home with its guest, and both are named.
        h("th", { scope: "row", text: (r.played_by || []).length > 1 ? `${r.guest} (played by ${r.played_by.join(", then ")})` : r.guest }),
        h("td", { text: r.table }),
        h("td", { text: String(r.seat + 1) }),
        h("td", {}, h("span", { class: "gift-tag", text: `gift ${r.gift}` })),
        h("td", { text: r.description }),
        h("td", { text: r.source })))),
  );
  const returns = result.vault_returns.length
    ? h(
        "table",
        { class: "result-table returns-table" },
        h("caption", { text: "Vault gifts going back" }),
        h("thead", {}, h("tr", {}, ["Gift", "Table", "Returns to", "Description"].map((c) => h("th", { scope: "col", text: c })))),
        h("tbody", {}, result.vault_returns.map((r) =>
          h("tr", {},
            h("th", { scope: "row" }, h("span", { class: "gift-tag", text: `gift ${r.gift}` })),
            h("td", { text: r.table }),
            h("td", { text: r.returns_to }),
            h("td", { text: r.description })))),
      )
    : null;
  const late = (result.late || []).length
    ? h(
        "table",
        { class: "result-table late-table" },
        h("caption", { text: "Late arrivals take their own gift home" }),
        h("thead", {}, h("tr", {}, ["Guest", "Gift", "Description", "Played"].map((c) => h("th", { scope: "col", text: c })))),
        h("tbody", {}, result.late.map((r) =>
          h("tr", {},
            h("th", { scope: "row", text: r.guest }),
            h("td", {}, h("span", { class: "gift-tag", text: `gift ${r.gift}` })),
            h("td", { text: r.description }),
            h("td", { text: r.played_for ? `table ${r.table}, seat ${r.seat + 1} for ${r.played_for}` : "—" })))),
      )
    : null;
  return [h("div", { class: "table-scroll" }, keeps), returns ? h("div", { class: "table-scroll" }, returns) : null,
    late ? h("div", { class: "table-scroll" }, late) : null];
}

// --- the walk (docs/RULES.md: the relay is a walk) ----------------------------------------------

/** The relay has run and its gifts are (or were) on their way. */
export function relayRan(relay) {
  return Boolean(relay && relay.result && relay.status !== "open");
}

/** Table `letter`'s walks once the relay has run: `mine` (its entry: its carrier, the
 * gift it sends and the one it gets), `from` (the entry of the table whose carrier
 * brings its gift), `to` (the table its own carrier walks to), `arrived` (its incoming
 * gift is confirmed), `delivered` (its own carrier's gift is confirmed at `to`) and
 * `playing` (both: its round 3 has begun). */
export function walkOf(relay, letter) {
  const mine = relayRan(relay) ? relayEntry(relay, letter) : null;
  if (!mine) return null;
  const from = relayEntry(relay, mine.received_from);
  const to = relayEntry(relay, mine.sent_to);
  return { mine, from, to, arrived: mine.arrived_by !== null && mine.arrived_by !== undefined, delivered: to.arrived_by !== null && to.arrived_by !== undefined, playing: Boolean(mine.playing) };
}

/** "Waiting for gift 12 from table A (carried by Ann)": what table `letter` waits for. */
export function walkText(relay, letter) {
  const w = walkOf(relay, letter);
  if (!w) return "";
  if (w.playing) return `Gift ${w.mine.received} arrived from table ${w.from.table}: playing round 3`;
  if (!w.arrived) return `Waiting for gift ${w.mine.received} from table ${w.from.table} (carried by ${w.from.guest})`;
  return `Gift ${w.mine.received} arrived; waiting for ${w.mine.guest} to deliver gift ${w.mine.sent} to table ${w.mine.sent_to}`;
}

/** How many of the relay's gifts have arrived. */
export function walkCount(relay) {
  const result = relayRan(relay) ? relay.result : [];
  return { arrived: result.filter((r) => r.arrived_by !== null && r.arrived_by !== undefined).length, gifts: result.length };
}

/** One line per table: its walk, for the host and the big screen. `onArrived(entry,
 * button)`, when given, adds the host's "Gift arrived" override to a table still waiting. */
export function walkList(relay, onArrived = null) {
  if (!relayRan(relay)) return null;
  return h(
    "ul",
    { class: "plain walk-list", "aria-label": "The relay's gifts on their way" },
    relay.result.map((r) => {
      const w = walkOf(relay, r.table);
      const cls = w.playing ? "playing" : w.arrived ? "arrived" : "walking";
      return h("li", { class: `walk ${cls}`, data: { table: r.table, walk: cls } },
        h("span", { class: "walk-text" },
          h("span", { "aria-hidden": "true", text: w.playing ? "✓ " : w.arrived ? "◐ " : "⇢ " }),
          h("strong", { text: `Table ${r.table}: ` }),
          walkText(relay, r.table)),
        onArrived && !w.arrived
          ? h("button", { class: "btn small", type: "button", data: { key: `arrived-${r.table}` }, "aria-label": `Gift ${r.received} has arrived at table ${r.table}`, text: "Gift arrived",
              on: { click: (ev) => onArrived(r, ev.currentTarget) } })
          : null);
    }),
  );
}
