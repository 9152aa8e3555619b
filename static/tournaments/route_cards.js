/* The route cards' print page: once the browser has printed (or its print dialog closed),
 * the organiser is asked whether the cards flagged "reprint" came out, and yes clears their
 * flags (the page's "cards are printed" form, which works without this script too). */
"use strict";

(() => {
  const form = document.getElementById("cards-printed");
  if (!form) return;
  window.addEventListener("afterprint", () => {
    if (window.confirm("Did the cards flagged to print again come out? Yes clears their flags.")) {
      form.requestSubmit();
    }
  });
})();
