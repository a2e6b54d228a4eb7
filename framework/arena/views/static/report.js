// The report's games list: filter rows by bot and result (the rules of `arena list`).
"use strict";
(function () {
  const bot = document.getElementById("filter-bot");
  const result = document.getElementById("filter-result");
  if (!bot) return;
  const rows = Array.from(document.querySelectorAll("#games-table tr[data-results]"));
  function matches(row) {
    const results = JSON.parse(row.dataset.results); // [[bot, win|loss|draw|-], ...]
    const forfeits = JSON.parse(row.dataset.forfeits);
    const mine = bot.value ? results.filter((r) => r[0] === bot.value) : results;
    if (!mine.length) return false;
    if (!result.value) return true;
    if (result.value === "forfeit") return mine.some((r) => forfeits.includes(r[0]));
    if (!bot.value && (result.value === "win" || result.value === "loss")) {
      return results.some((r) => r[1] === "win");
    }
    return mine.some((r) => r[1] === result.value);
  }
  function apply() {
    let shown = 0;
    for (const row of rows) {
      const ok = matches(row);
      row.classList.toggle("hidden", !ok);
      if (ok) shown++;
    }
    document.getElementById("shown").textContent = `${shown} of ${rows.length} games`;
  }
  bot.addEventListener("change", apply);
  result.addEventListener("change", apply);
  apply();
})();
