/** The run list's style (`agent-evals view`): the run report's look, with a table of runs. */
export const VIEW_STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 1200px; padding: 1rem 1.5rem; color: #1d2430; background: #fff; }
h1 { font-size: 1.4rem; margin: 0 0 .5rem; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .15rem 1rem; margin: .4rem 0; }
dt { color: #5a6474; } dd { margin: 0; overflow-wrap: anywhere; }
.skipped { color: #8c1d15; font-size: .85rem; } .skipped li { overflow-wrap: anywhere; }
.compare { display: flex; gap: .5rem; align-items: center; margin: .8rem 0; flex-wrap: wrap; }
.compare select { font: inherit; max-width: 22rem; }
table.runs { border-collapse: collapse; width: 100%; } table.runs th, table.runs td { text-align: left; padding: .25rem .5rem; border-bottom: 1px solid #eef0f4; }
table.runs th { color: #5a6474; font-weight: 600; font-size: .85rem; }
.key { font-family: ui-monospace, monospace; overflow-wrap: anywhere; }
td.exit.bad { color: #8c1d15; font-weight: 600; }
.muted { color: #5a6474; font-size: .85rem; }
`;
