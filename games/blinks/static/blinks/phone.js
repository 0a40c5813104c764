// Blinks Heist on a guest's phone (static/heist/play.js is its shell and says what
// `mount` returns): whose turn it is, your team, your claimed Blinks and, on your turn,
// big Hit / Miss / Touched on the way back buttons that record your throw; the captain
// settles it. A captain's phone also confirms a record and takes the last one back.
// In the lobby, the team the host set by hand (the snapshot's `me.group`); at the end,
// the winning team over every table (the snapshot's `standing`), yours, and your table's.
import { EVERY_TABLE_STORY, storyLink } from "../heist/story-link.js";
import { h, render, showError, track } from "../heist/ui.js";
import { recordText, seatList, teamChip, teamName, teamTotals, turnLine, vaultHexes } from "./draw.js";

const names = (list) => list.map(teamName).join(", ");

/** The party's result as the phone says it (events/party/selectors.py guest_standing:
 * `group`, this guest's team, and `groups`, every team's total, the winners flagged). */
function partyEnd(standing) {
  const groups = standing.groups || [];
  const won = groups.filter((g) => g.winner);
  const best = won.length ? won[0].total : 0;
  const line = won.length === 0
    ? gettext("No team claimed a gold Blink.")
    : won.length === 1
      ? interpolate(ngettext("%(team)s wins the party with %(n)s gold Blink.", "%(team)s wins the party with %(n)s gold Blinks.", best),
        { team: teamName(won[0].group), n: best }, true)
      : interpolate(ngettext("A tie: %(teams)s share the win with %(n)s gold Blink each.", "A tie: %(teams)s share the win with %(n)s gold Blinks each.", best),
        { teams: names(won.map((g) => g.group)), n: best }, true);
  const mine = groups.find((g) => g.group === standing.group);
  return h("section", { class: "bk-end", id: "bk-end", data: { winners: won.map((g) => g.group).join(",") } },
    h("h2", { class: won.length === 1 ? `bk-winner won bk-team-${won[0].group}` : "bk-winner", text: line }),
    mine
      ? h("p", { class: `bk-your-team bk-team-${mine.group}`, id: "bk-your-team", data: { team: mine.group, total: mine.total } },
        interpolate(ngettext("Your team, %(team)s, claimed %(n)s gold Blink across the tables.", "Your team, %(team)s, claimed %(n)s gold Blinks across the tables.", mine.total),
          { team: teamName(mine.group), n: mine.total }, true))
      : null,
    h("h3", { text: gettext("The teams' gold Blinks") }),
    teamTotals(groups.map((g) => g.total), { leaders: won.map((g) => g.group) }));
}

/** Your table's result: who claimed most, the team(s) that claimed most of its vault, and
 * every team's share. */
function tableEnd(view, meta) {
  const top = view.winning_teams || [];
  const claims = view.team_claims || [];
  return h("section", { class: "bk-table-end", id: "bk-table-end", data: { winners: top.join(",") } },
    h("h3", { text: interpolate(gettext("Table %(letter)s"), { letter: meta.letter }, true) }),
    turnLine(view, meta), // the vault is empty, and who claimed most of it
    top.length
      ? h("p", { text: interpolate(gettext("Most gold Blinks at this table: %(teams)s (%(n)s)."), { teams: names(top), n: claims[top[0]] }, true) })
      : null,
    teamTotals(claims, { leaders: top }));
}

