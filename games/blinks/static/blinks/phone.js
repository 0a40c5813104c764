// Blinks Heist on a guest's phone (static/heist/play.js is its shell and says what
// `mount` returns): whose turn it is, your team, your claimed Blinks and, on your turn,
// big Hit / Miss / Touched on the way back buttons that record your throw; the captain
// settles it. A captain's phone also confirms a record and takes the last one back.
import { h, render, showError, track } from "../heist/ui.js";
import { recordText, seatList, teamChip, turnLine, vaultHexes } from "./draw.js";

export function mount(root, ctx) {
  let me = null;
  let payload = null;
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
      render(root, h("h1", { text: ctx.game.title }), h("p", { class: "bk-wait", text: gettext("Wait for the host to seat you.") }));
      return;
    }
    const view = payload.view;
    const meta = payload.table;
    const mine = view.your_blinks || [];
    const up = view.your_turn;
    render(root, h("section", { class: `bk-phone bk-team-${view.your_team}`, data: { version: payload.version, turn: up ? "you" : "" } },
      h("h1", { text: ctx.game.title }),
      h("p", { class: "bk-you" }, gettext("Your team:"), " ", teamChip(view.your_team)),
      h("p", { class: "bk-mine", id: "bk-mine", data: { count: mine.length } }, mine.length
        ? interpolate(ngettext("Your Blink: %(list)s", "Your Blinks: %(list)s", mine.length), { list: mine.map((b) => `#${b}`).join(", ") }, true)
        : view.phase === "over" ? gettext("You claimed no Blinks.") : gettext("No Blinks claimed yet.")),
      up ? null : turnLine(view, meta),
      up && !view.pending ? throwButtons(view) : null,
      view.pending && view.pending.seat === view.you
        ? h("p", { class: "bk-waiting", text: interpolate(gettext("You recorded %(what)s. Waiting for the captain."), { what: recordText(view.pending) }, true) })
        : null,
      captainBox(view),
      picking ? null : vaultHexes(view),
      seatList(view, meta, view.you)));
  }

  return {
    snapshot(snap) {
      me = snap.me || null;
      payload = snap.table && snap.table.view && snap.table.view.you !== undefined ? snap.table : null;
      draw();
    },
    table(msg) {
      if (payload && msg.view.next_throw !== payload.view.next_throw) picking = false;
      payload = msg;
      draw();
    },
    party() {},
    fatal(code, message) {
      render(root, h("p", { class: "form-error", role: "alert", text: message || code }));
    },
    draw,
  };
}

