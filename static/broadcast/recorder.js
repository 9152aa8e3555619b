// The recorder's tablet page: takes down a featured table's board call by call and card by
// card. Every action goes through an outbox kept on the tablet (localStorage) with a client
// id of its own, and is sent in order; an action whose answer was lost is sent again and the
// server takes it once. While the connection is down the cards go on being offered by the
// mirror of the card play (board.js); the calls wait for the connection.
(function () {
  "use strict";
  const { h, render, legalCards, playLocally, tr, trf } = window.BroadcastBoard;
  const config = JSON.parse(document.getElementById("recorder-config").textContent);
  const root = document.getElementById("recorder-board");
  const status = document.getElementById("recorder-status");
  const controls = document.getElementById("recorder-controls");
  const boards = document.getElementById("recorder-boards");
  const OUTBOX = `bc:outbox:${config.slug}:${config.table}`;
  let payload = JSON.parse(document.getElementById("recorder-payload").textContent);
  let sending = false;
  let offline = false;
  let retry = null;

  const outbox = {
    items() {
      try { return JSON.parse(localStorage.getItem(OUTBOX)) || []; } catch (e) { return []; }
    },
    save(items) { localStorage.setItem(OUTBOX, JSON.stringify(items)); },
    add(item) { this.save(this.items().concat([item])); },
    remove(id) { this.save(this.items().filter((i) => i.id !== id)); },
  };

  function newId() {
    const bytes = new Uint8Array(12);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  function pendingHere() {
    if (!payload) return [];
    return outbox.items().filter((i) => i.match === payload.match && i.board === payload.board);
  }

  // The view with the actions not sent yet played on it, or null when one cannot be mirrored.
  function localView() {
    let view = payload.view;
    for (const item of pendingHere()) {
      if (!item.action.startsWith("card:") || view.phase !== "play") return null;
      view = playLocally(view, item.action.slice(5));
      if (!view) return null;
    }
    return view;
  }

  function say(text, kind) {
    status.textContent = text;
    status.className = `message ${kind || "info"}`;
    status.hidden = !text;
  }

  function draw() {
    if (!payload) {
      root.replaceChildren(h("p", {}, tr("No board of this table has a deal on file yet.")));
      return;
    }
    const waiting = pendingHere();
    const view = localView();
    const shown = Object.assign({}, payload, { view: view || payload.view, step: payload.step + waiting.length });
    const serverOptions = payload.options || [];
    let legal = [];
    let choices = [];
    if (!waiting.length) {
      legal = serverOptions.filter((o) => o.group === "card").map((o) => o.action);
      choices = serverOptions.filter((o) => o.group !== "card");
    } else if (view && view.phase === "play" && view.to_act) {
      legal = legalCards(view).map((c) => `card:${c.code}`);
    }
    render(root, shown, { legal, onCard: (code) => take(`card:${code}`) });
    controls.replaceChildren(...[
      h("div", { class: "choices", "data-choices": true }, choices.map((o) => h("button", {
        type: "button", class: `choice group-${o.group}`, "data-action": o.action, onclick: () => take(o.action),
      }, o.label))),
      waiting.length && !view ? h("p", { class: "muted" }, tr("The next choices come once the connection is back.")) : null,
      h("button", {
        type: "button", class: "secondary", "data-undo": true,
        disabled: !payload.actions && !waiting.length, onclick: undo,
      }, tr("Undo")),
    ].filter(Boolean));
    if (offline && waiting.length) {
      say(waiting.length > 1
        ? trf("%(count)s actions saved on this tablet, will be sent when the connection is back.", { count: waiting.length })
        : tr("1 action saved on this tablet, will be sent when the connection is back."), "warning");
    } else if (waiting.length) {
      say(tr("Sending…"), "info");
    }
  }

  function take(action) {
    outbox.add({ id: newId(), match: payload.match, board: payload.board, action });
    draw();
    flush();
  }

  function undo() {
    const waiting = pendingHere();
    if (waiting.length && (offline || !sending)) {
      // Not sent yet: it is simply taken back.
      outbox.remove(waiting[waiting.length - 1].id);
      draw();
      return;
    }
    take("undo");
  }

  async function post(item) {
    return fetch(config.action, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": config.csrf },
      body: JSON.stringify({ match: item.match, board: item.board, action: item.action, client_id: item.id }),
    });
  }

  async function flush() {
    if (sending) return;
    sending = true;
    try {
      for (const item of outbox.items()) {
        let answer;
        try {
          answer = await post(item);
        } catch (e) {
          offline = true;
          schedule();
          return;
        }
        if (answer.status >= 500 || answer.status === 429 || answer.status === 408) {
          offline = true;
          schedule();
          return;
        }
        offline = false;
        const data = await answer.json().catch(() => ({}));
        outbox.remove(item.id);
        if (answer.ok) {
          if (payload && data.board && data.board.key === payload.key) payload = data.board;
          say("", "info");
        } else {
          say(trf("Not taken: %(why)s.", { why: data.error || answer.status }), "error");
          await load(item.match, item.board);
        }
      }
    } finally {
      sending = false;
      draw();
    }
  }

  function schedule() {
    if (retry) return;
    retry = setTimeout(() => { retry = null; flush(); }, 2000);
  }

  async function load(match, board) {
    const query = match ? `?match=${match}&board=${board}` : "";
    try {
      const answer = await fetch(config.state + query, { credentials: "same-origin" });
      const data = await answer.json();
      if (!answer.ok) {
        say(data.error || tr("Not available."), "error");
        return;
      }
      payload = data.board;
      drawBoards(data.slots);
    } catch (e) {
      offline = true;
    }
    draw();
  }

  function drawBoards(slots) {
    if (!boards || !slots) return;
    boards.replaceChildren(...slots.map((slot) => h("button", {
      type: "button",
      class: `slot state-${slot.state.replace(" ", "-")}${payload && slot.match === payload.match && slot.board === payload.board ? " current" : ""}`,
      onclick: () => load(slot.match, slot.board),
    }, `${trf("Round %(round)s, board %(board)s:", slot)} ${tr(slot.state)}`)));
  }

  for (const button of document.querySelectorAll("[data-slot]")) {
    button.addEventListener("click", () => load(Number(button.dataset.match), Number(button.dataset.board)));
  }
  window.addEventListener("online", () => { offline = false; flush(); });
  draw();
  flush();
})();
