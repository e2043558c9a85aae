/**
 * Inline SVG charts for the HTML report, self-contained (no scripts, no fonts, no links): a line
 * chart over simulated time (lines, steps and point markers) and stacked bars. The x axis is
 * hours since the start; the y axis gets five round ticks.
 */
import type { Point } from './chart-series.js';

/** One line of a chart. */
export interface LineSpec {
  readonly name: string;
  readonly color: string;
  readonly points: readonly Point[];
  /** Draw as steps (each value holds until the next point). */
  readonly step?: boolean;
  readonly width?: number;
}

/** Point markers (fills). */
export interface MarkerSpec {
  readonly name: string;
  readonly color: string;
  readonly points: readonly (readonly [number, number])[];
  readonly shape: 'up' | 'down';
}

/** A line chart. */
export interface LineChart {
  readonly title: string;
  readonly durationMs: number;
  readonly lines: readonly LineSpec[];
  readonly markers?: readonly MarkerSpec[];
  /** The y axis's quantity and unit, e.g. `price (USDC)`. */
  readonly yLabel: string;
  readonly width?: number;
  readonly height?: number;
}

const PAD = { left: 88, right: 16, top: 52, bottom: 44 };
/** Legend entries per row, and the width of one. */
const LEGEND_PER_ROW = 6;
const LEGEND_WIDTH = 150;

/** Escapes text for SVG and HTML. */
export function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Five round ticks covering `[lo, hi]`. */
export function ticks(lo: number, hi: number, count = 5): number[] {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const out: number[] = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step)
    out.push(Number(v.toPrecision(12)));
  return out;
}

function label(v: number): string {
  const a = Math.abs(v);
  if (a >= 1e6) return `${(v / 1e6).toFixed(2)}M`;
  if (a >= 1e4) return v.toFixed(0);
  if (a >= 100) return v.toFixed(1);
  return v.toFixed(a >= 1 ? 2 : 4);
}

// The title's row, then the legend's rows, then the plot: nothing overlaps.
function frame(
  title: string,
  w: number,
  h: number,
  body: string,
  legend: { name: string; color: string }[],
  yLabel: string,
): string {
  const rows = Math.max(1, Math.ceil(legend.length / LEGEND_PER_ROW));
  const extra = (rows - 1) * 14;
  const items = legend
    .map((l, i) => {
      const gx = PAD.left + (i % LEGEND_PER_ROW) * LEGEND_WIDTH;
      const gy = 34 + Math.floor(i / LEGEND_PER_ROW) * 14;
      return `<g transform="translate(${gx},${gy})"><rect width="10" height="10" y="-9" fill="${l.color}"/><text x="14" font-size="11">${esc(l.name)}</text></g>`;
    })
    .join('');
  const midY = PAD.top + extra + (h - PAD.top - PAD.bottom) / 2;
  const axisLabels =
    `<text x="${PAD.left + (w - PAD.left - PAD.right) / 2}" y="${h + extra - 6}" font-size="11" text-anchor="middle">simulated time (hours since start)</text>` +
    `<text transform="translate(14,${midY}) rotate(-90)" font-size="11" text-anchor="middle">${esc(yLabel)}</text>`;
  return `<svg viewBox="0 0 ${w} ${h + extra}" width="${w}" height="${h + extra}" font-family="sans-serif"><text x="${PAD.left}" y="16" font-size="13" font-weight="bold">${esc(title)}</text>${items}${axisLabels}<g transform="translate(0,${extra})">${body}</g></svg>`;
}

function axes(
  w: number,
  h: number,
  durationMs: number,
  lo: number,
  hi: number,
  y: (v: number) => number,
): string {
  const x0 = PAD.left;
  const x1 = w - PAD.right;
  const hours = durationMs / 3_600_000;
  const xt = ticks(0, hours, 8)
    .map((t) => {
      const x = x0 + ((x1 - x0) * t) / (hours || 1);
      return `<line x1="${x}" x2="${x}" y1="${PAD.top}" y2="${h - PAD.bottom}" stroke="#eee"/><text x="${x}" y="${h - PAD.bottom + 14}" font-size="10" text-anchor="middle">${label(t)} h</text>`;
    })
    .join('');
  const yt = ticks(lo, hi)
    .map(
      (v) =>
        `<line x1="${x0}" x2="${x1}" y1="${y(v)}" y2="${y(v)}" stroke="#eee"/><text x="${x0 - 4}" y="${y(v) + 3}" font-size="10" text-anchor="end">${label(v)}</text>`,
    )
    .join('');
  return `${xt}${yt}<rect x="${x0}" y="${PAD.top}" width="${x1 - x0}" height="${h - PAD.top - PAD.bottom}" fill="none" stroke="#999"/>`;
}

