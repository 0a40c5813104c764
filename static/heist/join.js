// Join: a returning guest goes straight to their seat; a new one names themselves and
// secretly describes their gift (POST /api/parties/<CODE>/guests); a substitute takes
// over a seat with the host's one-time hand-over code (POST .../claim).
import { gameInfo } from "./game.js";
import { midSentence, serverSays } from "./ui.js";

const app = document.getElementById("app");
const code = app.dataset.code;
const seatKey = `heist.seat.${code}`;

if (localStorage.getItem(seatKey)) {
  location.replace(`/p/${code}/`);
}

function fail(box, message, field) {
  box.textContent = message;
  box.hidden = false;
  if (field) field.focus();
}

const BUSY_RETRIES = 5; // a 503 "busy" never reached the server's code: sending again is safe

const pause = (seconds) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

/** POST a JSON body; on 201 keep the seat secret and go to the phone screen. When the
 * host is busy (a room joining at once; config/admission.py) wait as it asks and retry. */
async function takeSeat(form, box, url, body) {
  const button = form.querySelector("button[type=submit]");
  button.disabled = true;
  try {
    let res = null;
    for (let attempt = 0; ; attempt++) {
      res = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
      if (res.status !== 503 || attempt >= BUSY_RETRIES) break;
      fail(box, gettext("Lots of guests are joining right now: one moment…"));
      await pause(Number(res.headers.get("Retry-After")) || 2);
    }
    box.hidden = true;
    const data = await res.json().catch(() => ({}));
    if (res.status !== 201) {
      // The server's message comes in this page's language; a few words before it set the tone.
      const prefix = { 410: gettext("Too late: %(message)s."), 409: gettext("Sorry: %(message)s."), 404: gettext("Hmm: %(message)s."), 429: gettext("Slow down: %(message)s.") }[res.status];
      const message = serverSays(data) || interpolate(gettext("the server refused (%(status)s)"), { status: res.status }, true);
      // After those words of tone the message goes on the sentence; alone it starts one.
      fail(box, prefix ? interpolate(prefix, { message: midSentence(message) }, true) : `${message.charAt(0).toUpperCase()}${message.slice(1)}.`);
      return;
    }
    // The gift's number, for a game with the party's gifts (the home page's "gift 3", the
    // story's journey): a game without gifts numbers its guests, brings no gift.
    const gift = gameInfo().features.gifts ? data.gift_number : null;
    localStorage.setItem(seatKey, JSON.stringify({ token: data.token, guest: data.guest, gift_number: gift }));
    location.href = data.play_url;
  } catch {
    fail(box, gettext("Could not reach the party host. Check your connection and try again."));
  } finally {
    button.disabled = false;
  }
}

const form = document.getElementById("guest-form");
if (form) {
  const box = document.getElementById("guest-error");
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    box.hidden = true;
    const nameField = document.getElementById("guest-name");
    const giftField = document.getElementById("guest-gift");
    const name = nameField.value.trim();
    const description = giftField ? giftField.value.trim() : null; // a game without gifts asks for none
    if (!name) return fail(box, gettext("Please enter your name."), nameField);
    if (giftField && !description) return fail(box, gettext("Describe your gift (it stays secret until the game shows it)."), giftField);
    return takeSeat(form, box, `/api/parties/${encodeURIComponent(code)}/guests`, giftField ? { name, description } : { name });
  });
}

const claimForm = document.getElementById("claim-form");
if (claimForm) {
  const box = document.getElementById("claim-error");
  claimForm.addEventListener("submit", (ev) => {
    ev.preventDefault();
    box.hidden = true;
    const claimField = document.getElementById("claim-code");
    const nameField = document.getElementById("claim-name");
    const claim = claimField.value.trim().toUpperCase();
    const name = nameField.value.trim();
    if (!claim) return fail(box, gettext("Type the hand-over code the host gave you."), claimField);
    if (!name) return fail(box, gettext("Please enter your name."), nameField);
    return takeSeat(claimForm, box, `/api/parties/${encodeURIComponent(code)}/claim`, { claim, name });
  });
}
