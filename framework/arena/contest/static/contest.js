// The public leaderboard, live: each update of the league's event stream fetches the
// page's fragment again (no page reload).
(function () {
  "use strict";
  const live = document.getElementById("live");
  let refreshing = false, again = false, lastId = null;
  async function refresh() {
    if (refreshing) { again = true; return; }
    refreshing = true;
    try {
      const r = await fetch(location.href, {headers: {"X-Arena-Fragment": "1"}});
      if (r.ok) {
        live.innerHTML = await r.text();
        if (live.querySelector("[data-stale]")) setTimeout(refresh, 500);
        document.body.dataset.refreshed = String(Number(document.body.dataset.refreshed || 0) + 1);
      }
    } finally {
      refreshing = false;
      if (again) { again = false; refresh(); }
    }
  }
  const source = new EventSource("/events");
  source.addEventListener("update", function (e) {
    const s = JSON.parse(e.data);
    if (lastId !== null && s.last_id !== lastId) refresh();
    lastId = s.last_id;
    document.body.dataset.seq = String(s.seq);
  });
  if (live.querySelector("[data-stale]")) setTimeout(refresh, 500);
})();
