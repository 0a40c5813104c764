// A party of several tables: the gate half-way, the relay ring, the seats the captains
// drew, what the relay moved, and the party's result. Shared by the host dashboard, the
// big screen and the phones. Text only through h()/textContent. What a table does before
// the gate and after the relay is its game's (RELAY_WORDS: the words a game may replace).
import { fill, h } from "./ui.js";

const THEN = () => pgettext("between tables or players in turn: A, then B", ", then ");
const giftTag = (gift) => h("span", { class: "gift-tag", text: interpolate(gettext("gift %(gift)s"), { gift }, true) });

/** True once the party is seated at more than one table. */
export function isMultiTable(party) {
  return Boolean(party && party.tables && party.tables.length > 1);
}

/** The relay's sentences that say what the tables do after it, for a game whose module
 * says nothing of its own (its tile's `relayWords`, docs/GAMES.md, replaces any of them):
 * `ready` (every table at the gate, the host's cue), `walking({arrived, gifts})` (the
 * carriers on their way), `allArrived` (the host's button that starts every table),
 * `done` (every table plays on), `playing({received, from})` (one table's gift in and
 * its play begun). Functions: a module is imported before the page's catalogue is read. */
export const RELAY_WORDS = {
  ready: () => gettext("Every table is at the gate. Open the relay and announce the order; each captain draws a seat."),
  walking: ({ arrived, gifts }) => interpolate(ngettext(
    "The carriers are walking: %(arrived)s of %(gifts)s gift arrived. Each table plays on once its gift is in and its own carrier has delivered.",
    "The carriers are walking: %(arrived)s of %(gifts)s gifts arrived. Each table plays on once its gift is in and its own carrier has delivered.", gifts),
  { arrived, gifts }, true),
  allArrived: () => gettext("Every gift has arrived — every table plays on"),
  done: () => gettext("The relay has run: every table plays on."),
  playing: (args) => interpolate(gettext("Gift %(received)s arrived from table %(from)s: playing on"), args, true),
};

/** How far the room is on its way to the gate (0-1): the mean of each table's way there,
 * `progressOf(payload)` (0-1, the game's to say: the host's party bar and a big screen). */
export function gateProgress(payloads, progressOf) {
  if (!payloads.length) return 0;
  return payloads.reduce((sum, t) => sum + progressOf(t), 0) / payloads.length;
}

/** RELAY_WORDS with a game's own `words` (its module's `relayWords`) where it has them. */
export function relayWords(words) {
  return { ...RELAY_WORDS, ...(words || {}) };
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
  return interpolate(gettext("Tables at the gate: %(at_gate)s of %(tables)s"), { at_gate: gate.at_gate, tables: gate.tables }, true);
}

/** "A → B → C → A": the relay order, back to the first table. */
export function ringText(relay) {
  const ring = relay && relay.ring ? relay.ring : [];
  return ring.length ? [...ring, ring[0]].join(" → ") : "";
}

export function ringLabel(relay) {
  const ring = relay && relay.ring ? relay.ring : [];
  return interpolate(gettext("Relay order: table %(tables)s, then back to %(first)s"), { tables: ring.join(THEN()), first: ring[0] }, true);
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
    { class: "plain relay-result", "aria-label": gettext("What the relay moved") },
    relay.result.map((r) => {
      const to = relayEntry(relay, r.sent_to);
      const parts = {
        who: h("strong", { text: interpolate(gettext("Table %(table)s, seat %(seat)s: %(guest)s"), { table: r.table, seat: r.seat + 1, guest: r.guest }, true) }),
        sent: giftTag(r.sent), to: r.sent_to, received: giftTag(r.received), from: r.received_from,
        to_seat: to ? to.seat + 1 : "", to_guest: to ? to.guest : "",
      };
      return h(
        "li",
        { data: { table: r.table } },
        fill(to
          ? gettext("%(who)s sends %(sent)s to table %(to)s (seat %(to_seat)s, %(to_guest)s) and receives %(received)s from table %(from)s.")
          : gettext("%(who)s sends %(sent)s to table %(to)s and receives %(received)s from table %(from)s."), parts),
      );
    }),
  );
}

