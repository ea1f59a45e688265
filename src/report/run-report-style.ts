/**
 * The run report's own CSS (appended to the page's STYLE in html-page.ts): the case rows as a grid of
 * fixed columns, so every pass-rate bar starts at the same x down the page; each row's first failure
 * reason on one line, cut with an ellipsis (the whole reason is its title); a case opened from the
 * matrix grid scrolled clear of the sticky filter and outlined; the summary's charts.
 */
export const RUN_REPORT_STYLE = `
details.case > summary { display: grid; grid-template-columns: 1rem 5.5rem minmax(0, 1fr) 120px 11rem 6.5rem; column-gap: .6rem; align-items: center; }
details.case > summary::before { content: '\\25B8'; color: #5a6474; } details.case[open] > summary::before { content: '\\25BE'; }
details.case > summary .verdict { justify-self: start; }
details.case > summary .name { display: flex; flex-wrap: wrap; gap: .4rem; align-items: center; min-width: 0; }
details.case > summary .reason { grid-column: 3 / -1; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; color: #8c1d15; font-size: .85rem; }
details.case.passed > summary .reason { color: #5a6474; }
.bar.none { background: #e6e9ef; }
details.case { scroll-margin-top: 4rem; } details.case.revealed > summary { outline: 2px solid #3b6fd8; outline-offset: 1px; }
.charts { display: flex; flex-wrap: wrap; gap: 1.5rem; margin: .6rem 0; }
.charts figure { margin: 0; } .charts figcaption { font-weight: 600; font-size: .85rem; margin-bottom: .2rem; }
svg.chart text { font: 11px system-ui, sans-serif; fill: #1d2430; } svg.chart .chart-note, svg.chart .chart-axis-label, svg.chart .chart-count { fill: #5a6474; }
svg.chart .chart-track { fill: #fbdcd9; } svg.bars .chart-value { fill: #2f9e4f; } svg.histogram .chart-value { fill: #3b6fd8; } svg.chart .chart-axis { stroke: #9aa5b8; }
svg.interval .chart-track { fill: #e6e9ef; } svg.interval .chart-band { fill: #9fc2a9; } svg.interval .chart-point { fill: #17622b; }
.input-parts { display: flex; flex-wrap: wrap; gap: .8rem; margin: .4rem 0; } .input-part { margin: 0; font-size: .8rem; color: #5a6474; max-width: 20rem; overflow-wrap: anywhere; }
.input-part img.thumbnail { display: block; max-width: 12rem; max-height: 12rem; border: 1px solid #d5dae3; }
`;
