/**
 * A small SVG line plot of benchmark ratios by run: no plotting library, since the report is
 * regenerated on machines with nothing but Node, and an SVG renders anywhere the docs are read.
 */
export interface Series {
  label: string;
  points: Array<{ x: number; y: number }>;
}

const COLORS = ["#1f77b4", "#d62728", "#7f7f7f", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf", "#bcbd22"];
const W = 760;
const H = 450;
const PAD = { left: 48, right: 16, top: 16, bottom: 190 };

export function historyPlot(series: Series[], runs: number): string {
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const yMax = Math.max(1.2, ...series.flatMap((s) => s.points.map((p) => p.y)));
  const x = (i: number) => PAD.left + (runs <= 1 ? plotW / 2 : (i / (runs - 1)) * plotW);
  const y = (v: number) => PAD.top + plotH - (v / yMax) * plotH;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="11">`,
    `<rect width="${W}" height="${H}" fill="#ffffff"/>`,
  ];
  for (let v = 0; v <= yMax + 1e-9; v += 0.2) {
    const yy = y(v).toFixed(1);
    out.push(`<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${yy}" y2="${yy}" stroke="#e5e5e5"/>`);
    out.push(`<text x="${PAD.left - 6}" y="${yy}" text-anchor="end" dominant-baseline="middle" fill="#555">${v.toFixed(1)}</text>`);
  }
  out.push(`<text x="${PAD.left + plotW / 2}" y="${PAD.top + plotH + 18}" text-anchor="middle" fill="#555">run (oldest to latest)</text>`);
  series.forEach((s, i) => {
    const color = COLORS[i % COLORS.length]!;
    // Runs that did not measure the series are stepped over: the line joins its measurements.
    const path = s.points.map((p, j) => `${j === 0 ? "M" : "L"}${x(p.x).toFixed(1)},${y(p.y).toFixed(1)}`).join(" ");
    if (path) out.push(`<path d="${path.trim()}" fill="none" stroke="${color}" stroke-width="1.5"/>`);
    for (const p of s.points) out.push(`<circle cx="${x(p.x).toFixed(1)}" cy="${y(p.y).toFixed(1)}" r="2" fill="${color}"/>`);
    const last = s.points[s.points.length - 1];
    if (last) out.push(`<circle cx="${x(last.x).toFixed(1)}" cy="${y(last.y).toFixed(1)}" r="5" fill="none" stroke="${color}" stroke-width="1.5"/>`);
    const ly = PAD.top + plotH + 36 + i * 15;
    out.push(`<line x1="${PAD.left}" x2="${PAD.left + 18}" y1="${ly}" y2="${ly}" stroke="${color}" stroke-width="2"/>`);
    out.push(`<text x="${PAD.left + 24}" y="${ly}" dominant-baseline="middle" fill="#222">${escapeXml(s.label)}${last ? ` (latest ${last.y.toFixed(2)})` : ""}</text>`);
  });
  out.push("</svg>");
  return out.join("\n") + "\n";
}

function escapeXml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
