// Join: a returning guest goes straight to their seat; a new one names themselves and
// secretly describes their gift (POST /api/parties/<CODE>/guests).
const app = document.getElementById("app");
const code = app.dataset.code;
const seatKey = `heist.seat.${code}`;

if (localStorage.getItem(seatKey)) {
  location.replace(`/p/${code}/`);
}

const form = document.getElementById("guest-form");
const error = document.getElementById("guest-error");

function fail(message, field) {
  error.textContent = message;
  error.hidden = false;
  if (field) field.focus();
}

if (form) {
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.hidden = true;
    const nameField = document.getElementById("guest-name");
    const giftField = document.getElementById("guest-gift");
    const name = nameField.value.trim();
    const description = giftField.value.trim();
    if (!name) return fail("Please enter your name.", nameField);
    if (!description) return fail("Describe your gift (only you will see it until it is peeked or unwrapped).", giftField);
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    try {
      const res = await fetch(`/api/parties/${encodeURIComponent(code)}/guests`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ name, description }),
      });
      const data = await res.json().catch(() => ({}));
      if (res.status !== 201) {
        const prefix = { 410: "Too late: ", 409: "Sorry: ", 404: "Hmm: " }[res.status] || "";
        fail(prefix + (data.message || `the server refused (${res.status})`) + ".");
        return;
      }
      localStorage.setItem(seatKey, JSON.stringify({ token: data.token, guest: data.guest, gift_number: data.gift_number }));
      location.href = data.play_url;
    } catch {
      fail("Could not reach the party host. Check your connection and try again.");
    } finally {
      button.disabled = false;
    }
  });
}
