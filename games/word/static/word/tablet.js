// Word Heist on a captain's tablet (the tablet module: static/heist/tablet.js is its shell
// and says what `mount` returns): the table's public view, large: the Tableau, the clue
// tokens once everyone's are down, who has answered each step (never what), the reveal
// with its "Halt!" moments and the challenge (each word the dictionary lacks, how many
// have voted and who is still to: each guest votes on their own phone, the rules count
// the majority);
// and the captain's duty: a quiet guest's step played for them once the party's clock
// ran out (the rules' do-nothing choice: no word, no clues, no guess, no vote).
import { callOnce } from "../heist/standin.js";
import { h, render, seatName, tickClocks } from "../heist/ui.js";
import { renderTable } from "./table.js";

export const TEXT = {
  duty: gettext("Captain's duty"),
  standIn: {
    word: (name) => interpolate(gettext("No word for %(name)s"), { name }, true),
    clues: (name) => interpolate(gettext("No clues for %(name)s"), { name }, true),
    halt: (name) => interpolate(gettext("No guess for %(name)s"), { name }, true),
    vote: (name) => interpolate(gettext("Abstain for %(name)s"), { name }, true),
  },
  before: gettext("A quiet guest's step may be played for them in "),
  after: gettext("The clock ran out: you may play it for them."),
  afterServer: gettext("The clock ran out: play it now, or the server will in a moment."),
  noClock: gettext("The party runs no step clock: the table waits for every guest."),
  challenge: gettext("The challenge"),
  challenged: (name, word) => interpolate(gettext("%(name)s's %(word)s is not in the dictionary: the table votes to accept it or not."), { name, word }, true),
  noChallenge: gettext("Every word is in the dictionary; anyone may still vote one out."),
  stillToVote: (names) => interpolate(gettext("Still to vote: %(names)s"), { names }, true),
  votes: (n, of) => interpolate(ngettext("%(n)s of %(of)s has voted.", "%(n)s of %(of)s have voted.", of), { n, of }, true),
  gate: gettext("The host opens the gate for every table at once."),
};

/** The captain's stand-in buttons for the seats the step waits on, each enabled once the
 * party's step clock ran out (ui.js tickClocks enables data-pass-after buttons). */
function dutyBox(view, meta, onAct) {
  const waiting = view.waiting_for || [];
  const label = TEXT.standIn[view.phase];
  if (!waiting.length || !label) return null;
  if (!meta.step_clock || !meta.step_due_at) return h("p", { class: "hint w-duty", text: TEXT.noClock });
  const began = meta.step_due_at - meta.step_clock;
  return h("div", { class: "standin w-duty", role: "group", "aria-label": TEXT.duty, data: { standin: view.phase } },
    h("p", { class: "hint" }, h("span", { class: "countdown", data: { openedAt: began, countdown: meta.step_clock, before: TEXT.before, after: meta.step_clock_server ? TEXT.afterServer : TEXT.after }, text: "" })),
    waiting.map((seat) => h("button", {
      type: "button", class: "btn standin-pass primary big", disabled: true,
      data: { openedAt: began, passAfter: meta.step_clock, key: `word-standin-${meta.id}-${view.version}-${seat}` },
      on: { click: (ev) => onAct({ type: "stand_in", seat }, ev.currentTarget, label(seatName(meta, seat))) },
    }, label(seatName(meta, seat)), h("span", { class: "pass-hint" }))));
}

function challengeBox(view, meta) {
  if (view.phase !== "vote") return null;
  const clued = view.clued || [];
  const lacking = clued.filter((s) => view.seats[s].known === false);
  const voted = view.seats.filter((s) => s.voted).length;
  // Who the table waits on, by name: the captain nudges them, or abstains for a quiet
  // one once the clock ran out (the duty below); a vote is its player's own, so the
  // captain never casts one for them, and a tie needs no one: it keeps the word.
  const waiting = view.seats.filter((s) => !s.voted).map((s) => seatName(meta, s.seat));
  return h("section", { class: "w-challenge", "aria-label": TEXT.challenge },
    h("h3", { text: TEXT.challenge }),
    lacking.length
      ? h("ul", null, lacking.map((s) => h("li", { text: TEXT.challenged(seatName(meta, s), view.seats[s].word) })))
      : h("p", { class: "hint", text: TEXT.noChallenge }),
    h("p", { role: "status", text: TEXT.votes(voted, view.players) }),
    waiting.length ? h("p", { class: "w-still", data: { waiting: waiting.length }, text: TEXT.stillToVote(waiting.join(", ")) }) : null);
}

/** Draw Word Heist's tablet into `root`. */
export function mount(root, ctx) {
  const S = ctx.state;
  function draw() {
    if (!S.payload) return;
    const { view, table: meta } = S.payload;
    const offline = ctx.offlineSeats ? ctx.offlineSeats() : null; // marked on their seats
    render(root, h("div", { class: "word w-tablet" },
      renderTable(view, meta, { offline }),
      challengeBox(view, meta),
      view.phase === "gate" ? h("p", { class: "hint", text: TEXT.gate }) : null,
      dutyBox(view, meta, ctx.duty)));
    tickClocks();
    const ready = root.querySelector("button[data-pass-after]:not([disabled])");
    if (ready) callOnce(`word:${meta.id}:${view.version}`, root);
  }
  return { draw };
}
