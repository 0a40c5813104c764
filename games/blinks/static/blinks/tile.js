// Blinks Heist on the host's dashboard (static/heist/host.js is its shell and says what
// `mount` returns): a card per table (its vault, whose turn, a record waiting for the
// captain), the teams' running totals, and at the end the teams and the guests' ranking.
import { h, render } from "../heist/ui.js";
import { sumTeams, teamTotals, turnLine, vaultHexes } from "./draw.js";

export function mount(root, ctx) {
  function draw(tables) {
    const list = [...tables];
    root.classList.add("bk-tables");
    render(root,
      list.length ? h("div", { class: "bk-teams" }, h("h3", { text: gettext("The teams' gold Blinks") }), teamTotals(sumTeams(list))) : null,
      list.map((p) => h("section", { class: "bk-tile", data: { table: p.table.letter, letter: p.table.letter, version: p.version } },
        h("h3", { text: interpolate(gettext("Table %(letter)s"), { letter: p.table.letter }, true) }),
        turnLine(p.view, p.table),
        vaultHexes(p.view))));
  }

  function result(partyResult, { csv, story }) {
    const groups = partyResult.groups || [];
    const leaders = groups.filter((g) => g.winner).map((g) => g.group);
    const box = h("div", { class: "bk-result" },
      h("h3", { text: gettext("The teams") }),
      teamTotals(groups.map((g) => g.total), { leaders }),
      h("h3", { text: gettext("Gold Blinks by guest") }),
      h("ol", { class: "bk-ranking" }, partyResult.ranking.map((row) => h("li", { text: `${row.guest} (${row.table}): ${row.total}${row.table_winner ? " ★" : ""}` }))),
      csv, story(ctx.code));
    return box;
  }

  return {
    draw,
    result,
    words: {
      deal: (n) => interpolate(ngettext("Seat %(n)s guest in four teams", "Seat %(n)s guests in four teams", n), { n }, true),
      dealt: gettext("Seated"),
    },
  };
}
