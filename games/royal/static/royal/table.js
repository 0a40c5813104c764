// Royal Heist on the captain's tablet and as a big-screen tile: the table's public view
// (games/royal/views.py public_view) and its details (meta: id, letter, roster,
// step_clock, step_due_at) as DOM. Who decided is shown, never what, until the reveal
// flips every choice at once. The gate's button calls onOpenGate; no socket here.
import { h, seatName } from "../heist/ui.js";
import { cardTitle, dangerLine, decideClock, flipsNow, heistTitle, lastGameNews, roomRow, seatBoard } from "./rooms.js";

export const TEXT = {
  table: (letter) => (letter ? interpolate(gettext("Table %(letter)s"), { letter }, true) : gettext("Table")),
  deciding: (n, of) => interpolate(ngettext("%(n)s of %(of)s inside have chosen.", "%(n)s of %(of)s inside have chosen.", n), { n, of }, true),
  revealed: gettext("Every choice is shown at once:"),
  gate: gettext("Half-way: this table waits at the gate."),
  gateDuty: gettext("Open the gate when the party is ready for the next heist."),
  openGate: gettext("Open the gate"),
  gateWaits: gettext("The host opens the gate."),
  over: gettext("Game over."),
  // a name that ends with its initial's full stop ("Hana A.") ends the sentence with it
  winners: (names) => interpolate(ngettext("Winner: %(names)s.", "Winners: %(names)s.", names.length), { names: names.join(", ") }, true).replace(/\.\.$/, "."),
  caught: (card) => interpolate(gettext("Last heist ended: the %(card)s caught everyone still inside."), { card }, true),
  allOut: gettext("Last heist ended: everyone got out."),
  deck: (n) => interpolate(ngettext("%(n)s card in the deck", "%(n)s cards in the deck", n), { n }, true),
  inRooms: (n) => interpolate(ngettext("%(n)s jewel in the rooms", "%(n)s jewels in the rooms", n), { n }, true),
};

function status(view, meta, onOpenGate) {
  if (view.phase === "gate") {
    return h("div", { class: "r-gate", role: "group", "aria-label": TEXT.gate },
      h("p", { class: "r-status", text: TEXT.gate }),
      onOpenGate
        ? [h("p", { class: "hint", text: TEXT.gateDuty }),
          h("button", { type: "button", class: "btn primary big r-open-gate", data: { key: `royal-gate-${meta && meta.id}` }, on: { click: (ev) => onOpenGate(ev.currentTarget) } }, TEXT.openGate)]
        : h("p", { class: "hint", text: TEXT.gateWaits }));
  }
  if (view.phase === "over") {
    return h("p", { class: "r-status over", text: `${TEXT.over} ${TEXT.winners((view.winners || []).map((s) => seatName(meta, s)))}` });
  }
  const inside = view.seats.filter((s) => s.inside);
  const decided = inside.filter((s) => s.decided).length;
  const last = view.last_heist;
  const news = last && last.heist === view.heist - 1 && (view.rooms || []).length <= 1
    ? h("p", { class: `r-news ${last.ended}`, text: last.ended === "caught" ? TEXT.caught(cardTitle(last.card)) : TEXT.allOut })
    : null;
  return [lastGameNews(view, meta, (s) => seatName(meta, s)), news, h("p", { class: "r-status", role: "status", text: TEXT.deciding(decided, inside.length) }), decideClock(view, meta)];
}

/** The table's Royal screen: for the captain's tablet (with onOpenGate, the duty at the
 * gate) or a big-screen tile (without). */
export function renderTable(view, meta, { onOpenGate = null, tile = false, offline = null } = {}) {
  const flip = flipsNow(view, { id: `table:${tile ? "tile" : "tablet"}:${meta && meta.id}` });
  return h("section", { class: `royal r-table${tile ? " tile" : ""}`, "aria-label": TEXT.table(meta && meta.letter), data: { version: view.version, phase: view.phase, letter: tile && meta ? meta.letter : null } },
    h("header", { class: "r-head" },
      h("h2", null, h("span", { class: "r-letter", text: TEXT.table(meta && meta.letter) }), " · ", heistTitle(view)),
      h("p", { class: "r-meta", text: `${TEXT.deck(view.deck)} · ${TEXT.inRooms(view.jewels_in_rooms)}` })),
    status(view, meta, onOpenGate),
    roomRow(view),
    dangerLine(view),
    seatBoard(view, meta, { flip, offline }));
}
