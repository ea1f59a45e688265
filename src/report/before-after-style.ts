/** The report page's style for its "Before and after" section (page/before-after.ts), appended to html-page.ts's STYLE. */
export const BEFORE_AFTER_STYLE = `
.before-after { margin: 1rem 0; }
.before-after h2 { font-size: 1.1rem; margin: .5rem 0; }
.ba-note { color: #5a6474; margin: .3rem 0; }
.ba-missing { color: #8c1d15; }
.ba-pair { margin: .6rem 0; }
.ba-sides { display: grid; grid-template-columns: 1fr 1fr; gap: .6rem; }
.ba-side { padding: .4rem .6rem; background: #f8f9fb; border-left: 3px solid #d5dae3; min-width: 0; }
.ba-side.before { border-color: #9aa5b8; } .ba-side.after { border-color: #3b6fd8; }
del.ba-del { background: #fbdcd9; color: #8c1d15; } ins.ba-ins { background: #d7f0dc; color: #17622b; text-decoration: none; }
.ba-tools { display: flex; flex-wrap: wrap; gap: .3rem; margin: .3rem 0; }
.ba-tool { font: 12px ui-monospace, monospace; padding: 0 .35rem; border-radius: 3px; background: #e6e9ef; }
.ba-tool.inserted { background: #d7f0dc; } .ba-tool.dropped { background: #fbdcd9; text-decoration: line-through; }
.ba-tool.moved-from { background: #fdf0c8; text-decoration: line-through; } .ba-tool.moved-to { background: #fdf0c8; }
.change.judge-changed, .change.tools-changed { border-color: #7a5a00; }
`;
