// arena serve: live updates (server-sent events), sortable tables, charts, steering.
"use strict";
(function () {
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  const live = document.getElementById("live");
  const sorts = {};  // table id -> [column, direction], kept across live refreshes

  function number(text) {
    const m = /^[<>]?\s*([+-]?\d+(\.\d+)?)/.exec(text.trim());
    return m ? parseFloat(m[1]) : null;
  }

  function sortTable(table, col, dir) {
    const body = table.tBodies[0];
    if (!body) return;
    const rows = Array.from(body.rows);
    rows.sort(function (a, b) {
      const x = a.cells[col] ? a.cells[col].textContent : "";
      const y = b.cells[col] ? b.cells[col].textContent : "";
      const nx = number(x), ny = number(y);
      const c = nx !== null && ny !== null ? nx - ny : x.localeCompare(y);
      return dir * c;
    });
    rows.forEach(function (r) { body.appendChild(r); });
    Array.from(table.tHead.rows[0].cells).forEach(function (th, i) {
      th.dataset.sorted = i === col ? (dir > 0 ? "asc" : "desc") : "";
    });
  }

  function setUp() {
    document.querySelectorAll("table.sortable").forEach(function (table, index) {
      const id = table.id || "t" + index;
      if (sorts[id]) sortTable(table, sorts[id][0], sorts[id][1]);
      Array.from(table.tHead.rows[0].cells).forEach(function (th, col) {
        th.addEventListener("click", function () {
          const dir = sorts[id] && sorts[id][0] === col ? -sorts[id][1] : 1;
          sorts[id] = [col, dir];
          sortTable(table, col, dir);
        });
      });
    });
    charts();
  }

  function chartData(id) {
    const el = document.getElementById(id);
    return el ? JSON.parse(el.textContent) : null;
  }

  function charts() {
    if (typeof uPlot === "undefined") return;
    const width = Math.min(900, (live.clientWidth || 900) - 20);
    const rating = chartData("rating-data");
    const rbox = document.getElementById("rating-chart");
    if (rating && rbox && rating.length) {
      rbox.textContent = "";
      const x = rating.map(function (p) { return p.x; });
      const mu = rating.map(function (p) { return p.mu; });
      const lo = rating.map(function (p) { return p.mu - 2 * p.sigma; });
      const hi = rating.map(function (p) { return p.mu + 2 * p.sigma; });
      new uPlot({
        width: width, height: 260, scales: {x: {time: false}},
        series: [{label: "event"}, {label: "mu", stroke: "#2f6fde", width: 2},
          {label: "mu-2σ", stroke: "#9bb7ef"}, {label: "mu+2σ", stroke: "#9bb7ef"}],
        bands: [{series: [3, 2], fill: "rgba(47,111,222,0.12)"}],
      }, [x, mu, lo, hi], rbox);
    }
    const times = chartData("times-data");
    const tbox = document.getElementById("times-chart");
    if (times && tbox && times.times.length) {
      tbox.textContent = "";
      const x = times.times.map(function (_, i) { return i + 1; });
      const series = [{label: "turn"}, {label: "ms", stroke: "#e4572e", width: 1}];
      const data = [x, times.times];
      if (times.budget) {
        series.push({label: "budget", stroke: "#1f9d55", dash: [6, 4]});
        data.push(x.map(function () { return times.budget; }));
      }
      new uPlot({width: width, height: 220, scales: {x: {time: false}}, series: series}, data, tbox);
    }
  }

  let refreshing = false, again = false;
  async function refresh() {
    if (refreshing) { again = true; return; }
    refreshing = true;
    try {
      const r = await fetch(location.href, {headers: {"X-Arena-Fragment": "1"}});
      if (r.ok) {
        live.innerHTML = await r.text();
        setUp();
        // A leaderboard still being computed: look again soon.
        if (live.querySelector("[data-stale]")) setTimeout(refresh, 500);
        document.body.dataset.refreshed = String(Number(document.body.dataset.refreshed || 0) + 1);
      }
    } finally {
      refreshing = false;
      if (again) { again = false; refresh(); }
    }
  }

  function showState(s) {
    const state = document.getElementById("run-state");
    state.textContent = s.state;
    state.dataset.state = s.state;
    const total = s.games_total === null ? "" : " of " + s.games_total;
    document.getElementById("run-count").textContent = s.games_done + total + " games";
    document.getElementById("run-eta").textContent =
      s.state === "running" && s.eta_s !== null ? "ETA " + Math.round(s.eta_s) + " s" : "";
    const extra = [];
    if (s.stalls_replayed) extra.push(s.stalls_replayed + " stalls replayed");
    if (s.given_up) extra.push(s.given_up + " given up");
    if (s.failed) extra.push(s.failed + " failed");
    if (s.waiting_for_cores) extra.push(s.waiting_for_cores);
    document.getElementById("run-extra").textContent = extra.join(", ");
    document.getElementById("run-paused").hidden = !s.paused;
  }

  let lastId = null, lastState = null;
  function listen() {
    const source = new EventSource("/events");
    source.addEventListener("update", function (e) {
      const s = JSON.parse(e.data);
      showState(s);
      document.body.dataset.seq = String(s.seq);
      const moved = s.last_id !== lastId || s.state !== lastState;
      if (lastId !== null && moved) refresh();
      lastId = s.last_id;
      lastState = s.state;
    });
  }

  document.querySelectorAll("button[data-action]").forEach(function (button) {
    button.addEventListener("click", async function () {
      const said = document.getElementById("control-said");
      const r = await fetch("/control/" + button.dataset.action, {
        method: "POST", headers: {"X-CSRF-Token": csrf},
      });
      const answer = await r.json();
      said.textContent = answer.error || (answer.ok ? button.dataset.action + ": done" : "nothing to do");
    });
  });

  document.querySelectorAll("button[data-league]").forEach(function (button) {
    button.addEventListener("click", async function () {
      const said = document.getElementById("league-said");
      const bot = document.getElementById("league-bot").value;
      const r = await fetch("/league/" + button.dataset.league, {
        method: "POST", headers: {"X-CSRF-Token": csrf, "Content-Type": "application/json"},
        body: JSON.stringify({bot: bot}),
      });
      const answer = await r.json();
      said.textContent = answer.error || (answer.bot + (button.dataset.league === "add" ?
        ": joins the league" : ": retired") + (answer.now ? "" : " at its next start"));
    });
  });

  setUp();
  if (live.dataset.live) listen();
  document.body.dataset.ready = "1";
})();
