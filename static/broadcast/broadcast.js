// The broadcast of a featured table: polls the table's state every second with the ETag it
// holds (the server answers 304 while nothing changed) and draws the board being played, or
// the board and step chosen for a replay.
(function () {
  "use strict";
  const { h, render, tr, trf } = window.BroadcastBoard;
  const config = JSON.parse(document.getElementById("broadcast-config").textContent);
  const root = document.getElementById("broadcast-board");
  const picker = document.getElementById("broadcast-boards");
  const steps = document.getElementById("broadcast-steps");
  const POLL_MS = 1000;
  let etag = null;
  let chosen = null; // {match, board} or null: the board being played
  let step = null; // null: live; else the number of actions shown
  let last = null;
  let timer = null;

  function query() {
    const params = new URLSearchParams();
    if (chosen) { params.set("match", chosen.match); params.set("board", chosen.board); }
    if (step !== null) params.set("step", step);
    if (last && last.board && last.board.analysis && last.board.analysis.pending) params.set("pending", "1");
    const text = params.toString();
    return text ? `?${text}` : "";
  }

  async function poll() {
    clearTimeout(timer);
    try {
      const headers = etag ? { "If-None-Match": etag } : {};
      const answer = await fetch(config.state + query(), { credentials: "same-origin", headers });
      if (answer.status === 200) {
        etag = answer.headers.get("ETag");
        last = await answer.json();
        draw();
      } else if (answer.status === 403) {
        root.replaceChildren(h("p", { class: "message warning" }, tr("This table is shown once it is complete.")));
      }
    } catch (e) {
      // The next poll tries again.
    } finally {
      clearTimeout(timer);
      timer = setTimeout(poll, POLL_MS);
    }
  }

  function go(newStep) {
    step = newStep;
    etag = null;
    poll();
  }

  function draw() {
    if (!last || !last.board) {
      root.replaceChildren(h("p", { class: "muted" }, tr("Nothing recorded at this table yet.")));
      return;
    }
    const board = last.board;
    render(root, board);
    root.dataset.step = board.step;
    root.dataset.actions = board.actions;
    picker.replaceChildren(...last.boards.map((b) => h("button", {
      type: "button",
      class: `slot${b.match === board.match && b.board === board.board ? " current" : ""}`,
      onclick: () => { chosen = { match: b.match, board: b.board }; step = null; etag = null; poll(); },
    }, b.state === "recording"
      ? trf("Round %(round)s, board %(board)s (live)", b)
      : trf("Round %(round)s, board %(board)s", b))));
    const at = board.step;
    steps.replaceChildren(
      h("button", { type: "button", class: "secondary", disabled: at <= 0, onclick: () => go(0) }, tr("Start")),
      h("button", { type: "button", class: "secondary", "data-back": true, disabled: at <= 0, onclick: () => go(at - 1) }, "◀ " + tr("Back")),
      h("span", { class: "muted" }, " " + trf("%(at)s of %(actions)s", { at, actions: board.actions }) + " "),
      h("button", { type: "button", class: "secondary", "data-forward": true, disabled: at >= board.actions, onclick: () => go(at + 1) }, tr("Forward") + " ▶"),
      h("button", { type: "button", class: step === null ? "" : "secondary", onclick: () => go(null) }, tr("Live")),
    );
  }

  poll();
})();
