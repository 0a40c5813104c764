// Blinks Heist on the big screen (static/heist/screen.js is its shell and says what
// `mount` returns): every table's vault and whose turn it is, and the four teams'
// running totals over every table in the party bar; at the end, the winning team.
import { h, render } from "../heist/ui.js";
import { sumTeams, teamName, teamTotals, turnLine, vaultHexes } from "./draw.js";

export function mount(root) {
  const box = root.querySelector("#tables");
  const bar = root.querySelector("#party-bar");
  const end = root.querySelector("#end");

  function draw({ tables }) {
    const list = [...(tables || [])];
    box.dataset.count = String(list.length);
    // Each table's tile (data-letter) straight in #tables: heist/screen.js lays them out and
    // pages them so that none is cut and no text shrinks; the teams stay in the party bar,
    // above every page.
    render(box, list.map((p) => h("section", { class: "bk-board-table", data: { table: p.table.letter, letter: p.table.letter, version: p.version } },
      h("h2", { text: interpolate(gettext("Table %(letter)s"), { letter: p.table.letter }, true) }),
      vaultHexes(p.view),
      turnLine(p.view, p.table))));
    if (!list.length) return;
    const totals = sumTeams(list);
    if (bar) {
      bar.hidden = false;
      render(bar, h("div", { class: "bk-teams", id: "bk-teams" }, h("h2", { text: gettext("The teams' gold Blinks") }), teamTotals(totals)));
    }
    if (end) {
      const over = list.every((p) => p.view.phase === "over");
      end.hidden = !over;
      if (over) {
        const best = Math.max(...totals);
        const won = totals.map((n, t) => (n === best ? teamName(t) : null)).filter(Boolean).join(", ");
        render(end, h("p", { class: "bk-end", text: interpolate(gettext("Every vault is empty. The winning team: %(teams)s."), { teams: won }, true) }));
      }
    }
  }
  return { draw };
}
