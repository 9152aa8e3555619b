/* Public pages: ask for the page's fragment every second while the tab is visible, so a
 * result East accepts shows within about two seconds (the standings are recomputed a moment
 * after a burst of confirmations). The poll is conditional: it sends the version it has and
 * the server answers 204, no body, while that version is current, so an idle page costs one
 * small request a second (one query on the server). */
"use strict";

(() => {
  const box = document.querySelector("[data-live]");
  if (!box) return;
  const every = Number(box.dataset.every || 1000);
  const stamp = document.querySelector("[data-live-stamp]");
  let version = box.dataset.version || "";
  let busy = false;

  async function refresh() {
    if (busy || document.visibilityState !== "visible") return;
    busy = true;
    try {
      const url = `${box.dataset.live}?v=${encodeURIComponent(version)}`;
      const response = await fetch(url, { headers: { Accept: "text/html" }, cache: "no-store" });
      if (response.status === 200) {
        box.innerHTML = await response.text();
        version = response.headers.get("X-Fragment-Version") || version;
      }
      if (stamp && response.ok) stamp.textContent = `Checked ${new Date().toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit", hour12: false })}`;
    } catch (e) {
      if (stamp) stamp.textContent = "Offline: showing the last standings received.";
    } finally {
      busy = false;
    }
  }

  setInterval(refresh, every);
  document.addEventListener("visibilitychange", refresh);
})();
