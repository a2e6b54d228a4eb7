// Smash The Code renderer for arena's viewer: both 6x12 grids, the queue of the next
// pairs between them, scores, the skulls each side still owes and the last turn's chain.
// The view's highlight tells what the turn did; it is shown in phases, one after another:
// "placed" (the pair just placed, outlined), "chain k" (the grid as it stood when chain
// step k cleared, its cleared cells crossed out), then "after" (the grid at the end of the
// turn). Those grids are rebuilt from the previous view's: the pair put on its cells, then
// each step's cells taken out and the columns fallen. Buttons under the board pick a
// phase; arriving at a step plays them.
function render(view, host, ctx) {
  clearTimeout(host.stcTimer);
  const marks = view.highlight || [];
  const placed = [null, null], chains = [[], []];
  for (const m of marks) {
    if (m.kind === "placed") placed[m.seat] = m;
    else if (m.kind === "cleared") chains[m.seat][m.chain - 1] = m.cells;
  }
  // Per seat, the grid before each chain step: [placed, after step 1, ...] (rows as text).
  const before = [0, 1].map((seat) => {
    const prev = ctx.previous ? ctx.previous.grids[seat] : null;
    if (!prev || !placed[seat] || !chains[seat].length) return [];
    const rows = prev.map((row) => row.split(""));
    placed[seat].cells.forEach(([x, y], i) => { rows[y][x] = String(placed[seat].colors[i]); });
    const grids = [rows.map((r) => r.join(""))];
    for (const cells of chains[seat].slice(0, -1)) {
      const gone = new Set(cells.map(([x, y]) => `${x},${y}`));
      const cur = grids[grids.length - 1].map((r) => r.split(""));
      for (let x = 0; x < cur[0].length; x++) {
        const kept = [];
        for (let y = cur.length - 1; y >= 0; y--) {
          if (cur[y][x] !== "." && !gone.has(`${x},${y}`)) kept.push(cur[y][x]);
        }
        for (let y = cur.length - 1, i = 0; y >= 0; y--, i++) cur[y][x] = i < kept.length ? kept[i] : ".";
      }
      grids.push(cur.map((r) => r.join("")));
    }
    return grids;
  });
  const longest = Math.max(chains[0].length, chains[1].length);
  // Phase 0: placed; 1..longest: chain steps; longest + 1: after (only when a chain ran).
  const names = longest
    ? ["placed", ...Array.from({ length: longest }, (_, k) => `chain ${k + 1}`), "after"] : ["placed"];
  const phaseOf = (p) => {
    const grids = [0, 1].map((seat) => {
      const steps = before[seat];
      if (p === 0) return steps.length ? steps[0] : view.grids[seat];
      return p <= steps.length ? steps[p - 1] : view.grids[seat];
    });
    const lit = [0, 1].map((seat) => {
      if (p === 0) return { kind: "placed", cells: placed[seat] ? placed[seat].cells : [] };
      const cells = chains[seat][p - 1];
      return cells ? { kind: "cleared", cells } : { kind: "", cells: [] };
    });
    return { name: names[p], grids, lit };
  };
  const period = 550 / (ctx.speed || 1);
  const show = (p, auto) => {
    draw(view, host, ctx, phaseOf(p));
    const strip = document.createElement("div");
    strip.className = "stc-phases";
    strip.style.cssText = "display:flex;gap:4px;margin-top:4px;font-size:12px";
    if (names.length > 1) {
      names.forEach((name, i) => {
        const b = document.createElement("button");
        b.textContent = name;
        b.dataset.phase = name;
        if (i === p) { b.style.fontWeight = "700"; b.setAttribute("aria-pressed", "true"); }
        b.onclick = () => { clearTimeout(host.stcTimer); show(i, false); };
        strip.append(b);
      });
    }
    host.append(strip);
    host.dataset.phase = names[p];
    if (auto && p + 1 < names.length) host.stcTimer = setTimeout(() => show(p + 1, true), period);
  };
  // The viewer's auto-play waits for the phases before it moves on.
  if (names.length > 1 && ctx.hold) ctx.hold(period * names.length);
  show(0, names.length > 1);
}

function draw(view, host, ctx, phase) {
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
    const x0 = lefts[seat];
    let rows;
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
    rows = phase.grids[seat];
    rows.forEach((row, y) => {
      for (let x = 0; x < row.length; x++) {
        if (row[x] !== ".") out.push(block(x0 + x * CELL, TOP + y * CELL, row[x], seat));
      }
    });
    // The phase's highlight: the pair just placed outlined, a chain step's cells crossed out.
    const lit = phase.lit[seat];
    for (const [x, y] of lit.cells) {
      const px = x0 + x * CELL, py = TOP + y * CELL;
      if (lit.kind === "placed") {
        out.push(`<rect data-highlight="placed" data-seat="${seat}" x="${px + 1}" y="${py + 1}" ` +
          `width="${CELL - 2}" height="${CELL - 2}" rx="6" fill="none" stroke="#fff" stroke-width="3"/>`);
      } else {
        out.push(`<g data-highlight="cleared" data-seat="${seat}"><rect x="${px + 1}" y="${py + 1}" ` +
          `width="${CELL - 2}" height="${CELL - 2}" rx="6" fill="rgba(255,255,255,.35)" stroke="#fff" ` +
          `stroke-width="2"/><path d="M${px + 6} ${py + 6}L${px + CELL - 6} ${py + CELL - 6}M${px + CELL - 6} ` +
          `${py + 6}L${px + 6} ${py + CELL - 6}" stroke="#fff" stroke-width="3"/></g>`);
      }
    }
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
  if (phase.name !== "placed" || phase.lit.some((l) => l.cells.length)) {
    out.push(`<text x="${qx + CELL / 2}" y="${TOP + GRID_H + 18}" font-size="12" font-weight="600" ` +
      `text-anchor="middle" data-phase-label="1">${phase.name}</text>`);
  }
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
