// Word Heist on the host's dashboard (the tile module: static/heist/host.js is its shell
// and says what `mount` returns): each table (table.js: its Tableau, the clue tokens once
// shown, who has answered, never a word before the reveal) with its tablets, the party's
// leaderboard, and the gate the host opens for every table at once; the end: the
// champions, each table's winners, the ranking.
import { EVERY_TABLE_STORY } from "../heist/story-link.js";
import { fmt, h, render, tickClocks } from "../heist/ui.js";
import { renderLeaderboard, renderResult } from "./leaderboard.js";
import { renderTable } from "./table.js";

let root = null;
let code = "";
let tabletsPanel = null;
let partyCommand = null;

/** The gate: every table stops half-way; once all are there (or done), the host opens
 * the second half for all at once. */
function gate(tables) {
  const phases = tables.map((t) => t.view.phase);
  const waiting = phases.filter((p) => p === "gate").length;
  if (!waiting) return null;
  const ready = phases.every((p) => p === "gate" || p === "over");
  return h("div", { class: "panel w-gate", role: "status" },
    h("p", null, ready
      ? gettext("Every table is at the gate.")
      : fmt(ngettext("At the gate: %(waiting)s of %(tables)s table. The others are still playing their first half.", "At the gate: %(waiting)s of %(tables)s tables. The others are still playing their first half.", tables.length), { waiting, tables: tables.length })),
    ready
      ? h("button", { type: "button", class: "btn primary big", data: { key: "word-open-gate" }, on: { click: (ev) => partyCommand(ev.currentTarget, "open_gate") } }, gettext("Open the gate: play the next round"))
      : null);
}

function draw(tables) {
  root.classList.add("w-tables");
  const board = renderLeaderboard(tables, { limit: 10 });
  board.tabIndex = 0; // it scrolls in its own box: a keyboard reaches it (axe: scrollable-region-focusable)
  render(root, tables.length
    ? h("div", { class: "word w-host" }, gate(tables), board,
      h("div", { class: "w-host-tables" }, tables.map((t) => h("div", {
        class: "w-host-table", tabindex: "0", role: "region", data: { letter: t.table.letter },
        "aria-label": fmt(gettext("Table %(letter)s"), { letter: t.table.letter }),
      }, renderTable(t.view, t.table, { tile: true, mark: false }), tabletsPanel(t.table)))))
    : null);
  tickClocks();
}

function result(partyResult, { csv, story }) {
  return renderResult(partyResult, { actions: h("p", { class: "w-actions" }, csv, " ", story(code, { text: EVERY_TABLE_STORY })) });
}

/** Mount Word Heist's dashboard tables in `rootEl` (#tables). */
export function mount(rootEl, ctx) {
  root = rootEl;
  code = ctx.code;
  ({ tabletsPanel, partyCommand } = ctx);
  return {
    draw,
    result,
    perFrame: true, // everyone answers each step at once: many updates a second at 100 guests
    words: {
      deal: (n, least) => n < least
        ? fmt(gettext("Seat everyone (needs %(least)s guests)"), { least })
        : fmt(ngettext("Seat everyone (%(n)s player)", "Seat everyone (%(n)s players)", n), { n }),
      dealt: gettext("Everyone is seated: the heists begin."),
    },
  };
}
