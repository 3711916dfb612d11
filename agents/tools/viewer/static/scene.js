// deckzoo scene renderer: draws any game's scene (format: envs/core/scene.py) as HTML and CSS.
// Shared by the replay page (which rebuilds its scenes from the page's compact record first) and
// the play page.
"use strict";

const DZ = (() => {
  const PALETTE = new Set(["red", "orange", "yellow", "green", "teal", "blue", "purple", "pink",
    "brown", "black", "white", "grey", "gold"]);

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  function card(c) {
    const slot = el("div", "slot");
    const count = c.count || 1;
    const d = el("div", "card");
    d.dataset.name = c.name;
    d.dataset.count = count;
    d.title = count > 1 ? `${c.name} x${count}` : c.name;
    if (c.back) {
      d.classList.add("back");
      d.dataset.back = "1";
      if (count > 1) d.appendChild(el("span", "count", `x${count}`));
    } else {
      d.classList.add("c-" + (PALETTE.has(c.color) ? c.color : "grey"));
      d.appendChild(el("span", "rank", c.rank || ""));
      d.appendChild(el("span", "suit", c.suit || ""));
      d.appendChild(el("span", "name", c.name));
      if (count > 1) d.appendChild(el("span", "count", `x${count}`));
    }
    slot.appendChild(d);
    if (c.note) slot.appendChild(el("div", "card-note", c.note));
    return slot;
  }

  function zone(z) {
    const box = el("div", "zone");
    box.dataset.zone = z.label;
    const label = el("div", "zone-label", z.label);
    if (z.note) label.appendChild(el("span", "zone-note", z.note));
    box.appendChild(label);
    const cards = el("div", "cards");
    if (z.cards.length === 0) cards.appendChild(el("span", "empty", z.empty || "-"));
    for (const c of z.cards) cards.appendChild(card(c));
    box.appendChild(cards);
    return box;
  }

  function chips(pairs) {
    const box = el("div", "info");
    for (const [label, value] of pairs || []) {
      const chip = el("span", "chip");
      chip.dataset.label = label;
      chip.appendChild(el("b", null, label));
      chip.appendChild(document.createTextNode(String(value)));
      box.appendChild(chip);
    }
    return box;
  }

  function fmt(x) {
    return Number.isInteger(x) ? String(x) : String(Math.round(x * 1000) / 1000);
  }

  // opts: {labels: [seat names], scores: [...], me: seat index or null, winners: [...]}
  function scene(sc, opts) {
    const root = el("div", "scene");
    const table = el("div", "panel table-panel");
    table.appendChild(chips(sc.info));
    const tz = el("div", "zones");
    for (const z of sc.table || []) tz.appendChild(zone(z));
    table.appendChild(tz);
    root.appendChild(table);
    const seats = el("div", "seats");
    (sc.seats || []).forEach((s, p) => {
      const box = el("div", "seat");
      box.dataset.seat = p;
      if (s.active) box.classList.add("active");
      if (opts.me === p) box.classList.add("me");
      const head = el("div", "seat-head");
      const name = el("span", "seat-name", opts.labels[p] + (opts.me === p ? " (you)" : ""));
      if (s.active) name.appendChild(el("span", "turn", "to act"));
      if ((opts.winners || []).includes(p)) name.appendChild(el("span", "won", "winner"));
      head.appendChild(name);
      const score = el("span", "score", "score " + fmt(opts.scores[p]));
      score.dataset.score = opts.scores[p];
      head.appendChild(score);
      box.appendChild(head);
      box.appendChild(chips(s.stats));
      const zs = el("div", "zones");
      for (const z of s.zones || []) zs.appendChild(zone(z));
      box.appendChild(zs);
      seats.appendChild(box);
    });
    root.appendChild(seats);
    return root;
  }

  // The move just made, as `observer` (null: spectator, else a seat) may read it.
  function lastAction(last, labels, observer) {
    const box = el("span");
    if (!last) {
      box.textContent = "the game starts";
      return box;
    }
    if (last.seat !== null) box.dataset.seat = last.seat;
    const mine = observer === null || observer === last.seat;
    if (last.public && !mine) {
      box.dataset.name = last.public;
      box.textContent = last.public;
      return box;
    }
    box.dataset.name = last.name;
    const you = observer === last.seat ? " (you)" : "";
    box.appendChild(el("span", "who", `${labels[last.seat]}${you}: `));
    box.appendChild(el("span", "what", last.name));
    return box;
  }

  return { el, card, zone, chips, scene, lastAction, fmt };
})();