function pathOf(
  points: readonly Point[],
  step: boolean,
  x: (t: number) => number,
  y: (v: number) => number,
  endMs: number,
): string {
  let d = '';
  let open = false;
  points.forEach(([t, v], i) => {
    if (v === null) {
      open = false;
      return;
    }
    const px = x(t).toFixed(1);
    const py = y(v).toFixed(1);
    d += open ? `L${px} ${py}` : `M${px} ${py}`;
    open = true;
    if (step) d += `H${x(points[i + 1]?.[0] ?? endMs).toFixed(1)}`;
  });
  return d;
}

/** Renders a {@link LineChart} as an `<svg>` element. */
export function lineChart(c: LineChart): string {
  const w = c.width ?? 960;
  const h = c.height ?? 260;
  const values = [
    ...c.lines.flatMap((l) => l.points.flatMap(([, v]) => (v === null ? [] : [v]))),
    ...(c.markers ?? []).flatMap((m) => m.points.map(([, v]) => v)),
  ];
  let lo = values.length === 0 ? 0 : Infinity;
  let hi = values.length === 0 ? 1 : -Infinity;
  for (const v of values) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  if (hi === lo) [lo, hi] = [lo - 1, hi + 1];
  const margin = (hi - lo) * 0.05;
  lo -= margin;
  hi += margin;
  const x = (t: number): number => PAD.left + ((w - PAD.left - PAD.right) * t) / (c.durationMs || 1);
  const y = (v: number): number => h - PAD.bottom - ((h - PAD.top - PAD.bottom) * (v - lo)) / (hi - lo);
  const lines = c.lines
    .map(
      (l) =>
        `<path d="${pathOf(l.points, l.step === true, x, y, c.durationMs)}" fill="none" stroke="${l.color}" stroke-width="${l.width ?? 1}"/>`,
    )
    .join('');
  // Markers shrink when there are many (a day of fills), so the lines stay visible.
  const count = (c.markers ?? []).reduce((n, m) => n + m.points.length, 0);
  const r = count > 300 ? 1.5 : 3;
  const markers = (c.markers ?? [])
    .map((m) =>
      m.points
        .map(([t, v]) => {
          const px = x(t).toFixed(1);
          const py = y(v);
          const [a, b] = m.shape === 'up' ? [py + r, py - r] : [py - r, py + r];
          const tip = `${(Number(px) - r).toFixed(1)},${a.toFixed(1)} ${(Number(px) + r).toFixed(1)},${a.toFixed(1)} ${px},${b.toFixed(1)}`;
          return `<polygon points="${tip}" fill="${m.color}"/>`;
        })
        .join(''),
    )
    .join('');
  const legend = [...c.lines, ...(c.markers ?? [])].map((l) => ({ name: l.name, color: l.color }));
  return frame(c.title, w, h, `${axes(w, h, c.durationMs, lo, hi, y)}${lines}${markers}`, legend, c.yLabel);
}

/** Stacked bars of shares (0–1) per bucket. */
export function stackedBars(c: {
  readonly title: string;
  readonly durationMs: number;
  readonly bucketMs: number;
  readonly buckets: readonly { readonly t: number; readonly values: readonly number[] }[];
  readonly keys: readonly { readonly name: string; readonly color: string }[];
  readonly yLabel: string;
  readonly width?: number;
  readonly height?: number;
}): string {
  const w = c.width ?? 960;
  const h = c.height ?? 220;
  const x = (t: number): number => PAD.left + ((w - PAD.left - PAD.right) * t) / (c.durationMs || 1);
  const y = (v: number): number => h - PAD.bottom - (h - PAD.top - PAD.bottom) * v;
  const bars = c.buckets
    .map((b) => {
      let acc = 0;
      const bw = Math.max(0.5, x(b.t + c.bucketMs) - x(b.t) - 0.5);
      return b.values
        .map((v, i) => {
          const top = y(acc + v);
          const rect = `<rect x="${x(b.t).toFixed(1)}" y="${top.toFixed(1)}" width="${bw.toFixed(1)}" height="${(y(acc) - top).toFixed(1)}" fill="${c.keys[i]!.color}"/>`;
          acc += v;
          return rect;
        })
        .join('');
    })
    .join('');
  return frame(c.title, w, h, `${axes(w, h, c.durationMs, 0, 1, y)}${bars}`, [...c.keys], c.yLabel);
}
