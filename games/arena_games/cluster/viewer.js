// 42-cluster renderer for arena's viewer: the hexagon (flat-topped, "top" up), walls, chips
// in their owner's colour (one shade per colour id), the chip just dropped, the winning
// line (the view's highlight), the gravity arrow, and per player the chips in hand, the bag
// and the longest line.
function render(view, host, ctx) {
  const S = 21, n = view.grid_size - 1, R3 = Math.sqrt(3);
  const X0 = 1.5 * S * n + S + 10, Y0 = R3 * S * n + S + 30;
  const SIDE_X = 2 * X0 + 10;
  const width = SIDE_X + 280, height = Math.max(2 * Y0 - 20, 380);
  const DIRS = [[0, -1], [1, -1], [1, 0], [0, 1], [-1, 1], [-1, 0]];
  const GRAVITY = ["top", "top-right", "bottom-right", "bottom", "bottom-left", "top-left"];
  const colors = view.bags.length, half = colors / 2;
  const pos = (q, r) => [X0 + 1.5 * S * q, Y0 + R3 * S * (r + q / 2)];
  const hex = (cx, cy, size) => {
    const pts = [];
    for (let i = 0; i < 6; i++) {
      const a = (Math.PI / 3) * i;
      pts.push(`${(cx + size * Math.cos(a)).toFixed(1)},${(cy + size * Math.sin(a)).toFixed(1)}`);
    }
    return pts.join(" ");
  };
  const mix = (hexColor, toward, amount) => {
    const c = parseInt(hexColor.slice(1), 16), t = toward ? 255 : 0;
    const ch = [16, 8, 0].map((sh) => Math.round(((c >> sh) & 255) * (1 - amount) + t * amount));
    return `rgb(${ch.join(",")})`;
  };
  // Colour id -> owner seat and a shade of its seat colour (light, base, dark...).
  const owner = (chip) => Math.floor(chip / half);
  const chipColor = (chip) => {
    const j = chip % half, base = ctx.colors[owner(chip) % ctx.colors.length];
    return j === 0 ? base : mix(base, j % 2 === 1, 0.45 * Math.ceil(j / 2));
  };
  const out = [`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" ` +
    `viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif">`];
  let status = `${ctx.esc(ctx.players[view.turn] || `player ${view.turn}`)} to play`;
  if (view.phase === "color") status = "choosing colours";
  if (view.phase === "over") {
    status = view.winner == null ? `over: ${view.reason}` :
      `${ctx.esc(ctx.players[view.winner] || `player ${view.winner}`)} wins: ${ctx.esc(view.reason)}`;
  }
  out.push(`<text x="10" y="20" font-size="15" font-weight="600">${status}</text>`);

  const walls = new Set(view.walls.map(([q, r]) => `${q},${r}`));
  for (let q = -n; q <= n; q++) {
    for (let r = -n; r <= n; r++) {
      if (Math.abs(q + r) > n) continue;
      const [x, y] = pos(q, r);
      const wall = walls.has(`${q},${r}`);
      out.push(`<polygon points="${hex(x, y, S - 1)}" fill="${wall ? "#4b5563" : "#eef1f5"}" ` +
        `stroke="#c5cad3"${wall ? ' data-wall="1"' : ""}/>`);
    }
  }
  const before = new Set(ctx.previous ? ctx.previous.chips.map((c) => c.join(",")) : []);
  const dropped = ctx.step && ctx.step.actions && Object.values(ctx.step.actions).some((a) => a.Drop);
  for (const [q, r, s, chip] of view.chips) {
    const [x, y] = pos(q, r);
    const fresh = dropped && !before.has([q, r, s, chip].join(","));
    out.push(`<circle data-chip="${chip}" data-owner="${owner(chip)}" cx="${x}" cy="${y}" r="${S * 0.72}" ` +
      `fill="${chipColor(chip)}" stroke="${fresh ? "#111" : "rgba(0,0,0,.35)"}" ` +
      `stroke-width="${fresh ? 4 : 1}"${fresh ? ' data-last="1"' : ""}/>`);
    out.push(`<text x="${x}" y="${y + 4}" font-size="11" text-anchor="middle" fill="#fff" ` +
      `font-weight="700">${chip}</text>`);
  }

  // The game's highlight: the line that won, ringed in gold.
  for (const mark of view.highlight || []) {
    if (mark.kind !== "line") continue;
    for (const [q, r] of mark.cells) {
      const [x, y] = pos(q, r);
      out.push(`<polygon data-highlight="line" data-seat="${mark.seat}" points="${hex(x, y, S - 2)}" ` +
        `fill="none" stroke="#f5b400" stroke-width="4"/>`);
    }
  }

  // Gravity: an arrow in the direction chips fall.
  const gx = SIDE_X + 50, gy = 80, [dq, dr] = DIRS[view.gravity];
  const vx = 1.5 * dq, vy = R3 * (dr + dq / 2), len = Math.hypot(vx, vy);
  const ux = vx / len, uy = vy / len;
  out.push(`<circle cx="${gx}" cy="${gy}" r="42" fill="#fff" stroke="#c5cad3"/>`);
  out.push(`<line data-gravity="${view.gravity}" x1="${gx - ux * 30}" y1="${gy - uy * 30}" ` +
    `x2="${gx + ux * 22}" y2="${gy + uy * 22}" stroke="#111" stroke-width="6" stroke-linecap="round"/>`);
  const tip = [gx + ux * 36, gy + uy * 36], side = [-uy, ux];
  out.push(`<polygon points="${tip[0]},${tip[1]} ${gx + ux * 18 + side[0] * 13},${gy + uy * 18 + side[1] * 13} ` +
    `${gx + ux * 18 - side[0] * 13},${gy + uy * 18 - side[1] * 13}" fill="#111"/>`);
  out.push(`<text x="${gx + 56}" y="${gy - 4}" font-size="13" font-weight="600">gravity</text>` +
    `<text x="${gx + 56}" y="${gy + 14}" font-size="13">${view.gravity} (${GRAVITY[view.gravity]})</text>`);

  for (let seat = 0; seat < 2; seat++) {
    const y0 = 150 + seat * 130;
    const name = ctx.esc(ctx.players[seat] || `player ${seat}`);
    out.push(`<rect x="${SIDE_X}" y="${y0}" width="6" height="112" fill="${ctx.colors[seat]}"/>`);
    out.push(`<text x="${SIDE_X + 14}" y="${y0 + 14}" font-size="14" font-weight="600">${name}</text>`);
    out.push(`<text x="${SIDE_X + 14}" y="${y0 + 32}" font-size="12" fill="#555">longest line ` +
      `${view.longest[seat]}</text>`);
    if (view.phase === "play" && view.turn === seat) {
      out.push(`<text x="${SIDE_X + 130}" y="${y0 + 32}" font-size="12" fill="#555">in hand</text>`);
      view.drawn.forEach((chip, i) => {
        if (chip < 0) return;
        const cx = SIDE_X + 190 + i * 28;
        out.push(`<circle data-hand="${chip}" cx="${cx}" cy="${y0 + 28}" r="11" fill="${chipColor(chip)}" ` +
          `stroke="#111"/><text x="${cx}" y="${y0 + 32}" font-size="11" text-anchor="middle" fill="#fff" ` +
          `font-weight="700">${chip}</text>`);
      });
    }
    // The bag: chips left of each of the seat's colour ids.
    const full = Math.max(1, ...view.bags);
    for (let j = 0; j < half; j++) {
      const chip = seat * half + j, left = view.bags[chip], by = y0 + 46 + j * 22;
      out.push(`<text x="${SIDE_X + 14}" y="${by + 13}" font-size="12">bag ${chip}</text>`);
      out.push(`<rect x="${SIDE_X + 64}" y="${by + 2}" width="150" height="14" fill="#eef1f5"/>`);
      out.push(`<rect data-bag="${chip}" x="${SIDE_X + 64}" y="${by + 2}" width="${(150 * left) / full}" ` +
        `height="14" fill="${chipColor(chip)}"/>`);
      out.push(`<text x="${SIDE_X + 222}" y="${by + 13}" font-size="12">${left}</text>`);
    }
  }
  out.push("</svg>");
  host.innerHTML = out.join("");
}
