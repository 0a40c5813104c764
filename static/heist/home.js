// Home: host a party (POST /api/parties, keep the host key) or join with a code.
import { h, loadJSON, normalizeCode } from "./ui.js";

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
    fail(joinError, "A join code is six letters and digits.");
    document.getElementById("join-code").focus();
    return;
  }
  location.href = `/j/${code}/`;
});

hostForm.addEventListener("submit", async (ev) => {
  ev.preventDefault();
  hostError.hidden = true;
  const name = document.getElementById("party-name").value.trim();
  if (!name) {
    fail(hostError, "Give your party a name.");
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
        budget: document.getElementById("party-budget").value.trim(),
        jokes_welcome: document.getElementById("party-jokes").checked,
        vault_size: Number(document.getElementById("party-vault").value),
        step_clock: Number(document.getElementById("party-clock").value),
        step_clock_server: document.getElementById("party-clock-server").checked,
        game: document.getElementById("party-game")?.value || "yankee",
      }),
    });
    const data = await res.json().catch(() => ({}));
    if (res.status !== 201) {
      fail(hostError, data.message || `The server refused (${res.status}).`);
      return;
    }
    localStorage.setItem(`heist.host.${data.code}`, data.host_token);
    location.href = data.host_url;
  } catch {
    fail(hostError, "Could not reach the party host. Check your connection and try again.");
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
  if (m[1] === "host") mine.push(h("li", {}, h("a", { href: `/host/${m[2]}/` }, `Host dashboard for ${m[2]}`)));
  else {
    const seat = loadJSON(key);
    mine.push(h("li", {}, h("a", { href: `/p/${m[2]}/` }, `Your seat at ${m[2]}${seat && seat.gift_number ? ` (gift ${seat.gift_number})` : ""}`)));
  }
}
if (mine.length) {
  document.getElementById("mine-list").replaceChildren(...mine);
  document.getElementById("mine").hidden = false;
}
