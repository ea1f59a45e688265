// Line charts and sparklines as plain SVG, built with createElementNS; every text (a tick, a point's
// tooltip) goes in by textContent, so a run id or a case key stays text whatever it holds.

import { axisTop } from './chart-scale';
import { svgEl } from './svg';

/** A new SVG element with attributes (numbers and fixed strings only: never text of a run). */
const svg = <K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number> = {}): SVGElementTagNameMap[K] => svgEl(tag, attrs);

/** An SVG text or tooltip (`<title>`) holding `text` as text. */
const svgText = <K extends 'text' | 'title'>(tag: K, text: string, attrs: Record<string, string | number> = {}): SVGElementTagNameMap[K] => svgEl(tag, attrs, text);

/** The path through the values at the x positions given; a null breaks the line (a run without the value). */
function linePath(xs: readonly number[], ys: readonly (number | null)[]): string {
  let d = '';
  let pen = false;
  ys.forEach((y, i) => {
    if (y === null) {
      pen = false;
      return;
    }
    d += (pen ? 'L' : 'M') + xs[i]!.toFixed(1) + ' ' + y.toFixed(1);
    pen = true;
  });
  return d;
}

/** x positions of n points spread evenly over [left, right] (one point: the middle). */
function spread(n: number, left: number, right: number): number[] {
  return Array.from({ length: n }, (_, i) => (n === 1 ? (left + right) / 2 : left + ((right - left) * i) / (n - 1)));
}

export interface LineChartOptions {
  /** Class of the chart (`pass-rate`, `score`, `cost`). */
  cls: string;
  /** What the chart shows, for a screen reader (`Pass rate per run`). */
  label: string;
  /** Top of the y axis; the values' maximum when absent. */
  max?: number;
  /** A value as the ticks and tooltips show it. */
  format(v: number): string;
  /** Each point's tooltip, before its value (the run it is). */
  labels: readonly string[];
  /** The first and last x tick (the first and last run's dates). */
  ends: [string, string];
}

const W = 480;
const H = 180;
const LEFT = 52;
const RIGHT = 10;
const TOP = 10;
const BOTTOM = 24;

/** A line chart of one value per run, a point (circle.point) for each run that has the value. */
export function lineChart(values: readonly (number | null)[], o: LineChartOptions): SVGSVGElement {
  const chart = svg('svg', { class: 'line ' + o.cls, viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': o.label });
  const top = axisTop(o.max === undefined ? values : [o.max]);
  const y = (v: number) => TOP + (1 - v / top) * (H - TOP - BOTTOM);
  chart.appendChild(svg('line', { class: 'axis', x1: LEFT, y1: H - BOTTOM, x2: W - RIGHT, y2: H - BOTTOM }));
  chart.appendChild(svg('line', { class: 'axis', x1: LEFT, y1: TOP, x2: LEFT, y2: H - BOTTOM }));
  for (const t of [0, top / 2, top]) chart.appendChild(svgText('text', o.format(t), { class: 'tick', x: LEFT - 4, y: y(t) + 3, 'text-anchor': 'end' }));
  chart.appendChild(svgText('text', o.ends[0], { class: 'tick', x: LEFT, y: H - 8, 'text-anchor': 'start' }));
  chart.appendChild(svgText('text', o.ends[1], { class: 'tick', x: W - RIGHT, y: H - 8, 'text-anchor': 'end' }));
  const xs = spread(values.length, LEFT + 6, W - RIGHT - 6);
  const ys = values.map((v) => (v === null ? null : y(v)));
  chart.appendChild(svg('path', { class: 'series', d: linePath(xs, ys) }));
  const r = values.length > 100 ? 1.6 : 2.6;
  values.forEach((v, i) => {
    if (v === null) return;
    const point = chart.appendChild(svg('circle', { class: 'point', cx: xs[i]!.toFixed(1), cy: ys[i]!.toFixed(1), r }));
    point.appendChild(svgText('title', `${o.labels[i] ?? ''}: ${o.format(v)}`));
  });
  return chart;
}

/** A case's sparkline: its pass rate (or score, where no pass rate) over the runs, a dot per run coloured by verdict. */
export function sparkline(values: readonly (number | null)[], verdicts: readonly (string | null)[], title: string): SVGSVGElement {
  const w = 160;
  const h = 24;
  const line = svg('svg', { class: 'spark', viewBox: `0 0 ${w} ${h}`, role: 'img' });
  line.appendChild(svgText('title', title));
  const xs = spread(values.length, 3, w - 3);
  const ys = values.map((v) => (v === null ? null : 3 + (1 - v) * (h - 6)));
  line.appendChild(svg('path', { class: 'series', d: linePath(xs, ys) }));
  // A dot per run while they stay apart; past that the line alone, and the last run's dot.
  const dots = values.length <= 60;
  values.forEach((v, i) => {
    if (v === null || (!dots && i !== values.length - 1)) return;
    line.appendChild(svg('circle', { class: 'dot ' + (verdicts[i] ?? ''), cx: xs[i]!.toFixed(1), cy: ys[i]!.toFixed(1), r: 1.8 }));
  });
  return line;
}