export function mount(root, ctx) {
  let me = null;
  let payload = null;
  let status = null; // the party's
  let standing = null; // at the party's end: the teams' result (partyEnd)
  let touched = false;
  let picking = false; // Hit was tapped: which Blink?

  function send(action, what) {
    return track(ctx.live.act(action, { version: payload.version }), what).catch(showError);
  }

  function record(hit) {
    const view = payload.view;
    const action = { type: "throw", seat: view.you, throw: view.next_throw, hit, touched };
    picking = false;
    touched = false;
    draw();
    send(action, gettext("Recording your throw"));
  }

  function throwButtons(view) {
    if (picking) {
      return h("section", { class: "bk-record", id: "bk-pick" },
        h("h2", { text: gettext("Which Blink did you hit?") }),
        vaultHexes(view, { onPick: record, big: true }),
        h("button", { type: "button", class: "btn", id: "bk-back", text: gettext("Back"), on: { click: () => { picking = false; draw(); } } }));
    }
    return h("section", { class: "bk-record" },
      h("h2", { text: gettext("Your turn: throw, then record it") }),
      h("div", { class: "bk-big" },
        h("button", { type: "button", class: "btn primary bk-hit", id: "bk-hit", text: gettext("Hit"), on: { click: () => { picking = true; draw(); } } }),
        h("button", { type: "button", class: "btn bk-miss", id: "bk-miss", text: gettext("Miss"), on: { click: () => record(null) } }),
        h("button", {
          type: "button", class: "btn bk-touched", id: "bk-touched", "aria-pressed": String(touched),
          text: gettext("Touched on the way back"),
          on: { click: () => { touched = !touched; draw(); } },
        })),
      view.can_end_turn
        ? h("button", { type: "button", class: "btn", id: "bk-end", text: gettext("End my turn"),
          on: { click: () => send({ type: "end_turn", seat: view.you }, gettext("Ending your turn")) } })
        : null);
  }

  function captainBox(view) {
    if (!me || !me.captain) return null;
    const out = [];
    if (view.pending) {
      out.push(h("button", { type: "button", class: "btn primary", id: "bk-confirm",
        text: interpolate(gettext("Confirm: %(what)s"), { what: recordText(view.pending) }, true),
        on: { click: () => send({ type: "confirm", throw: view.pending.throw }, gettext("Confirming")) } }));
    }
    if (view.undoable) {
      out.push(h("button", { type: "button", class: "btn", id: "bk-undo",
        text: interpolate(gettext("Take back throw %(n)s"), { n: view.undoable.throw }, true),
        on: { click: () => send({ type: "undo", throw: view.undoable.throw }, gettext("Taking it back")) } }));
    }
    return out.length ? h("section", { class: "bk-captain" }, h("h2", { text: gettext("Captain") }), out) : null;
  }

  function draw() {
    if (!payload) {
      // The lobby: the team the host set by hand, as soon as it is set (the seating draws
      // the rest, and says nothing before). A guest who left (a substitute plays their
      // seat) still hears how the party ended; a late arrival never seated, that it did.
      const group = me && typeof me.group === "number" ? me.group : null;
      // The shell's head above names the party and the guest (play.js).
      render(root, h("section", { class: "bk-phone bk-unseated" },
        group === null ? null : h("p", { class: "bk-you", id: "bk-team", data: { team: group } }, gettext("Your team:"), " ", teamChip(group)),
        status !== "over"
          ? h("p", { class: "bk-wait", text: gettext("Wait for the host to seat you.") })
          : standing ? partyEnd(standing) : h("p", { class: "bk-wait", text: gettext("This party is over.") }),
        status === "over" ? h("p", { class: "bk-story" }, storyLink(ctx.code, { text: EVERY_TABLE_STORY })) : null));
      return;
    }
    const view = payload.view;
    const meta = payload.table;
    const mine = view.your_blinks || [];
    const up = view.your_turn;
    const over = view.phase === "over";
    let end = null;
    if (over) {
      end = status === "over" && standing
        ? partyEnd(standing)
        : h("p", { class: "bk-end-wait", id: "bk-end-wait", text: gettext("Your table is done. The winning team is named once every table's vault is empty.") });
    }
    // Under the shell's head: the table, the seat and the guest (play.js).
    render(root, h("section", { class: `bk-phone bk-team-${view.your_team}`, data: { version: payload.version, turn: up ? "you" : "" } },
      end,
      h("p", { class: "bk-you" }, gettext("Your team:"), " ", teamChip(view.your_team)),
      h("p", { class: "bk-mine", id: "bk-mine", data: { count: mine.length } }, mine.length
        ? interpolate(ngettext("Your Blink: %(list)s", "Your Blinks: %(list)s", mine.length), { list: mine.map((b) => `#${b}`).join(", ") }, true)
        : view.phase === "over" ? gettext("You claimed no Blinks.") : gettext("No Blinks claimed yet.")),
      up || over ? null : turnLine(view, meta),
      up && !view.pending ? throwButtons(view) : null,
      view.pending && view.pending.seat === view.you
        ? h("p", { class: "bk-waiting", text: interpolate(gettext("You recorded %(what)s. Waiting for the captain."), { what: recordText(view.pending) }, true) })
        : null,
      captainBox(view),
      over ? tableEnd(view, meta) : null,
      picking ? null : vaultHexes(view),
      seatList(view, meta, view.you),
      over && status === "over" ? h("p", { class: "bk-story" }, storyLink(ctx.code, { text: EVERY_TABLE_STORY })) : null));
  }

  return {
    snapshot(snap) {
      me = snap.me || null;
      status = snap.party ? snap.party.status : status;
      standing = snap.standing || null;
      payload = snap.table && snap.table.view && snap.table.view.you !== undefined ? snap.table : null;
      draw();
    },
    table(msg) {
      if (payload && msg.view.next_throw !== payload.view.next_throw) picking = false;
      payload = msg;
      draw();
    },
    party(party) {
      const was = status;
      if (party.status) status = party.status;
      // The party just ended: the shell resyncs, as the snapshot carries the teams'
      // result (the public update does not); until it comes the phone says its table is done.
      if (status === "over" && was !== "over") draw();
    },
    fatal(code, message) {
      render(root, h("p", { class: "form-error", role: "alert", text: message || code }));
    },
    draw,
  };
}

