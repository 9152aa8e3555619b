/* Charts page: pointing at (or focusing) a team in the legend, or its line, highlights that
 * team's line; the stylesheet dims the others. */
"use strict";

(() => {
  const chart = document.querySelector(".places-chart");
  if (!chart) return;
  const parts = (team) =>
    chart.querySelectorAll(`.team[data-team="${CSS.escape(team)}"], .team-label[data-team="${CSS.escape(team)}"]`);

  function show(team) {
    chart.classList.add("focus");
    parts(team).forEach((el) => el.classList.add("on"));
  }
  function hide() {
    chart.classList.remove("focus");
    chart.querySelectorAll(".on").forEach((el) => el.classList.remove("on"));
  }

  const triggers = [...document.querySelectorAll("[data-legend-team]"), ...chart.querySelectorAll(".team-label")];
  triggers.forEach((item) => {
    const team = item.dataset.legendTeam || item.dataset.team;
    ["mouseenter", "focus"].forEach((name) => item.addEventListener(name, () => show(team)));
    ["mouseleave", "blur"].forEach((name) => item.addEventListener(name, hide));
  });
})();
