// Blinks Heist on the host's dashboard (static/heist/host.js is its shell and says what
// `mount` returns): a card per table (its vault, whose turn, a record waiting for the
// captain), the teams' running totals, and at the end the teams and the guests' ranking.
// In the lobby, each guest's team: set by hand, or left to the seating's balanced draw.
import { isMultiTable } from "../heist/party.js";
import { h, render } from "../heist/ui.js";
import { sumTeams, teamTotals, teams, turnLine, vaultHexes } from "./draw.js";

export function mount(root, ctx) {
  function draw(tables) {
    const list = [...tables];
    const multi = isMultiTable(ctx.state.party);
    root.classList.add("bk-tables");
    render(root,
      list.length ? h("div", { class: "bk-teams" }, h("h3", { text: gettext("The teams' gold Blinks") }), teamTotals(sumTeams(list))) : null,
      list.map((p) => tile(p, multi)),
      // One table: its tablets under it, as the other games' dashboards have them (the
      // host pairs the captain's tablet here); with several, each tile's Details has them.
      multi ? null : list.map((p) => ctx.tabletsPanel(p.table)));
  }

  function tile(p, multi) {
    const letter = p.table.letter;
    return h("section", { class: "bk-tile", data: { table: letter, letter, version: p.version } },
      h("div", { class: "bk-tile-top" },
        h("h3", { text: interpolate(gettext("Table %(letter)s"), { letter }, true) }),
        multi
          ? h("button", { class: "btn small details-btn", type: "button", data: { key: `details-${p.table.id}` }, "aria-haspopup": "dialog",
              "aria-label": interpolate(gettext("Details of table %(letter)s"), { letter }, true),
              on: { click: () => ctx.openDetails(p.table.id) } }, gettext("Details"))
          : null),
      turnLine(p.view, p.table),
      vaultHexes(p.view));
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

  /** The lobby's team picker for guest `g` (the host's party command set_group: a team's
   * number, or null for the seating's draw); the roster redraws with the party's answer. */
  function lobbyGuest(g) {
    const set = g.group === null || g.group === undefined ? null : g.group;
    return h("select", {
      class: `bk-pick-team${set === null ? "" : ` bk-team-${set}`}`,
      "aria-label": interpolate(gettext("%(name)s's team"), { name: g.name }, true),
      data: { key: `team-${g.id}`, guest: g.id, team: set === null ? "drawn" : set },
      on: {
        change: (ev) => {
          const pick = ev.currentTarget;
          const group = pick.value === "" ? null : Number(pick.value);
          ctx.command(pick, "set_group", { guest: g.id, group }).then((ok) => { if (!ok) pick.value = set === null ? "" : String(set); });
        },
      },
    },
    h("option", { value: "", selected: set === null, text: gettext("Team: drawn at seating") }),
    teams().map((t) => h("option", { value: String(t.team), selected: set === t.team, text: t.name })));
  }

  return {
    draw,
    lobbyGuest,
    result,
    words: {
      deal: (n) => interpolate(ngettext("Seat %(n)s guest in four teams", "Seat %(n)s guests in four teams", n), { n }, true),
      dealt: gettext("Seated"),
    },
  };
}
