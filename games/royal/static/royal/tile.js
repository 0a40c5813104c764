// Royal Heist on the host's dashboard (the tile module: static/heist/host.js is its shell
// and says what `mount` returns): each table (table.js) with its tablets, the party's
// leaderboard (every seat's bank, from the tables' views), the gate the host opens for
// every table at once; the end: the champions, each table's winners, the ranking.
import { isMultiTable } from "../heist/party.js";
import { EVERY_TABLE_STORY } from "../heist/story-link.js";
import { fmt, h, render, seatName, tickClocks } from "../heist/ui.js";
import { leaderRow, renderLeaderboard, renderResult } from "./leaderboard.js";
import { renderTable } from "./table.js";

let S = null;
let root = null;
let code = "";
let tabletsPanel = null;
let partyCommand = null;
let boardScroll = 0; // how far the host scrolled the leaderboard (kept across redraws)

/** A Royal Heist party's tables: each table's tile and the party's leaderboard (every
 * seat's bank, from the tables' views). */
function draw(tables) {
  const box = root;
  const rows = tables.flatMap(({ view, table: meta }) =>
    view.seats.map((s) => leaderRow(s, seatName(meta, s.seat), meta.letter)));
  // With many tables the leaderboard scrolls in its own box (royal.css): reachable by
  // keyboard, and where it was scrolled to (and its focus) kept across every redraw.
  const board = renderLeaderboard(rows);
  if (isMultiTable(S.party)) {
    board.tabIndex = 0;
    board.dataset.key = "royal-leaderboard";
    board.addEventListener("scroll", () => { boardScroll = board.scrollTop; });
  }
  box.classList.add("r-tables");
  // Whole tables, not `.tile`s (the dashboard folds Yankee's tiles at the end), in one
  // block across #tables' grid; each table with its tablets in one box, so that with
  // many tables (13 for 100 guests) royal.css lays them out as a grid on one screen.
  render(box, tables.length
    ? h("div", { class: "r-host" }, royalGate(tables), board,
      // A table's box scrolls when its seats outgrow it (royal.css, many tables): a keyboard
      // reaches it as it reaches the leaderboard (axe: scrollable-region-focusable).
      h("div", { class: "r-host-tables" }, tables.map((t) => h("div", { class: "r-host-table", data: { letter: t.table.letter, key: `royal-table-${t.table.letter}` }, tabindex: "0", role: "region", "aria-label": fmt(gettext("Table %(letter)s"), { letter: t.table.letter }) },
        renderTable(t.view, t.table), tabletsPanel(t.table)))))
    : null);
  if (boardScroll) {
    const keep = () => { if (board.isConnected && board.scrollTop !== boardScroll) board.scrollTop = boardScroll; };
    keep();
    requestAnimationFrame(keep); // the first layout of the new box may not have its height yet
  }
  tickClocks();
}

/** The gate of a Royal Heist party of several tables: every table stops half-way; once
 * all are there (or finished), the host opens the second half for all at once. */
function royalGate(tables) {
  const phases = tables.map((t) => t.view.phase);
  const waiting = phases.filter((p) => p === "gate").length;
  if (!waiting) return null;
  const ready = phases.every((p) => p === "gate" || p === "over");
  return h("div", { class: "panel r-gate", role: "status" }, [
    h("p", {}, ready
      ? gettext("Every table is at the gate.")
      : fmt(ngettext("At the gate: %(waiting)s of %(tables)s table. The others are still playing their first half.", "At the gate: %(waiting)s of %(tables)s tables. The others are still playing their first half.", tables.length),
        { waiting, tables: tables.length })),
    // Which ones: the host walks over to them (or calls their captains).
    ready ? null : h("p", { class: "r-gate-behind" }, h("strong", { text: gettext("Still playing: ") }),
      tables.filter((t) => !["gate", "over"].includes(t.view.phase)).map((t) => t.table.letter).join(", ")),
    ready
      ? h("button", {
          type: "button",
          class: "btn primary big",
          data: { key: "royal-open-gate" },
          on: { click: (ev) => partyCommand(ev.currentTarget, "open_gate") },
        }, gettext("Open the gate: play the second half"))
      : null,
  ]);
}


/** Who a Royal Heist table waits for, and since when: the seats still to choose in the
 * room turned up (the shell's `waitingFor`, the dashboard's idle alert, asks the game);
 * null for the gate and the end, which the shell words. */
export function waitingFor(view, meta, { listOf }) {
  if (view.phase !== "decide") return null;
  const seats = (view.waiting_for || []).map((seat) => seatName(meta, seat));
  return { text: fmt(ngettext("Waiting for %(names)s to choose", "Waiting for %(names)s to choose", seats.length), { names: listOf(seats) }), since: meta.acted_at };
}

/** The end: no gifts; every guest's jewels across the tables, the winners, the champions. */
function result(partyResult, { csv, story }) {
  return renderResult(partyResult, { actions: h("p", { class: "r-actions" }, csv, " ", story(code, { text: EVERY_TABLE_STORY })) });
}

/** Mount Royal Heist's dashboard tables in `rootEl` (#tables). */
export function mount(rootEl, ctx) {
  root = rootEl;
  S = ctx.state;
  code = ctx.code;
  ({ tabletsPanel, partyCommand } = ctx);
  return {
    draw,
    result,
    perFrame: true, // every seat decides at once: 13 tables send dozens of updates a second
    words: {
      deal: (n, least) => n < least // least: the definition's min_players, 3
        ? gettext("Seat everyone (needs 3 guests)")
        : fmt(ngettext("Seat everyone (%(n)s player)", "Seat everyone (%(n)s players)", n), { n }),
      dealt: gettext("Everyone is seated: the heists begin."),
    },
  };
}
