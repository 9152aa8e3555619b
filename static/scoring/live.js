/* Public pages: re-fetch the page's fragment every few seconds while the tab is visible.
 * The server answers 204 when the fragment's version has not changed, so an idle page
 * costs one small request. */
"use strict";

(() => {
  const box = document.querySelector("[data-live]");
  if (!box) return;
  const every = Number(box.dataset.every || 8000);
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
