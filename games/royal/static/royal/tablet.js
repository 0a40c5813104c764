// Royal Heist on a captain's tablet (the tablet module: static/heist/tablet.js is its
// shell and says what `mount` returns): the room, who is inside, the clock, and the
// captain's one duty: a quiet guest's choice once the clock has run out (get out, the
// rules' empty fist). No gifts, relay or hand-over panel here.
import { callOnce, standInBox, worthCalling } from "../heist/standin.js";
import { render, tickClocks } from "../heist/ui.js";
import { renderTable } from "./table.js";

/** Draw Royal Heist's tablet into `root`. */
export function mount(root, ctx) {
  const S = ctx.state;
  function draw() {
    const { view, table: meta } = S.payload;
    const offline = ctx.offlineSeats ? ctx.offlineSeats() : null; // marked on their seats
    render(root, renderTable(view, meta, { offline }), standInBox(view, meta, { onAct: ctx.duty, big: true }));
    tickClocks();
    if (S.passKey && worthCalling(view, meta)) callOnce(S.passKey, root);
  }
  return { draw };
}
