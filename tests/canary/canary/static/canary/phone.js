// Canary Heist on a guest's phone: the table's cards and, on this seat's turn, Draw.
import { cardsList, el, namesOf, outcome } from "./draw.js";

export function mount(root, ctx) {
  let snap = null;
  let payload = null;
  let error = "";

  function act() {
    error = "";
    ctx.live.act({ type: "draw", seat: payload.view.you }, { version: payload.version }).then((res) => {
      if (res && res.type === "error") error = res.message || res.code;
      draw();
    });
  }

  function draw() {
    root.replaceChildren();
    root.append(el("h2", ctx.game.title)); // under the shell's head, the phone's h1 (play.js)
    if (!payload) {
      root.append(el("p", gettext("Wait for the host to seat you."), { class: "canary-wait" }));
      return;
    }
    const view = payload.view;
    const names = namesOf(payload.table);
    const box = el("section", null, { class: "canary-table", "data-version": String(payload.version) });
    box.append(cardsList(view, names), outcome(view, names));
    if (view.can_draw) {
      const button = el("button", gettext("Draw"), { class: "btn primary", type: "button", id: "canary-draw" });
      button.addEventListener("click", act);
      box.append(button);
    }
    root.append(box);
    if (error) root.append(el("p", error, { class: "form-error", role: "alert" }));
  }

  return {
    snapshot(s) {
      snap = s;
      payload = s.table || null;
      draw();
    },
    table(msg) {
      payload = msg;
      draw();
    },
    party() {},
    fatal(code, message) {
      root.replaceChildren(el("p", message || code, { class: "form-error", role: "alert" }));
    },
    draw,
    get snap() {
      return snap;
    },
  };
}
