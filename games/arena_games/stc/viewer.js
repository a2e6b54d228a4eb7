// Smash The Code renderer for arena's viewer: both 6x12 grids, the queue of the next
// pairs between them, scores, the skulls each side still owes and the last turn's chain.
function render(view, host, ctx) {
  const CELL = 26, GRID_W = 6 * CELL, GRID_H = 12 * CELL, TOP = 74, QUEUE_W = 78;
  const COLORS = { "1": "#3b82f6", "2": "#22c55e", "3": "#d946ef", "4": "#ef4444", "5": "#facc15" };
  const lefts = [10, 10 + GRID_W + QUEUE_W];
  const width = lefts[1] + GRID_W + 10, height = TOP + GRID_H + 30;
  const out = [`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" ` +
    `viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif">`];

  const fraction = (text) => {
    const [a, b] = String(text).split("/").map(Number);
    return b ? a / b : a;
  };
  const block = (x, y, c, seat) => {
    if (c === "0") {
      return `<g data-block="skull" data-seat="${seat}"><rect x="${x + 1}" y="${y + 1}" ` +
        `width="${CELL - 2}" height="${CELL - 2}" rx="5" fill="#6b7280"/>` +
        `<circle cx="${x + 9}" cy="${y + 11}" r="3" fill="#f3f4f6"/>` +
        `<circle cx="${x + 17}" cy="${y + 11}" r="3" fill="#f3f4f6"/>` +
        `<rect x="${x + 10}" y="${y + 17}" width="6" height="3" fill="#f3f4f6"/></g>`;
    }
    return `<rect data-block="${c}" data-seat="${seat}" x="${x + 1}" y="${y + 1}" width="${CELL - 2}" ` +
      `height="${CELL - 2}" rx="6" fill="${COLORS[c] || "#000"}" stroke="rgba(0,0,0,.25)"/>`;
  };

  for (let seat = 0; seat < 2; seat++) {
    const x0 = lefts[seat], rows = view.grids[seat];
    const name = ctx.esc(ctx.players[seat] || `seat ${seat}`);
    out.push(`<rect x="${x0}" y="4" width="${GRID_W}" height="6" fill="${ctx.colors[seat]}"/>`);
    out.push(`<text x="${x0}" y="26" font-size="14" font-weight="600">${name}</text>`);
    out.push(`<text x="${x0 + GRID_W}" y="26" font-size="14" text-anchor="end" data-score="${seat}">` +
      `${view.scores[seat]}</text>`);
    // Skulls owed: whole skulls drop in lines of 6 next turn; the bar shows the part of a line.
    const owed = fraction(view.nuisance[seat]);
    out.push(`<text x="${x0}" y="44" font-size="12" fill="#555">skulls owed ${ctx.esc(view.nuisance[seat])}` +
      ` (${owed.toFixed(2)})</text>`);
    out.push(`<rect x="${x0}" y="50" width="${GRID_W}" height="6" fill="#e5e7eb"/>`);
    out.push(`<rect x="${x0}" y="50" width="${(Math.min(owed, 6) / 6) * GRID_W}" height="6" fill="#6b7280"/>`);
    const last = view.last_points[seat]
      ? `last turn +${view.last_points[seat]}, chain ${view.last_chain[seat]}` : "";
    out.push(`<text x="${x0}" y="68" font-size="12" fill="#555">${last}</text>`);
    out.push(`<rect x="${x0}" y="${TOP}" width="${GRID_W}" height="${GRID_H}" fill="#111827" rx="3"/>`);
    rows.forEach((row, y) => {
      for (let x = 0; x < row.length; x++) {
        if (row[x] !== ".") out.push(block(x0 + x * CELL, TOP + y * CELL, row[x], seat));
      }
    });
    if (view.dead[seat]) {
      out.push(`<rect x="${x0}" y="${TOP}" width="${GRID_W}" height="${GRID_H}" fill="rgba(200,0,0,.35)"/>`);
      out.push(`<text x="${x0 + GRID_W / 2}" y="${TOP + GRID_H / 2}" font-size="26" font-weight="700" ` +
        `fill="#fff" text-anchor="middle">DEAD</text>`);
    }
  }

  // The queue: the pair to play now on top, each pair drawn A under B (as it falls, rotation 1).
  const qx = lefts[0] + GRID_W + (QUEUE_W - CELL) / 2;
  out.push(`<text x="${qx + CELL / 2}" y="${TOP - 6}" font-size="11" fill="#555" text-anchor="middle">` +
    `turn ${view.turn}</text>`);
  view.next_pairs.forEach(([a, b], i) => {
    const y = TOP + i * 39;
    const size = 15;
    const x = qx + (CELL - size) / 2;
    for (const [k, c] of [[0, b], [1, a]]) {
      out.push(`<rect data-queue="${i}" x="${x}" y="${y + k * size}" width="${size - 1}" height="${size - 1}" ` +
        `rx="3" fill="${COLORS[String(c)]}" stroke="rgba(0,0,0,.25)" opacity="${i === 0 ? 1 : 0.75}"/>`);
    }
  });
  out.push("</svg>");
  host.innerHTML = out.join("");
}
