// Blinks Heist on a captain's tablet (static/heist/tablet.js is its shell and says what
// `mount` returns): the vault as hexes with each Blink's health in team colours,
// mirroring the table, and the captain's taps: confirm the record waiting (one tap),
// the captain's call when the table saw it otherwise, take the last throw back, pass
// the turn of a thrower who is not there.
import { h, render } from "../heist/ui.js";
import { captainsCall, nameOf, recordText, seatList, turnLine, vaultHexes } from "./draw.js";

export function mount(root, ctx) {
  const S = ctx.state;

  function duties(view, meta) {
    const out = [];
    if (view.phase === "over") return out;
    if (view.pending) {
      const k = view.pending.throw;
      out.push(h("button", { type: "button", class: "btn primary bk-confirm", id: "bk-confirm",
        text: interpolate(gettext("Confirm: %(what)s"), { what: recordText(view.pending) }, true),
        on: { click: (ev) => ctx.duty({ type: "confirm", throw: k }, ev.currentTarget, gettext("Confirming")) } }));
      out.push(captainsCall(view, (hit, touched, button) =>
        ctx.duty({ type: "overrule", throw: k, hit, touched }, button, gettext("The captain's call"))));
      return out;
    }
    if (view.undoable) {
      const k = view.undoable.throw;
      out.push(h("button", { type: "button", class: "btn", id: "bk-undo",
        text: interpolate(gettext("Take back throw %(n)s (%(what)s)"), { n: k, what: recordText(view.undoable) }, true),
        on: { click: (ev) => ctx.duty({ type: "undo", throw: k }, ev.currentTarget, gettext("Taking it back")) } }));
    }
    out.push(h("button", { type: "button", class: "btn", id: "bk-pass",
      text: interpolate(gettext("%(name)s is not here: pass the turn"), { name: nameOf(meta, view.turn) }, true),
      on: { click: (ev) => ctx.duty({ type: "pass_turn", seat: view.turn }, ev.currentTarget, gettext("Passing the turn")) } }));
    return out;
  }

  function draw() {
    if (!S.payload) return;
    const { view, table: meta } = S.payload;
    render(root, h("section", { class: "bk-tablet", data: { version: S.payload.version } },
      h("h1", { text: interpolate(gettext("%(game)s · Table %(letter)s"), { game: ctx.game.title, letter: meta.letter }, true) }),
      turnLine(view, meta),
      h("div", { class: "bk-duties" }, duties(view, meta)),
      vaultHexes(view, { big: true }),
      seatList(view, meta, null, ctx.offlineSeats ? ctx.offlineSeats() : null)));
  }
  return { draw };
}
