// Royal Heist on the big screen (the board module: static/heist/screen.js is its shell
// and says what `mount` returns): each table's tile (table.js) and the leaderboard, to
// the end; none of Yankee Heist's gifts or relay.
import { EVERY_TABLE_STORY, storyLink } from "../heist/story-link.js";
import { render, seatName, tickClocks } from "../heist/ui.js";
import { leaderRow, renderLeaderboard } from "./leaderboard.js";
import { renderTable } from "./table.js";

/** Draw Royal Heist's big screen in the page's regions. */
export function mount(root, ctx) {
  function draw({ party, tables: list }) {
    const stage = party.status;
    const note = document.getElementById("lobby-note");
    note.textContent = stage === "lobby" ? gettext("Scan the code and join.") : stage === "playing" ? gettext("The heists are on.") : gettext("The heists are over.");
    if (stage === "over") note.append(" ", storyLink(ctx.code, { screen: true, text: EVERY_TABLE_STORY }));
    document.getElementById("party-bar").hidden = true;
    document.getElementById("end").hidden = true;
    const tilesBox = document.getElementById("tables");
    tilesBox.hidden = stage === "lobby";
    tilesBox.dataset.count = String(list.length);
    const rows = list.flatMap(({ view, table: meta }) => view.seats.map((s) => leaderRow(s, seatName(meta, s.seat), meta.letter)));
    if (!tilesBox.hidden) render(tilesBox, [renderLeaderboard(rows, { limit: 10 }), list.map((t) => renderTable(t.view, t.table, { tile: true }))]);
    tickClocks();
  }
  return { draw };
}
