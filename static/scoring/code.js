/* The access-code page: a phone that signed in before keeps its team's code (scorer.js
 * stores it), so coming back after the session ended needs no typing. A refused code is
 * forgotten, so a changed code never loops. */
"use strict";

(() => {
  const script = document.currentScript;
  const form = document.querySelector("[data-code-form]");
  if (!script || !form) return;
  const key = `pym:code:${script.dataset.slug}`;
  try {
    if (document.querySelector("[data-code-error]")) {
      localStorage.removeItem(key);
      return;
    }
    const saved = JSON.parse(localStorage.getItem(key) || "null");
    if (typeof saved === "string" && saved) {
      form.elements.code.value = saved;
      form.submit();
    }
  } catch (e) {
    /* no storage: the player types the code */
  }
})();
