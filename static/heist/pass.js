// The party's pass (events/access/gate.py): a cookie the server sets whenever it hands out
// one of the party's secrets. It lets this device's pages and sockets through limits
// that the venue's shared address may have run into. A device that holds a secret in
// localStorage but no pass (cookies cleared) trades the secret for a new one.

function hasPass(code) {
  return document.cookie.split(";").some((c) => c.trim().startsWith(`heist_pass_${code}=`));
}

/** The secret this browser holds for the party, if any (host, seat or tablet). */
export function localSecret(code) {
  const host = localStorage.getItem(`heist.host.${code}`);
  if (host) return host;
  for (const key of [`heist.seat.${code}`, `heist.tablet.${code}`]) {
    try {
      const stored = JSON.parse(localStorage.getItem(key) || "null");
      if (stored && stored.token) return stored.token;
    } catch { /* not ours */ }
  }
  return null;
}

/** Make sure this browser holds the party's pass; true if it had to ask for one. */
export async function keepPass(code, token) {
  if (!code || !token || hasPass(code)) return false;
  try {
    const res = await fetch(`/api/parties/${encodeURIComponent(code)}/pass`, {
      method: "POST", headers: { Authorization: `Bearer ${token}` },
    });
    return res.status === 204;
  } catch {
    return false; // offline: the socket's hello still proves the secret
  }
}

// On the "slow down" page: if this browser holds a secret of the party, get the pass
// and load the page again (once per visit).
const slow = document.querySelector("[data-pass-code]");
if (slow) {
  const code = slow.dataset.passCode.toUpperCase();
  const once = `heist.pass-retry.${code}`;
  const secret = localSecret(code);
  if (secret && !sessionStorage.getItem(once)) {
    sessionStorage.setItem(once, "1");
    keepPass(code, secret).then((renewed) => { if (renewed) location.reload(); });
  }
}
