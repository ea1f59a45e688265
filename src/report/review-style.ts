/** The review page's style (review-page.ts inlines it): one trial at a time, the controls and the key legend. */
export const REVIEW_STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 1000px; padding: 1rem 1.5rem; color: #1d2430; background: #fff; }
h1 { font-size: 1.3rem; margin: 0 0 .3rem; }
.progress { color: #5a6474; }
.trial-head { display: flex; gap: .6rem; align-items: center; flex-wrap: wrap; margin: .8rem 0 .4rem; }
.key { font-family: ui-monospace, monospace; overflow-wrap: anywhere; font-weight: 600; }
.verdict { font-size: .75rem; font-weight: 600; text-transform: uppercase; padding: 0 .35rem; border-radius: 3px; background: #e6e9ef; }
.verdict.passed, .verdict.pass { background: #d7f0dc; color: #17622b; } .verdict.failed, .verdict.fail { background: #fbdcd9; color: #8c1d15; }
.verdict.scored { background: #fdf0c8; color: #7a5a00; }
.block { margin: .4rem 0; padding: .4rem .6rem; border-left: 3px solid #d5dae3; background: #f8f9fb; }
.block.input { border-color: #3b6fd8; } .block.output { border-color: #2f9e4f; } .block.reference { border-color: #b061c9; }
.label { font-weight: 600; font-size: .85rem; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; margin: .2rem 0 0; font: 12.5px/1.4 ui-monospace, monospace; }
.checks { color: #5a6474; font-size: .85rem; margin: .3rem 0; padding-left: 1.2rem; }
.controls { position: sticky; top: 0; background: #fff; padding: .6rem 0; border-bottom: 1px solid #e6e9ef; display: flex; flex-wrap: wrap; gap: .4rem; align-items: center; }
.controls button { font: inherit; padding: .2rem .55rem; border: 1px solid #c5ccd8; border-radius: 4px; background: #fff; cursor: pointer; }
.controls button.on { background: #1d2430; color: #fff; border-color: #1d2430; }
.controls .sep { width: 1px; height: 1.4rem; background: #e6e9ef; margin: 0 .3rem; }
.status { margin-left: auto; color: #5a6474; font-size: .85rem; } .status.error { color: #b3261e; font-weight: 600; }
.legend { color: #5a6474; font-size: .85rem; margin: .6rem 0; }
.legend kbd { font: 12px ui-monospace, monospace; border: 1px solid #c5ccd8; border-radius: 3px; padding: 0 .25rem; background: #f8f9fb; } .legend kbd + kbd { margin-left: .15rem; }
`;
