// Word Heist on the big screen (the board module: static/heist/screen.js is its shell and
// says what `mount` returns): the leaderboard and every table's Tableau, clue tokens and
// progress, from the public views only: a secret word is not in them before the reveal.
import { EVERY_TABLE_STORY, storyLink } from "../heist/story-link.js";
import { h, render, tickClocks } from "../heist/ui.js";
import { renderLeaderboard } from "./leaderboard.js";
import { renderTable } from "./table.js";

export function mount(root, ctx) {
  function draw({ party, tables: list }) {
    const stage = party.status;
    const note = document.getElementById("lobby-note");
    note.textContent = stage === "lobby" ? gettext("Scan the code and join.") : stage === "playing" ? gettext("The heists are on.") : gettext("The heists are over.");
    if (stage === "over") note.append(" ", storyLink(ctx.code, { screen: true, text: EVERY_TABLE_STORY }));
    document.getElementById("party-bar").hidden = true;
    document.getElementById("end").hidden = true;
    const box = document.getElementById("tables");
    box.hidden = stage === "lobby";
    box.dataset.count = String(list.length);
    if (!box.hidden) {
      // The leaderboard, then each table's tile (data-letter) straight in #tables: the
      // shell lays the tiles out and pages them so that none is cut and no text shrinks.
      render(box, [renderLeaderboard(list, { limit: 10 }), list.map((t) => renderTable(t.view, t.table, { tile: true }))]);
    }
    tickClocks();
  }
  return { draw };
}
