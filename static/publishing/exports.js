/* Organiser's publishing page: follow every export that is still queued or running by
 * polling its JSON status, move its progress bar, and reload the page once it is finished
 * (to show the download link). */
"use strict";

(() => {
  const cells = [...document.querySelectorAll("[data-export-status]")].filter(
    (cell) => cell.dataset.state === "queued" || cell.dataset.state === "running",
  );
  if (!cells.length) return;

  async function poll(cell) {
    try {
      const response = await fetch(cell.dataset.exportStatus, {
        headers: { Accept: "application/json" },
        credentials: "same-origin",
        cache: "no-store",
      });
      if (!response.ok) throw new Error(String(response.status));
      const status = await response.json();
      if (status.state === "done" || status.state === "failed") {
        window.location.reload();
        return;
      }
      const bar = cell.querySelector("progress");
      const step = cell.querySelector(".step");
      if (bar) { bar.value = status.progress; bar.textContent = `${status.progress}%`; }
      if (step) step.textContent = status.step;
    } catch (error) {
      const step = cell.querySelector(".step");
      if (step) step.textContent = typeof gettext === "function"
        ? gettext("Lost touch with the server; retrying…")
        : "Lost touch with the server; retrying…";
    }
    setTimeout(() => poll(cell), 1000);
  }

  cells.forEach((cell) => setTimeout(() => poll(cell), 500));
})();
