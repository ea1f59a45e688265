/** The history page's style (`agent-evals report --history`): the run report's look, plus charts and sparklines. */
export const HISTORY_STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 1200px; padding: 1rem 1.5rem; color: #1d2430; background: #fff; }
h1 { font-size: 1.4rem; margin: 0 0 .5rem; } h2 { font-size: 1.1rem; margin: 1.4rem 0 .5rem; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .15rem 1rem; margin: .4rem 0; }
dt { color: #5a6474; } dd { margin: 0; overflow-wrap: anywhere; }
.skipped { color: #8c1d15; font-size: .85rem; } .skipped li { overflow-wrap: anywhere; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(340px, 1fr)); gap: 1rem; }
figure.chart { margin: 0; } figure.chart figcaption { font-weight: 600; margin-bottom: .2rem; }
svg.line { width: 100%; height: auto; background: #f8f9fb; border-radius: 4px; }
svg .axis { stroke: #c9cfd9; stroke-width: 1; } svg .tick { fill: #5a6474; font-size: 10px; }
svg .series { fill: none; stroke: #3b6fd8; stroke-width: 1.6; } svg.cost .series { stroke: #b061c9; } svg.score .series { stroke: #2f9e4f; }
svg .point { fill: #3b6fd8; } svg.cost .point { fill: #b061c9; } svg.score .point { fill: #2f9e4f; }
table.changed { border-collapse: collapse; width: 100%; } table.changed th, table.changed td { text-align: left; padding: .25rem .5rem; border-bottom: 1px solid #eef0f4; }
table.changed th { color: #5a6474; font-weight: 600; font-size: .85rem; }
.key { font-family: ui-monospace, monospace; overflow-wrap: anywhere; }
.tools { position: sticky; top: 0; background: #fff; padding: .6rem 0; display: flex; gap: 1rem; align-items: center; border-bottom: 1px solid #e6e9ef; }
.tools input { flex: 1; padding: .35rem .5rem; font: inherit; }
.case-row { display: flex; gap: .8rem; align-items: center; padding: .25rem 0; border-bottom: 1px solid #eef0f4; }
.case-row .key { flex: 1; }
svg.spark { width: 160px; height: 24px; flex: none; } svg.spark .series { stroke: #5a6474; stroke-width: 1.2; }
svg.spark .passed { fill: #2f9e4f; } svg.spark .failed { fill: #b3261e; } svg.spark .scored { fill: #c99a06; } svg.spark .skipped { fill: #9aa5b8; }
.verdict { font-size: .75rem; font-weight: 600; text-transform: uppercase; padding: 0 .35rem; border-radius: 3px; background: #e6e9ef; }
.verdict.passed { background: #d7f0dc; color: #17622b; } .verdict.failed { background: #fbdcd9; color: #8c1d15; }
.verdict.scored { background: #fdf0c8; color: #7a5a00; } .verdict.skipped { background: #eceff3; color: #5a6474; }
.muted { color: #5a6474; font-size: .85rem; }
.more { margin: 1rem 0; }
`;
