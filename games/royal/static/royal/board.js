// Royal Heist on the big screen (the board module: static/heist/screen.js is its shell
// and says what `mount` returns): each table's tile (table.js) and the leaderboard, to
// the end; none of Yankee Heist's gifts or relay.
import { EVERY_TABLE_STORY, storyLink } from "../heist/story-link.js";
import { h, render, seatName, tickClocks } from "../heist/ui.js";
import { RESULT_TEXT, leaderRow, ranked, renderLeaderboard } from "./leaderboard.js";
import { fitTiles, renderTable } from "./table.js";

/** Draw Royal Heist's big screen in the page's regions. */
export function mount(root, ctx) {
  function draw({ party, tables: list }) {
    const stage = party.status;
    const note = document.getElementById("lobby-note");
    note.textContent = stage === "lobby" ? gettext("Scan the code and join.") : stage === "playing" ? gettext("The heists are on.") : gettext("The heists are over.");
    if (stage === "over") note.append(" ", storyLink(ctx.code, { screen: true, text: EVERY_TABLE_STORY }));
    document.getElementById("party-bar").hidden = true;
    const tilesBox = document.getElementById("tables");
    tilesBox.hidden = stage === "lobby";
    tilesBox.dataset.count = String(list.length);
    const rows = list.flatMap(({ view, table: meta }) => view.seats.map((s) => leaderRow(s, seatName(meta, s.seat), meta.letter)));
    // The end: the room hears who won the whole party, named large above the tables.
    const end = document.getElementById("end");
    end.hidden = stage !== "over" || !rows.length;
    if (!end.hidden) {
      const best = ranked(rows).filter((r) => r.rank === 1);
      render(end, h("h2", { id: "end-h", class: "r-champion", text: RESULT_TEXT.champion(best.map((r) => interpolate(gettext("%(name)s (table %(letter)s)"), { name: r.name, letter: r.table }, true))) }));
    }
    if (!tilesBox.hidden) render(tilesBox, [renderLeaderboard(rows, { limit: 10 }), list.map((t) => renderTable(t.view, t.table, { tile: true }))]);
    tickClocks();
  }
  return { draw, fit: fitTiles };
}
