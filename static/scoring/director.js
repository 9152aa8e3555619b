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
  // The page's language: Django's catalogue (/jsi18n/), loaded before this script; English
  // without it.
  const tr = (text) => (window.gettext ? window.gettext(text) : text);
  const trf = (text, values) =>
    tr(text).replace(/%\((\w+)\)s/g, (place, name) => (name in values ? String(values[name]) : place));

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
    const list = calls.join("; ");
    alertBox.textContent =
      calls.length === 1
        ? trf("The director is called: %(calls)s.", { calls: list })
        : trf("%(count)s new director calls: %(calls)s.", { count: calls.length, calls: list });
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
      if (stamp && response.ok) {
        const time = new Date().toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit", hour12: false });
        stamp.textContent = trf("Up to date at %(time)s", { time });
      }
      if (response.status === 302 || response.redirected) window.location.reload(); // signed out
    } catch (e) {
      if (stamp) stamp.textContent = tr("No connection: the list may be out of date.");
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
    soundButton.textContent = audio ? tr("Sound for director calls: on") : tr("Sound for director calls: off");
  });

  showCount();
  setInterval(refresh, EVERY_MS);
})();
