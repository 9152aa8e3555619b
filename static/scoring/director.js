/* The director's overview hears the room: its list is asked again every few seconds (the
 * server answers 204 while no board changed), and a new director call raises a banner, a
 * sound when the director has turned it on, and the count of open calls in the page title,
 * which shows on a background tab. Browsers play sound only after a click on the page, hence
 * the button. */
"use strict";

(() => {
  const box = document.querySelector("[data-director-live]");
  if (!box) return;
  const EVERY_MS = 4000;
  const alertBox = document.getElementById("director-alert");
  const stamp = document.querySelector("[data-live-stamp]");
  const soundButton = document.querySelector("[data-sound]");
  const baseTitle = document.title.replace(/^\(\d+\) /, "");
  let version = box.dataset.version || "";
  let known = new Set(openCalls());
  let audio = null;
  let busy = false;

  function openCalls() {
    return Array.from(box.querySelectorAll("[data-open-call]"), (row) => row.dataset.openCall);
  }

  function showCount() {
    const count = openCalls().length;
    document.title = count ? `(${count}) ${baseTitle}` : baseTitle;
  }

  function beep() {
    if (!audio) return;
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 880;
    gain.gain.setValueAtTime(0.2, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.6);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.6);
  }

  function announce(calls) {
    const words = calls.length === 1 ? "The director is called" : `${calls.length} new director calls`;
    alertBox.textContent = `${words}: ${calls.join("; ")}.`;
    alertBox.hidden = false;
    beep();
  }

  async function refresh() {
    if (busy) return;
    busy = true;
    try {
      const url = new URL(box.dataset.directorLive, window.location.href);
      url.searchParams.set("v", version);
      const response = await fetch(url, { headers: { Accept: "text/html" }, cache: "no-store" });
      if (response.status === 200) {
        box.innerHTML = await response.text();
        version = response.headers.get("X-Fragment-Version") || version;
        const now = openCalls();
        const fresh = now.filter((call) => !known.has(call));
        known = new Set(now);
        if (fresh.length) announce(fresh);
        else if (!now.length) alertBox.hidden = true;
        showCount();
      }
      if (stamp && response.ok) stamp.textContent = `Up to date at ${new Date().toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit", hour12: false })}`;
      if (response.status === 302 || response.redirected) window.location.reload(); // signed out
    } catch (e) {
      if (stamp) stamp.textContent = "No connection: the list may be out of date.";
    } finally {
      busy = false;
    }
  }

  soundButton.addEventListener("click", () => {
    if (audio) {
      audio.close();
      audio = null;
    } else {
      const Context = window.AudioContext || window.webkitAudioContext;
      if (Context) audio = new Context();
      beep();
    }
    soundButton.setAttribute("aria-pressed", audio ? "true" : "false");
    soundButton.textContent = `Sound for director calls: ${audio ? "on" : "off"}`;
  });

  showCount();
  setInterval(refresh, EVERY_MS);
})();