/** Per table: the seat its captain drew and the label of its gift (the table's
 * `relay_draw`: tables/selectors.py, in the game's own labels). */
export function drawnSeatList(relay, payloads, captainOf = () => null) {
  return h(
    "ul",
    { class: "plain drawn-seats", "aria-label": gettext("Relay seats drawn by the captains") },
    relay.ring.map((letter) => {
      const p = payloads.find((t) => t.table.letter === letter);
      const drawn = p ? p.table.relay_draw : null;
      if (!drawn) {
        const captain = captainOf(letter);
        return h("li", { class: "drawn pending", data: { table: letter } },
          h("span", { "aria-hidden": "true", text: "○ " }),
          captain
            ? interpolate(gettext("Table %(table)s: not drawn yet (captain %(captain)s)"), { table: letter, captain }, true)
            : interpolate(gettext("Table %(table)s: not drawn yet"), { table: letter }, true));
      }
      const { seat, label } = drawn;
      const r = p.table.roster[seat];
      return h("li", { class: "drawn done", data: { table: letter } },
        h("span", { "aria-hidden": "true", text: "✓ " }),
        interpolate(gettext("Table %(table)s: drawn seat: %(name)s (seat %(seat)s, gift %(gift)s)"), {
          table: letter, name: r ? r.name : interpolate(gettext("seat %(number)s"), { number: seat + 1 }, true),
          seat: seat + 1, gift: label }, true));
    }),
  );
}

/** Where a gift of the result came from, in this page's language (the server's `source`
 * is in the language of whoever's action built the result). */
function sourceText(r) {
  const name = r.from ? r.from.name : "";
  switch (r.from && r.from.kind) {
    case "vault": return interpolate(gettext("vault gift from %(name)s"), { name }, true);
    case "brought": return interpolate(gettext("brought by %(name)s"), { name }, true);
    case "late": return interpolate(gettext("brought by %(name)s (arrived late)"), { name }, true);
    case "unknown": return gettext("unknown");
    default: return r.source;
  }
}

/** A gift's description, or that it is still wrapped, in this page's language. */
function descriptionText(r) {
  return r.wrapped ? gettext("(wrapped)") : r.description;
}

