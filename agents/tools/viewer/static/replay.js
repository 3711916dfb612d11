// deckzoo replay page: steps through the game embedded in the page as a compact record
// (agents/tools/viewer/frames.py), whose frames it rebuilds first (as frames.read_frames does).
// Keys: Left/Right one step, Home/End first/last, PageUp/PageDown (or [ and ]) round starts.
"use strict";

// The dicts a row table stores: each row's values under the table's keys, null meaning absent.
function fromRows(table) {
  return table.rows.map((row) => {
    const d = {};
    table.keys.forEach((k, i) => {
      if (row[i] !== undefined && row[i] !== null) d[k] = row[i];
    });
    return d;
  });
}

// Every frame, whole: {last, legal, round, actor, scores, over, winners, scenes}. Each table
// entry is decoded once and shared; each frame is the one before with the slots that changed.
function readFrames(data) {
  const t = data.tables;
  const card = fromRows(t.card);
  const zone = fromRows(t.zone).map((z) => ({...z, cards: z.cards.map((c) => card[c])}));
  const chips = t.chips.map((refs) => refs.map((c) => t.chip[c]));
  const seat = fromRows(t.seat).map((s) => ({...s, stats: chips[s.stats],
    zones: s.zones.map((z) => zone[z])}));
  const decode = {
    value: (r) => t.value[r],
    last: (r) => t.last[r],
    legal: (r) => t.legal[r].map((a) => t.action[a]),
    chips: (r) => chips[r],
    zones: (r) => t.zones[r].map((z) => zone[z]),
    seat: (r) => seat[r],
  };
  const now = new Map();
  return data.frames.map((change) => {
    for (let i = 0; i < change.length; i += 2) {
      if (change[i + 1] < 0) now.delete(change[i]);
      else now.set(change[i], change[i + 1]);
    }
    const frame = {};
    const scenes = Array.from({length: data.observers},
      () => ({seats: new Array(data.num_players).fill(null)}));
    for (const [slot, ref] of now) {
      const [kind, key, table] = data.slots[slot];
      if (kind === "frame") {
        frame[key] = decode[table](ref);
        continue;
      }
      const refs = t.each[ref];
      scenes.forEach((sc, o) => {
        const r = refs.length === 1 ? refs[0] : refs[o];
        if (r === null) return;
        if (kind === "seat") sc.seats[key] = decode[table](r);
        else sc[key] = decode[table](r);
      });
    }
    frame.scenes = scenes;
    return frame;
  });
}

(() => {
  const data = JSON.parse(document.getElementById("replay-data").textContent);
  const frames = readFrames(data);
  const $ = (id) => document.getElementById(id);
  const slider = $("slider");
  const observerSelect = $("observer");
  const roundSelect = $("rounds");
  let step = 0;
  let observer = 0; // 0: spectator, 1 + s: seat s's own view

  // Round starts: the first frame and every frame whose round label differs from the previous.
  const roundStarts = frames.map((f, i) => i)
    .filter((i) => i === 0 || frames[i].round !== frames[i - 1].round);

  function init() {
    document.title = `${data.game} replay - deckzoo`;
    $("game-name").textContent = `${data.game}, ${data.num_players} players`;
    $("game-meta").textContent = `seed ${data.seed}; ` +
      Object.entries(data.config).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(", ");
    slider.max = frames.length - 1;
    observerSelect.appendChild(new Option("spectator (every hand)", "0"));
    data.seats.forEach((label, p) => {
      observerSelect.appendChild(new Option(`${label}'s own view`, String(p + 1)));
    });
    for (const i of roundStarts) {
      roundSelect.appendChild(new Option(`${frames[i].round || "start"} (step ${i})`, String(i)));
    }
    const m = /step=(\d+)/.exec(location.hash);
    const start = m ? Number(m[1]) : Number(document.body.dataset.start || 0);
    go(Math.min(start, frames.length - 1));
  }

  function go(i) {
    step = Math.max(0, Math.min(frames.length - 1, i));
    render();
  }

  function jumpRound(dir) {
    if (dir > 0) {
      const next = roundStarts.find((i) => i > step);
      go(next === undefined ? frames.length - 1 : next);
    } else {
      const prev = roundStarts.filter((i) => i < step);
      go(prev.length ? prev[prev.length - 1] : 0);
    }
  }

  function render() {
    const f = frames[step];
    const seat = observer === 0 ? null : observer - 1;
    const sc = f.scenes[observer];
    document.body.dataset.step = step;
    document.body.dataset.observer = observer;
    slider.value = step;
    $("step").textContent = `step ${step} / ${frames.length - 1}`;
    $("title").textContent = sc.title;
    $("round").textContent = f.round || "";
    const current = roundStarts.filter((i) => i <= step).pop();
    roundSelect.value = String(current);
    const last = $("last-action");
    last.replaceChildren(DZ.el("b", null, "last move: "), DZ.lastAction(f.last, data.seats, seat));
    renderLegal(f, sc, seat);
    const stage = $("stage");
    stage.replaceChildren(DZ.scene(sc, {labels: data.seats, scores: f.scores, me: seat,
      winners: f.winners}));
    $("prev").disabled = $("first").disabled = step === 0;
    $("next").disabled = $("end").disabled = step === frames.length - 1;
  }

  function renderLegal(f, sc, seat) {
    const box = $("legal");
    box.replaceChildren();
    if (f.over) {
      const w = f.winners.map((p) => data.seats[p]).join(", ");
      box.appendChild(DZ.el("b", null, `game over - winners: ${w}`));
      return;
    }
    const legal = f.legal;
    if (seat === null || seat === f.actor) {
      const who = data.seats[f.actor];
      box.appendChild(DZ.el("b", null, `legal actions for ${who} (${legal.length}):`));
      const list = DZ.el("div", "actions");
      for (const [id, name] of legal) {
        const a = DZ.el("span", "action", name);
        a.dataset.action = id;
        a.title = `action ${id}`;
        list.appendChild(a);
      }
      box.appendChild(list);
    } else {
      const acting = [];
      sc.seats.forEach((s, p) => {
        if (s.active) acting.push(data.seats[p]);
      });
      const text = acting.length ? `waiting for ${acting.join(", ")}` : "waiting for another seat";
      box.appendChild(DZ.el("b", null, text));
    }
  }

  $("first").onclick = () => go(0);
  $("prev").onclick = () => go(step - 1);
  $("next").onclick = () => go(step + 1);
  $("end").onclick = () => go(frames.length - 1);
  $("prev-round").onclick = () => jumpRound(-1);
  $("next-round").onclick = () => jumpRound(1);
  slider.oninput = () => go(Number(slider.value));
  roundSelect.onchange = () => go(Number(roundSelect.value));
  observerSelect.onchange = () => { observer = Number(observerSelect.value); render(); };
  document.addEventListener("keydown", (e) => {
    const t = e.target;
    const typing = t instanceof HTMLInputElement && t.type !== "range";
    if (t instanceof HTMLSelectElement || typing) return;
    const keys = {
      ArrowRight: () => go(step + 1), ArrowLeft: () => go(step - 1),
      Home: () => go(0), End: () => go(frames.length - 1),
      PageDown: () => jumpRound(1), PageUp: () => jumpRound(-1),
      "]": () => jumpRound(1), "[": () => jumpRound(-1),
    };
    if (keys[e.key]) {
      keys[e.key]();
      e.preventDefault();
    }
  });
  init();
})();
