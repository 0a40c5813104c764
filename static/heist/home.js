// Home: host a party (POST /api/parties, keep the host key) or join with a code.
import { h, loadJSON, normalizeCode, serverSays } from "./ui.js";

const hostForm = document.getElementById("host-form");
const hostError = document.getElementById("host-error");
const joinForm = document.getElementById("join-form");
const joinError = document.getElementById("join-error");

function fail(box, message) {
  box.textContent = message;
  box.hidden = false;
}

joinForm.addEventListener("submit", (ev) => {
  ev.preventDefault();
  const code = normalizeCode(document.getElementById("join-code").value);
  if (!/^[A-Z0-9]{6}$/.test(code)) {
    fail(joinError, gettext("A join code is six letters and digits."));
    document.getElementById("join-code").focus();
    return;
  }
  location.href = `/j/${code}/`;
});

// The form's parts follow the game chosen, as its definition says (events/web/views.py
// home): the gift fields only for a game with gifts, the vault only for one with vaults,
// "games in a row" only for one that plays several, the step clock's hints in the game's
// own words. With one game there is no choice: the form itself carries the default
// game's parts, and the page its hints.
const gameSelect = document.getElementById("party-game");
const gamesField = document.getElementById("party-games-field");
const gamesSelect = document.getElementById("party-games");
const vaultField = document.getElementById("party-vault-field");
const giftFields = document.getElementById("party-gift-fields");
const clockHint = document.getElementById("party-clock-hint");
const standInHint = document.getElementById("party-stand-in-hint");
function chosenGame() {
  const facts = (gameSelect ? gameSelect.selectedOptions[0] : null) || hostForm;
  return {
    gifts: facts.dataset.gifts === "1",
    vaults: facts.dataset.vaults === "1",
    games: Number(facts.dataset.games || 1),
    maxGames: Number(facts.dataset.maxGames || 1),
    clockHint: facts.dataset.clockHint,
    standInHint: facts.dataset.standInHint,
  };
}
// The chosen game's own rules the host decides (its definition's host_options).
const chosenName = () => (gameSelect ? gameSelect.value : null);
function gameOptions() {
  const out = {};
  const box = document.querySelector(`[data-options-of="${chosenName()}"]`);
  if (!box) return out;
  for (const input of box.querySelectorAll("[data-option]")) {
    out[input.dataset.option] = input.dataset.kind === "bool" ? input.checked : Number(input.value);
  }
  return out;
}
function followGame() {
  const game = chosenGame();
  for (const box of document.querySelectorAll("[data-options-of]")) box.hidden = box.dataset.optionsOf !== chosenName();
  giftFields.hidden = !game.gifts;
  vaultField.hidden = !game.vaults;
  gamesField.hidden = game.maxGames < 2;
  if (game.clockHint) clockHint.textContent = game.clockHint;
  if (game.standInHint) standInHint.textContent = game.standInHint;
  const options = [];
  for (let n = 1; n <= game.maxGames; n++) {
    options.push(h("option", { value: String(n), selected: n === game.games }, n === game.games ? interpolate(gettext("%(count)s (recommended)"), { count: n }, true) : String(n)));
  }
  gamesSelect.replaceChildren(...options);
}
if (gameSelect) gameSelect.addEventListener("change", followGame);
followGame();

hostForm.addEventListener("submit", async (ev) => {
  ev.preventDefault();
  hostError.hidden = true;
  const name = document.getElementById("party-name").value.trim();
  if (!name) {
    fail(hostError, gettext("Give your party a name."));
    document.getElementById("party-name").focus();
    return;
  }
  const button = hostForm.querySelector("button[type=submit]");
  button.disabled = true;
  try {
    const res = await fetch("/api/parties", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        name,
        budget: chosenGame().gifts ? document.getElementById("party-budget").value.trim() : "",
        jokes_welcome: document.getElementById("party-jokes").checked,
        vault_size: chosenGame().vaults ? Number(document.getElementById("party-vault").value) : 0,
        games: chosenGame().maxGames > 1 ? Number(gamesSelect.value) : 1,
        step_clock: Number(document.getElementById("party-clock").value),
        step_clock_server: document.getElementById("party-clock-server").checked,
        ...(gameSelect ? { game: gameSelect.value } : {}), // none: the server's default game
        language: document.getElementById("party-language").value,
        ...(gameSelect ? { options: gameOptions() } : {}),
      }),
    });
    const data = await res.json().catch(() => ({}));
    if (res.status !== 201) {
      fail(hostError, serverSays(data) || interpolate(gettext("The server refused (%(status)s)."), { status: res.status }, true));
      return;
    }
    localStorage.setItem(`heist.host.${data.code}`, data.host_token);
    location.href = data.host_url;
  } catch {
    fail(hostError, gettext("Could not reach the party host. Check your connection and try again."));
  } finally {
    button.disabled = false;
  }
});

// Parties this browser hosts or has a seat at.
const mine = [];
for (let i = 0; i < localStorage.length; i++) {
  const key = localStorage.key(i);
  const m = /^heist\.(host|seat)\.([A-Z0-9]{6})$/.exec(key || "");
  if (!m) continue;
  if (m[1] === "host") mine.push(h("li", {}, h("a", { href: `/host/${m[2]}/` }, interpolate(gettext("Host dashboard for %(code)s"), { code: m[2] }, true))));
  else {
    const seat = loadJSON(key);
    mine.push(h("li", {}, h("a", { href: `/p/${m[2]}/` }, seat && seat.gift_number
      ? interpolate(gettext("Your seat at %(code)s (gift %(gift)s)"), { code: m[2], gift: seat.gift_number }, true)
      : interpolate(gettext("Your seat at %(code)s"), { code: m[2] }, true))));
  }
}
if (mine.length) {
  document.getElementById("mine-list").replaceChildren(...mine);
  document.getElementById("mine").hidden = false;
}