/** The party's result: who keeps which gift, and the vault gifts going home. */
export function partyResultTables(result) {
  const keeps = h(
    "table",
    { class: "result-table keeps-table" },
    h("caption", { text: interpolate(ngettext("Who keeps what (%(count)s guest)", "Who keeps what (%(count)s guests)", result.keeps.length), { count: result.keeps.length }, true) }),
    h("thead", {}, h("tr", {}, [gettext("Guest"), gettext("Table"), gettext("Seat"), gettext("Keeps"), gettext("Description"), gettext("Source")].map((c) => h("th", { scope: "col", text: c })))),
    h("tbody", {}, result.keeps.map((r) =>
      h("tr", {},
        // A seat a substitute played: it goes home with its guest, and both are named.
        h("th", { scope: "row", text: (r.played_by || []).length > 1 ? interpolate(gettext("%(guest)s (played by %(players)s)"), { guest: r.guest, players: r.played_by.join(THEN()) }, true) : r.guest }),
        h("td", { text: r.table }),
        h("td", { text: String(r.seat + 1) }),
        h("td", {}, giftTag(r.gift)),
        h("td", { text: descriptionText(r) }),
        h("td", { text: sourceText(r) })))),
  );
  const returns = result.vault_returns.length
    ? h(
        "table",
        { class: "result-table returns-table" },
        h("caption", { text: gettext("Vault gifts going back") }),
        h("thead", {}, h("tr", {}, [gettext("Gift"), gettext("Table"), gettext("Returns to"), gettext("Description")].map((c) => h("th", { scope: "col", text: c })))),
        h("tbody", {}, result.vault_returns.map((r) =>
          h("tr", {},
            h("th", { scope: "row" }, giftTag(r.gift)),
            h("td", { text: r.table }),
            h("td", { text: r.returns_to }),
            h("td", { text: descriptionText(r) })))),
      )
    : null;
  const late = (result.late || []).length
    ? h(
        "table",
        { class: "result-table late-table" },
        h("caption", { text: gettext("Late arrivals take their own gift home") }),
        h("thead", {}, h("tr", {}, [gettext("Guest"), gettext("Gift"), gettext("Description"), gettext("Played")].map((c) => h("th", { scope: "col", text: c })))),
        h("tbody", {}, result.late.map((r) =>
          h("tr", {},
            h("th", { scope: "row", text: r.guest }),
            h("td", {}, giftTag(r.gift)),
            h("td", { text: descriptionText(r) }),
            h("td", { text: r.played_for ? interpolate(gettext("table %(table)s, seat %(seat)s for %(guest)s"), { table: r.table, seat: r.seat + 1, guest: r.played_for }, true) : "—" })))),
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
 * `playing` (both: its play after the relay has begun). */
export function walkOf(relay, letter) {
  const mine = relayRan(relay) ? relayEntry(relay, letter) : null;
  if (!mine) return null;
  const from = relayEntry(relay, mine.received_from);
  const to = relayEntry(relay, mine.sent_to);
  return { mine, from, to, arrived: mine.arrived_by !== null && mine.arrived_by !== undefined, delivered: to.arrived_by !== null && to.arrived_by !== undefined, playing: Boolean(mine.playing) };
}

/** "Waiting for gift 12 from table A (carried by Ann)": what table `letter` waits for;
 * once it plays on, its game's `words.playing` (RELAY_WORDS) says so. */
export function walkText(relay, letter, words = RELAY_WORDS) {
  const w = walkOf(relay, letter);
  if (!w) return "";
  const args = { received: w.mine.received, from: w.from.table, carrier: w.from.guest, guest: w.mine.guest, sent: w.mine.sent, to: w.mine.sent_to };
  if (w.playing) return words.playing(args);
  if (!w.arrived) return interpolate(gettext("Waiting for gift %(received)s from table %(from)s (carried by %(carrier)s)"), args, true);
  return interpolate(gettext("Gift %(received)s arrived; waiting for %(guest)s to deliver gift %(sent)s to table %(to)s"), args, true);
}

/** How many of the relay's gifts have arrived. */
export function walkCount(relay) {
  const result = relayRan(relay) ? relay.result : [];
  return { arrived: result.filter((r) => r.arrived_by !== null && r.arrived_by !== undefined).length, gifts: result.length };
}

/** One line per table: its walk, for the host and the big screen. `onArrived(entry,
 * button)`, when given, adds the host's "Gift arrived" override to a table still waiting;
 * `words`: the game's relay words (RELAY_WORDS, relayWords). */
export function walkList(relay, onArrived = null, words = RELAY_WORDS) {
  if (!relayRan(relay)) return null;
  return h(
    "ul",
    { class: "plain walk-list", "aria-label": gettext("The relay's gifts on their way") },
    relay.result.map((r) => {
      const w = walkOf(relay, r.table);
      const cls = w.playing ? "playing" : w.arrived ? "arrived" : "walking";
      return h("li", { class: `walk ${cls}`, data: { table: r.table, walk: cls } },
        h("span", { class: "walk-text" },
          h("span", { "aria-hidden": "true", text: w.playing ? "✓ " : w.arrived ? "◐ " : "⇢ " }),
          h("strong", { text: interpolate(gettext("Table %(table)s: "), { table: r.table }, true) }),
          walkText(relay, r.table, words)),
        onArrived && !w.arrived
          ? h("button", { class: "btn small", type: "button", data: { key: `arrived-${r.table}` }, "aria-label": interpolate(gettext("Gift %(gift)s has arrived at table %(table)s"), { gift: r.received, table: r.table }, true), text: gettext("Gift arrived"),
              on: { click: (ev) => onArrived(r, ev.currentTarget) } })
          : null);
    }),
  );
}
