// Splitter renderer for arena's viewer: the sheet split down the middle, stars and hearts,
// the dice written (as die faces), the groups that score outlined with their points,
// the two cells just written, the next roll and the score broken down.
function render(view, host, ctx) {
  const C = 46, X0 = 14, Y0 = 40;
  const h = view.cells.length, w = view.cells[0].length;
  const width = X0 * 2 + w * C + 190, height = Y0 + h * C + 24;
  const GROUP_COLORS = ["#e4572e", "#2f6fde", "#1f9d55", "#b83fd0", "#d97706", "#0891b2"];
  const PIPS = { 1: [[1, 1]], 2: [[0, 0], [2, 2]], 3: [[0, 0], [1, 1], [2, 2]],
    4: [[0, 0], [2, 0], [0, 2], [2, 2]], 5: [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]],
    6: [[0, 0], [2, 0], [0, 1], [2, 1], [0, 2], [2, 2]] };
  const out = [`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" ` +
    `viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif">`];
  const die = (x, y, size, n, attrs) => {
    const parts = [`<g ${attrs}><rect x="${x}" y="${y}" width="${size}" height="${size}" rx="${size / 6}" ` +
      `fill="#fff" stroke="#1d2330" stroke-width="1.5"/>`];
    for (const [px, py] of PIPS[n] || []) {
      parts.push(`<circle cx="${x + size * (0.25 + px * 0.25)}" cy="${y + size * (0.25 + py * 0.25)}" ` +
        `r="${size * 0.08}" fill="#1d2330"/>`);
    }
    return parts.join("") + "</g>";
  };

  out.push(`<text x="${X0}" y="24" font-size="15" font-weight="600">round ${view.round} / ${view.rounds}` +
    ` · layout ${view.layout}</text>`);
  const placed = [];
  const action = ctx.step && ctx.step.actions ? ctx.step.actions["0"] : null;
  if (action && action.Placement) {
    const p = action.Placement;
    placed.push(`${p.x},${p.y}`, `${w - 1 - p.x},${p.y}`);
  }
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const kind = view.cells[y][x], px = X0 + x * C, py = Y0 + y * C;
      if (kind === 0) continue;
      const fill = kind === 2 ? "#fff4c2" : kind === 3 ? "#ffe0e6" : "#fff";
      out.push(`<rect x="${px + 1}" y="${py + 1}" width="${C - 2}" height="${C - 2}" fill="${fill}" ` +
        `stroke="#c5cad3"/>`);
      const value = view.values[y][x];
      if (!value && (kind === 2 || kind === 3)) {
        out.push(`<text x="${px + C / 2}" y="${py + C / 2 + 9}" font-size="26" text-anchor="middle" ` +
          `fill="${kind === 2 ? "#e0a100" : "#e0445e"}">${kind === 2 ? "★" : "♥"}</text>`);
      }
      if (value) {
        const just = placed.includes(`${x},${y}`);
        out.push(die(px + 6, py + 6, C - 12, value, `data-die="${value}"${just ? ' data-placed="1"' : ""}`));
        if (kind === 2 || kind === 3) {
          out.push(`<text x="${px + C - 9}" y="${py + 13}" font-size="11" text-anchor="middle" ` +
            `fill="${kind === 2 ? "#e0a100" : "#e0445e"}">${kind === 2 ? "★" : "♥"}</text>`);
        }
        if (just) {
          out.push(`<rect x="${px + 3}" y="${py + 3}" width="${C - 6}" height="${C - 6}" fill="none" ` +
            `stroke="#111" stroke-width="2" stroke-dasharray="4 3"/>`);
        }
      }
    }
  }
  // Scoring groups: each cell's outer edges, in the group's colour, plus its points.
  let colorIndex = 0;
  view.groups.forEach((g, gi) => {
    if (!g.points) return;
    const color = GROUP_COLORS[colorIndex++ % GROUP_COLORS.length];
    const inGroup = new Set(g.cells.map(([x, y]) => `${x},${y}`));
    const edges = [];
    for (const [x, y] of g.cells) {
      const px = X0 + x * C, py = Y0 + y * C;
      if (!inGroup.has(`${x},${y - 1}`)) edges.push(`M${px + 2} ${py + 2}h${C - 4}`);
      if (!inGroup.has(`${x},${y + 1}`)) edges.push(`M${px + 2} ${py + C - 2}h${C - 4}`);
      if (!inGroup.has(`${x - 1},${y}`)) edges.push(`M${px + 2} ${py + 2}v${C - 4}`);
      if (!inGroup.has(`${x + 1},${y}`)) edges.push(`M${px + C - 2} ${py + 2}v${C - 4}`);
    }
    out.push(`<path data-group="${gi}" d="${edges.join("")}" stroke="${color}" stroke-width="4" ` +
      `stroke-linecap="square" fill="none"/>`);
    const [fx, fy] = g.cells[0];
    out.push(`<circle cx="${X0 + fx * C + 6}" cy="${Y0 + fy * C + 6}" r="9" fill="${color}"/>` +
      `<text x="${X0 + fx * C + 6}" y="${Y0 + fy * C + 10}" font-size="11" font-weight="700" fill="#fff" ` +
      `text-anchor="middle">${g.points}</text>`);
  });
  // The mirror line.
  out.push(`<line x1="${X0 + (w / 2) * C}" y1="${Y0 - 6}" x2="${X0 + (w / 2) * C}" y2="${Y0 + h * C + 6}" ` +
    `stroke="#1d2330" stroke-width="3"/>`);

  const sx = X0 * 2 + w * C, scoring = view.groups.filter((g) => g.points);
  out.push(`<text x="${sx}" y="${Y0 + 14}" font-size="13" fill="#555">${view.dice ? "next roll" : "game over"}</text>`);
  if (view.dice) view.dice.forEach((n, i) => out.push(die(sx + i * 46, Y0 + 24, 38, n, 'data-next="1"')));
  out.push(`<text x="${sx}" y="${Y0 + 100}" font-size="26" font-weight="700" data-score="0">${view.score}</text>`);
  out.push(`<text x="${sx + 4 + String(view.score).length * 16}" y="${Y0 + 100}" font-size="13" fill="#555">points</text>`);
  // Equal groups on one line: "1 ×1 group ×8: 8" reads "eight single 1s score 8".
  const tally = new Map();
  for (const g of scoring) {
    const key = `${g.value}s${g.star ? " ★" : ""}`;
    const t = tally.get(key) || { n: 0, points: 0 };
    tally.set(key, { n: t.n + 1, points: t.points + g.points });
  }
  const lines = [...tally].map(([key, t]) => `${t.n > 1 ? `${t.n} groups` : "group"} of ${key}: ${t.points}`);
  if (view.hearts) lines.push(`hearts: ${view.hearts}`);
  lines.forEach((line, i) => out.push(`<text x="${sx}" y="${Y0 + 124 + i * 17}" font-size="13">${line}</text>`));
  if (view.forfeited) {
    out.push(`<text x="${sx}" y="${Y0 + 124 + lines.length * 17 + 6}" font-size="14" fill="#c62828" ` +
      `font-weight="700">forfeit: score 0</text>`);
  }
  out.push("</svg>");
  host.innerHTML = out.join("");
}
