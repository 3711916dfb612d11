// deckzoo play page: set up a game on the server, then play it by clicking legal actions.
// The server sends only this seat's scene (agents/tools/serve.py), drawn by the shared renderer.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  let catalogue = null;
  let game = null; // the last payload from the server

  function showError(message) {
    const box = $("error");
    box.textContent = message;
    box.classList.toggle("hidden", !message);
  }

  // Every body goes as application/json: the server refuses any other type on a request that
  // changes something, since other sites' pages can send those without asking it first.
  async function call(method, url, body) {
    const init = {method, headers: {}};
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const res = await fetch(url, init);
    const data = await res.json().catch(() => ({error: `${res.status} ${res.statusText}`}));
    if (!res.ok) throw new Error(data.error || `${res.status} ${res.statusText}`);
    return data;
  }

  function fillSelect(select, values, chosen) {
    select.replaceChildren(...values.map((v) => new Option(String(v), String(v))));
    if (chosen !== undefined) select.value = String(chosen);
  }

  function selectedGame() {
    return catalogue.games.find((g) => g.name === $("game").value);
  }

  function onGameChange() {
    const g = selectedGame();
    fillSelect($("players"), g.players, g.default_players);
    onPlayersChange();
    $("options-hint").textContent = g.options.length
      ? "options: " + g.options
        .map((o) => `${o.name} (default ${JSON.stringify(o.default)}): ${o.doc}`).join("; ")
      : "this game has no options";
  }

  function onPlayersChange() {
    const n = Number($("players").value);
    fillSelect($("seat"), [...Array(n).keys()], 0);
  }

  // "num_rounds=3 foresight=false" -> {num_rounds: 3, foresight: false}; values are read as JSON
  // where they can be.
  function parseOptions(text) {
    const out = {};
    for (const item of text.split(/[\s,]+/).filter(Boolean)) {
      const i = item.indexOf("=");
      if (i <= 0) throw new Error(`options are key=value, got ${JSON.stringify(item)}`);
      const raw = item.slice(i + 1);
      let value;
      try { value = JSON.parse(raw); } catch (e) { value = raw; }
      out[item.slice(0, i)] = value;
    }
    return out;
  }

  async function start(e) {
    e.preventDefault();
    showError("");
    try {
      const body = {
        game: $("game").value, players: Number($("players").value), seat: Number($("seat").value),
        opponents: $("opponents").value, options: parseOptions($("options").value),
      };
      if ($("seed").value.trim()) body.seed = Number($("seed").value);
      $("start").disabled = true;
      render(await call("POST", "/api/games", body));
    } catch (err) {
      showError(err.message);
    } finally {
      $("start").disabled = false;
    }
  }

  async function act(id) {
    showError("");
    for (const b of document.querySelectorAll("#legal button")) b.disabled = true;
    document.body.dataset.busy = "1";
    try {
      render(await call("POST", `/api/games/${game.id}/act`, {action: id, step: game.step}));
    } catch (err) {
      showError(err.message);
      render(game);
    } finally {
      delete document.body.dataset.busy;
    }
  }

  function render(g) {
    game = g;
    $("setup-panel").classList.add("hidden");
    $("game-panel").classList.remove("hidden");
    document.body.dataset.gameId = g.id;
    document.body.dataset.step = g.step;
    document.body.dataset.over = g.over ? "1" : "0";
    $("title").textContent = g.title;
    $("game-name").textContent = `${g.game}, ${g.num_players} players, you are player_${g.seat}`;
    $("step").textContent = `step ${g.step}`;
    // The replay holds the seeds, from which every hidden card follows: the server hands it
    // out only once the game is over, so the link shows only then.
    const dl = $("download");
    dl.classList.toggle("hidden", !g.over);
    if (g.over) {
      dl.href = `/api/games/${g.id}/replay`;
      dl.download = `${g.game}-${g.id}.json`;
    } else {
      dl.removeAttribute("href");
    }
    $("status").textContent = g.over ? "game over" : g.your_turn ? "your turn" : "";
    $("last-action").replaceChildren(DZ.el("b", null, "last move: "),
      DZ.lastAction(g.last, g.seats, g.seat));
    const legal = $("legal");
    legal.replaceChildren();
    if (g.over) {
      const w = g.winners.map((p) => g.seats[p]).join(", ");
      const won = g.winners.includes(g.seat) ? " - you win!" : "";
      legal.appendChild(DZ.el("b", null, `game over - winners: ${w}${won}`));
    } else {
      legal.appendChild(DZ.el("b", null, `your move (${g.legal.length} legal actions):`));
      const list = DZ.el("div", "actions");
      for (const [id, name] of g.legal) {
        const b = DZ.el("button", "action", name);
        b.type = "button";
        b.dataset.action = id;
        b.title = `action ${id}`;
        b.onclick = () => act(id);
        list.appendChild(b);
      }
      legal.appendChild(list);
    }
    $("stage").replaceChildren(DZ.scene(g.scene,
      {labels: g.seats, scores: g.scores, me: g.seat, winners: g.winners}));
    const log = $("log");
    log.replaceChildren(...g.log.map((m, i) => {
      const line = DZ.el("div");
      line.appendChild(DZ.el("span", null, `${i + 1}. `));
      line.appendChild(DZ.lastAction(m, g.seats, g.seat));
      return line;
    }));
    log.scrollTop = log.scrollHeight;
  }

  async function init() {
    try {
      catalogue = await call("GET", "/api/games");
    } catch (err) {
      showError(`cannot reach the server: ${err.message}`);
      return;
    }
    fillSelect($("game"), catalogue.games.map((g) => g.name));
    $("agents-hint").textContent = "one agent spec for every other seat, or one per other seat "
      + "separated by commas, e.g. " + catalogue.agents.join(", ");
    onGameChange();
    $("game").onchange = onGameChange;
    $("players").onchange = onPlayersChange;
    $("setup").onsubmit = start;
    $("new-game").onclick = () => {
      // Abandon the game left behind: each client may hold only a few games on the server.
      if (game) call("DELETE", `/api/games/${game.id}`).catch(() => {});
      game = null;
      $("game-panel").classList.add("hidden");
      $("setup-panel").classList.remove("hidden");
      $("title").textContent = "deckzoo - play against the agents";
      delete document.body.dataset.gameId;
    };
    document.body.dataset.ready = "1";
  }

  init();
})();
