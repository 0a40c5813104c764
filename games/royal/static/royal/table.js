// Royal Heist on the captain's tablet and as a big-screen tile: the table's public view
// (games/royal/views.py public_view) and its details (meta: id, letter, roster,
// step_clock, step_due_at) as DOM. Who decided is shown, never what, until the reveal
// flips every choice at once. The gate's button calls onOpenGate; no socket here.
import { h, seatName } from "../heist/ui.js";
import { cardTitle, dangerLine, decideClock, flipsNow, heistParts, lastGameNews, roomRow, seatBoard, titleParts } from "./rooms.js";

export const TEXT = {
  table: (letter) => (letter ? interpolate(gettext("Table %(letter)s"), { letter }, true) : gettext("Table")),
  deciding: (n, of) => interpolate(ngettext("%(n)s of %(of)s inside have chosen.", "%(n)s of %(of)s inside have chosen.", n), { n, of }, true),
  revealed: gettext("Every choice is shown at once:"),
  gate: gettext("Half-way: this table waits at the gate."),
  gateDuty: gettext("Open the gate when the party is ready for the next heist."),
  openGate: gettext("Open the gate"),
  gateWaits: gettext("The host opens the gate."),
  finished: gettext("Game over"),
  // The table's result: its winners and the jewels they banked (their running total,
  // over every game the table played).
  winners: (names, jewels) => (names.length > 1
    ? interpolate(ngettext("Winners: %(names)s, with %(jewels)s jewel each.", "Winners: %(names)s, with %(jewels)s jewels each.", jewels), { names: names.join(", "), jewels }, true)
    : interpolate(ngettext("Winner: %(names)s, with %(jewels)s jewel.", "Winner: %(names)s, with %(jewels)s jewels.", jewels), { names: names.join(", "), jewels }, true)),
  caught: (card) => interpolate(gettext("Last heist ended: the %(card)s caught everyone still inside."), { card }, true),
  allOut: gettext("Last heist ended: everyone got out."),
  deck: (n) => interpolate(ngettext("%(n)s card in the deck", "%(n)s cards in the deck", n), { n }, true),
  inRooms: (n) => interpolate(ngettext("%(n)s jewel in the rooms", "%(n)s jewels in the rooms", n), { n }, true),
};

function status(view, meta, onOpenGate, tile) {
  if (view.phase === "gate") {
    return h("div", { class: "r-gate", role: "group", "aria-label": TEXT.gate },
      h("p", { class: "r-status", text: TEXT.gate }),
      onOpenGate
        ? [h("p", { class: "hint", text: TEXT.gateDuty }),
          h("button", { type: "button", class: "btn primary big r-open-gate", data: { key: `royal-gate-${meta && meta.id}` }, on: { click: (ev) => onOpenGate(ev.currentTarget) } }, TEXT.openGate)]
        : h("p", { class: "hint", text: TEXT.gateWaits }));
  }
  if (view.phase === "over") {
    const winners = view.winners || [];
    const jewels = winners.length ? view.seats[winners[0]].total : 0;
    return h("p", { class: "r-status over", text: TEXT.winners(winners.map((s) => seatName(meta, s)), jewels) });
  }
  const inside = view.seats.filter((s) => s.inside);
  const decided = inside.filter((s) => s.decided).length;
  const last = view.last_heist;
  const news = last && last.heist === view.heist - 1 && (view.rooms || []).length <= 1
    ? h("p", { class: `r-news ${last.ended}`, text: last.ended === "caught" ? TEXT.caught(cardTitle(last.card)) : TEXT.allOut })
    : null;
  return [lastGameNews(view, meta, (s) => seatName(meta, s)), news, h("p", { class: "r-status", role: "status", text: TEXT.deciding(decided, inside.length) }), decideClock(view, meta, { short: tile })];
}

/** The table's Royal screen: for the captain's tablet (with onOpenGate, the duty at the
 * gate) or a big-screen tile (without). */
export function renderTable(view, meta, { onOpenGate = null, tile = false, offline = null } = {}) {
  const flip = flipsNow(view, { id: `table:${tile ? "tile" : "tablet"}:${meta && meta.id}` });
  // At the end the heist's running lines (the deck, the rooms, the dangers seen) are
  // done with: the table shows its result, the winners and every seat's jewels.
  const over = view.phase === "over";
  const heist = [
    h("header", { class: "r-head" },
      h("h2", { class: "r-title" }, titleParts(over ? [TEXT.finished] : heistParts(view), h("span", { class: "r-part r-letter", text: TEXT.table(meta && meta.letter) }))),
      over ? null : h("p", { class: "r-meta", text: `${TEXT.deck(view.deck)} · ${TEXT.inRooms(view.jewels_in_rooms)}` })),
    status(view, meta, onOpenGate, tile),
    over ? null : roomRow(view),
    over ? null : dangerLine(view),
  ];
  return h("section", { class: `royal r-table${tile ? " tile" : ""}`, "aria-label": TEXT.table(meta && meta.letter), data: { version: view.version, phase: view.phase, letter: tile && meta ? meta.letter : null } },
    // A tile's heist in a box of its own: a wide tile on the big screen shows the seats
    // beside it (royal.css); elsewhere the box lays out as if it were not there.
    tile ? h("div", { class: "r-tile-heist" }, heist) : heist,
    seatBoard(view, meta, { flip, offline }));
}

/** The big screen's fit (heist/screen.js calls it once the tiles are laid out): each
 * shown tile drops what it can do without, least needed first, until it shows whole:
 * the oldest rooms that do not fit their row (the newest stays), then the deck's line,
 * then how the last heist ended and who opens the gate (its table's phones and tablet
 * say them too). The seats
 * stay: when a tile cannot show them whole, the shell shows fewer tables a page. */
export function fitTiles(box) {
  for (const tile of box.querySelectorAll(".r-table.tile")) {
    if (!tile.getClientRects().length) continue; // another page's
    const rooms = tile.querySelector(".r-rooms");
    if (rooms) {
      const shown = () => [...rooms.children].filter((li) => li.getClientRects().length);
      for (let left = shown(); left.length > 1 && rooms.scrollWidth > rooms.clientWidth + 1; left = shown()) left[0].classList.add("r-dropped");
    }
    const overflows = () => tile.scrollHeight > tile.clientHeight + 1;
    for (const part of tile.querySelectorAll(".r-meta, .r-news, .r-gate .hint")) {
      if (!overflows()) break;
      part.classList.add("r-dropped");
    }
  }
}
