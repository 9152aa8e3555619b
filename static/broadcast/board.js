// A featured table's board drawn from the server's view of its play (TablePlay.view), shared
// by the recorder's tablet page and the broadcast: the four hands round the table, the
// current trick in the middle, the calls, the tricks so far and the analysis.
//
// Also the mirror of the card play the recorder's page uses while its connection is down:
// follow suit, else trump where the game says a player must, no under-trump where the
// ruleset forbids it; the highest trump wins a trick, else the highest card of the suit led.
(function () {
  "use strict";

  // The page's words: its catalogue (/jsi18n/<language>/, loaded first) where there is one,
  // else English (under Node).
  const tr = (text) => (typeof gettext === "function" ? gettext(text) : text);
  const trf = (text, values) => tr(text).replace(/%\((\w+)\)s/g, (_, name) => values[name]);
  // A seat's letter as the reader writes it (West is "O" in French); the payload keeps N, E, S, W.
  const seatLetter = (seat) => ({ N: tr("N"), E: tr("E"), S: tr("S"), W: tr("W") })[seat] || seat;

  function h(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
      else if (name === "dataset") Object.assign(node.dataset, value);
      else node.setAttribute(name, value === true ? "" : value);
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  const POSITIONS = { N: "north", E: "east", S: "south", W: "west" };

  function cardsInPlay(view) {
    const cards = [];
    for (const trick of view.tricks) for (const card of trick.cards) cards.push(card);
    if (view.current) for (const card of view.current.cards) cards.push(card);
    return cards;
  }

  // The step (actions taken) after which each card of the play was played.
  function cardSteps(payload) {
    const cards = cardsInPlay(payload.view);
    const steps = new Map();
    cards.forEach((card, index) => steps.set(card.code, payload.step - (cards.length - 1 - index)));
    return steps;
  }

  function costTitle(payload, code, steps) {
    const analysis = payload.analysis || {};
    const step = steps.get(code);
    const count = analysis.counts ? analysis.counts[String(step)] : undefined;
    const cost = (analysis.cost || []).includes(step);
    return { count, cost };
  }

  function cardNode(card, extra) {
    return h("span", Object.assign({ class: `card suit-${card.suit}`, "data-card": card.code }, extra || {}), card.label);
  }

  function handNode(view, seat, options) {
    const legal = new Set((options.legal || []).map((a) => a.replace(/^card:/, "")));
    const cards = view.hands[seat] || [];
    const bySuit = new Map();
    for (const card of cards) {
      if (!bySuit.has(card.suit)) bySuit.set(card.suit, []);
      bySuit.get(card.suit).push(card);
    }
    const rows = [];
    for (const [suit, group] of bySuit) {
      rows.push(h("div", { class: "suit-row" }, group.map((card) => {
        if (options.onCard && view.to_act === seat) {
          const allowed = legal.has(card.code);
          return h("button", {
            type: "button", class: `card suit-${suit}${allowed ? " legal" : ""}`, "data-card": card.code,
            disabled: !allowed, onclick: () => options.onCard(card.code),
          }, card.label);
        }
        return cardNode(card);
      })));
    }
    const name = (view.seat_names && view.seat_names[seat]) || seat;
    const turn = view.to_act === seat ? " to-act" : "";
    const side = (view.declarer_side || []).includes(seat) ? " declarer-side" : "";
    return h("section", { class: `hand ${POSITIONS[seat]}${turn}${side}`, "data-seat": seat },
      h("h3", {}, name, " ", h("span", { class: "muted" }, `${(view.won || {})[seat] || 0} tricks`)),
      rows.length ? rows : h("p", { class: "muted" }, "—"));
  }

  function trickNode(view, payload) {
    const steps = cardSteps(payload);
    const current = view.current || (view.tricks.length ? view.tricks[view.tricks.length - 1] : null);
    const cards = current ? current.cards : [];
    return h("section", { class: "table-centre", "data-current-trick": true },
      h("p", { class: "prompt", "data-prompt": true }, view.prompt),
      view.contract ? h("p", { class: "contract" }, view.contract) : null,
      h("div", { class: "trick" }, cards.map((card) => {
        const mark = costTitle(payload, card.code, steps);
        return h("span", { class: `played ${POSITIONS[card.seat]}` },
          cardNode(card, mark.cost ? { class: `card suit-${card.suit} cost`, title: tr("This card cost a trick") } : {}));
      })));
  }

  function biddingNode(view) {
    const rounds = (view.bidding || []).filter((calls) => calls.length);
    if (!rounds.length) return null;
    return h("section", { class: "bidding" }, h("h3", {}, tr("Bidding")),
      rounds.map((calls, index) => h("p", { "data-auction": index },
        calls.map((call, i) => h("span", { class: "call" }, `${seatLetter(call.seat)} ${call.text}${i < calls.length - 1 ? " · " : ""}`)))));
  }

  function analysisNode(payload) {
    const analysis = payload.analysis || {};
    if (!analysis.available) {
      return h("p", { class: "analysis muted", "data-analysis": true }, analysis.note || tr("Analysis not available yet."));
    }
    const count = analysis.counts ? analysis.counts[String(payload.step)] : undefined;
    const parts = [];
    if (count !== undefined) {
      parts.push(h("strong", {}, trf("Double dummy: %(count)s tricks for the declarer's side", { count })));
    }
    const steps = Object.keys(analysis.counts || {}).map(Number).sort((a, b) => a - b);
    if (steps.length && steps[0] !== payload.step) {
      parts.push(h("span", { class: "muted" }, " " + trf("(before the opening lead: %(count)s)", { count: analysis.counts[String(steps[0])] })));
    }
    const cost = (analysis.cost || []).length;
    if (cost) parts.push(h("span", { class: "muted" }, " · " + (cost > 1 ? trf("%(count)s cards cost a trick", { count: cost }) : tr("1 card cost a trick"))));
    if (analysis.note) parts.push(h("span", { class: "muted" }, ` ${analysis.note}`));
    return h("p", { class: "analysis", "data-analysis": true }, parts.length ? parts : "—");
  }

  function tricksNode(view, payload) {
    if (!view.tricks.length) return null;
    const steps = cardSteps(payload);
    const counts = (payload.analysis || {}).counts || {};
    return h("section", { class: "tricks" }, h("h3", {}, tr("Tricks")),
      h("ol", {}, view.tricks.map((trick) => h("li", { "data-trick": trick.number },
        trick.cards.map((card) => {
          const mark = costTitle(payload, card.code, steps);
          const attrs = mark.cost ? { class: `card suit-${card.suit} cost`, title: tr("This card cost a trick") } : {};
          return h("span", { class: "trick-card" }, `${seatLetter(card.seat)} `, cardNode(card, attrs),
            mark.count !== undefined ? h("sub", { class: "dd" }, mark.count) : null, " ");
        }),
        h("span", { class: "muted" }, ` → ${seatLetter(trick.winner)}`)))),
      Object.keys(counts).length ? h("p", { class: "muted" },
        tr("Small numbers: the declarer's side's tricks with best play after that card; "),
        h("span", { class: "card cost" }, tr("marked")), tr(" cards cost a trick.")) : null);
  }

  function render(root, payload, options) {
    options = options || {};
    const view = payload.view;
    const seats = ["N", "W", "E", "S"].filter((seat) => seat in view.hands);
    root.replaceChildren(...[
      h("div", { class: "board-table" },
        seats.map((seat) => handNode(view, seat, options)),
        trickNode(view, payload)),
      analysisNode(payload),
      biddingNode(view),
      tricksNode(view, payload),
      view.result ? h("p", { class: "message success", "data-result": true }, view.result) : null,
    ].filter(Boolean));
  }

  // --- the mirror of the card play ----------------------------------------------------------

  function legalCards(view) {
    const seat = view.to_act;
    const hand = (view.hands[seat] || []).slice();
    const trick = view.current ? view.current.cards : [];
    if (!trick.length) return hand;
    const rules = view.rules;
    const led = trick[0].suit;
    const follow = hand.filter((c) => c.suit === led);
    if (follow.length) return follow;
    const trumps = rules.trump ? hand.filter((c) => c.suit === rules.trump) : [];
    if (rules.must_trump && trumps.length) return trumps;
    if (!rules.undertrump && rules.trump) {
      const top = Math.max(-1, ...trick.filter((c) => c.suit === rules.trump).map((c) => c.strength));
      if (top >= 0) {
        const allowed = hand.filter((c) => c.suit !== rules.trump || c.strength > top);
        if (allowed.length) return allowed;
      }
    }
    return hand;
  }

  function winner(cards, trump) {
    let best = cards[0];
    for (const card of cards.slice(1)) {
      if (card.suit === best.suit ? card.strength > best.strength : card.suit === trump) best = card;
    }
    return best.seat;
  }

  // The view after the seat to play plays ``code`` (a copy; the server has the last word).
  function playLocally(view, code) {
    const next = JSON.parse(JSON.stringify(view));
    const seat = next.to_act;
    const hand = next.hands[seat];
    const index = hand.findIndex((c) => c.code === code);
    if (index < 0) return null;
    const [card] = hand.splice(index, 1);
    if (!next.current) next.current = { number: next.tricks.length + 1, leader: seat, cards: [] };
    next.current.cards.push(Object.assign({ seat }, card));
    const order = next.rules.order;
    if (next.current.cards.length === order.length) {
      const won = winner(next.current.cards, next.rules.trump);
      next.tricks.push(Object.assign({}, next.current, { winner: won }));
      next.won[won] = (next.won[won] || 0) + 1;
      next.side_won = (next.declarer_side || []).reduce((n, s) => n + (next.won[s] || 0), 0);
      next.current = null;
      next.to_act = next.tricks.length >= next.rules.tricks ? null : won;
    } else {
      next.to_act = order[(order.indexOf(seat) + 1) % order.length];
    }
    next.prompt = next.to_act
      ? trf("%(seat)s to play (not sent yet)", { seat: next.seat_names[next.to_act] })
      : tr("Play is over (not sent yet)");
    return next;
  }

  if (typeof window !== "undefined") window.BroadcastBoard = { h, render, legalCards, playLocally, tr, trf };
  // Node (the tests hold the mirror against the engine): the card play only.
  if (typeof module !== "undefined" && module.exports) module.exports = { legalCards, playLocally };
})();
