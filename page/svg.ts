// Charts as plain SVG, for any page: an element builder, a horizontal bar chart (one labelled bar a
// row, value 0..1), a column histogram and an interval strip (a rate and its interval on 0..1). Text goes in by textContent like every other node, so a
// label from the run (a suite's name) stays text. Sizes are in the SVG's own units (a viewBox), so a
// chart scales with its box and no layout is measured.

import { axisTop } from './chart-scale';

const NS = 'http://www.w3.org/2000/svg';

/** A new SVG element with the given attributes and optional text. */
export function svgEl<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>, text?: string): SVGElementTagNameMap[K] {
  const e = document.createElementNS(NS, tag);
  Object.keys(attrs).forEach((k) => e.setAttribute(k, String(attrs[k])));
  if (text !== undefined) e.textContent = text;
  return e;
}

/** A chart's outer element: a viewBox of width × height, labelled for screen readers. */
function frame(width: number, height: number, label: string, cls: string): SVGSVGElement {
  const s = svgEl('svg', { viewBox: '0 0 ' + width + ' ' + height, width, height, role: 'img', 'aria-label': label, class: 'chart ' + cls });
  s.appendChild(svgEl('title', {}, label));
  return s;
}

/** One row of a bar chart: its label, its value (0..1, the bar's length) and the words after it. */
export interface BarRow {
  label: string;
  value: number;
  note: string;
}

const ROW = 20;
const LABEL_W = 150;
const BAR_W = 200;
const NOTE_W = 150;

/** Horizontal bars, one a row, all starting at the same x (after the labels) so they compare. */
export function barChart(rows: BarRow[], label: string): SVGSVGElement {
  const s = frame(LABEL_W + BAR_W + NOTE_W, rows.length * ROW + 4, label, 'bars');
  rows.forEach((r, i) => {
    const y = i * ROW + 2;
    const g = s.appendChild(svgEl('g', { class: 'chart-row' }));
    g.appendChild(svgEl('title', {}, r.label + ': ' + r.note));
    g.appendChild(svgEl('text', { x: LABEL_W - 6, y: y + 13, 'text-anchor': 'end', class: 'chart-label' }, clip(r.label, 22)));
    g.appendChild(svgEl('rect', { x: LABEL_W, y: y + 2, width: BAR_W, height: ROW - 6, class: 'chart-track' }));
    g.appendChild(svgEl('rect', { x: LABEL_W, y: y + 2, width: +(BAR_W * clamp01(r.value)).toFixed(1), height: ROW - 6, class: 'chart-value' }));
    g.appendChild(svgEl('text', { x: LABEL_W + BAR_W + 6, y: y + 13, class: 'chart-note' }, r.note));
  });
  return s;
}

/** Counts of values in `bins` equal bins over [lo, hi]; hi itself falls in the last bin. */
export function bins(values: number[], n: number, lo = 0, hi = 1): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(0);
  values.forEach((v) => {
    const k = Math.min(n - 1, Math.max(0, Math.floor(((v - lo) / (hi - lo)) * n)));
    out[k] = (out[k] as number) + 1;
  });
  return out;
}

const COL_H = 80;
const COL_W = 26;

/** Columns, one a bin (counts from `bins`), its height to scale with the largest; axis ends labelled lo and hi. */
export function histogram(counts: number[], label: string, lo: string, hi: string, what: (i: number) => string): SVGSVGElement {
  const s = frame(counts.length * COL_W + 8, COL_H + 34, label, 'histogram');
  const top = axisTop(counts);
  counts.forEach((n, i) => {
    const h = (COL_H * n) / top;
    const g = s.appendChild(svgEl('g', { class: 'chart-col' }));
    g.appendChild(svgEl('title', {}, what(i) + ': ' + n));
    g.appendChild(svgEl('rect', { x: 4 + i * COL_W + 2, y: +(COL_H - h + 14).toFixed(1), width: COL_W - 4, height: +h.toFixed(1), class: 'chart-value' }));
    if (n) g.appendChild(svgEl('text', { x: 4 + i * COL_W + COL_W / 2, y: +(COL_H - h + 11).toFixed(1), 'text-anchor': 'middle', class: 'chart-count' }, String(n)));
  });
  s.appendChild(svgEl('line', { x1: 4, x2: 4 + counts.length * COL_W, y1: COL_H + 14, y2: COL_H + 14, class: 'chart-axis' }));
  s.appendChild(svgEl('text', { x: 4, y: COL_H + 30, class: 'chart-axis-label' }, lo));
  s.appendChild(svgEl('text', { x: 4 + counts.length * COL_W, y: COL_H + 30, 'text-anchor': 'end', class: 'chart-axis-label' }, hi));
  return s;
}

const STRIP_W = 240;

/** A 0..1 scale with a band from low to high (an interval) and a point at value; the ends labelled 0% and 100%. */
export function intervalStrip(value: number, low: number, high: number, label: string): SVGSVGElement {
  const s = frame(STRIP_W + 16, 40, label, 'interval');
  const x = (v: number): number => +(8 + STRIP_W * clamp01(v)).toFixed(1);
  s.appendChild(svgEl('rect', { x: 8, y: 10, width: STRIP_W, height: 8, class: 'chart-track' }));
  s.appendChild(svgEl('rect', { x: x(low), y: 10, width: +(x(high) - x(low)).toFixed(1), height: 8, class: 'chart-band' }));
  s.appendChild(svgEl('circle', { cx: x(value), cy: 14, r: 5, class: 'chart-point' }));
  s.appendChild(svgEl('text', { x: 8, y: 34, class: 'chart-axis-label' }, '0%'));
  s.appendChild(svgEl('text', { x: 8 + STRIP_W, y: 34, 'text-anchor': 'end', class: 'chart-axis-label' }, '100%'));
  return s;
}

function clamp01(x: number): number {
  return x < 0 ? 0 : x > 1 ? 1 : x;
}

/** A label cut to n characters (the whole one is in the row's title). */
function clip(s: string, n: number): string {
  return s.length > n ? s.slice(0, n - 1) + '\u2026' : s;
}
