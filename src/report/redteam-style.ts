/**
 * The red-team section's style (page/redteam.ts), appended to the run report's STYLE in html-page.ts:
 * a block per plugin and target, marked when an attack succeeded, each successful attack's case key
 * above its failed trials.
 */
export const REDTEAM_STYLE = `
.redteam h2 { font-size: 1.15rem; margin: 1.2rem 0 .4rem; }
.rt-plugin { border: 1px solid #e6e9ef; border-radius: 6px; padding: .4rem .8rem; margin: 0 0 .8rem; }
.rt-plugin.rt-hit { border-color: #d64545; }
.rt-plugin h3 { font-size: 1rem; margin: .2rem 0; }
.rt-plugin-id, .rt-usage { color: #5b6472; font-size: .85rem; margin: .2rem 0; }
.rt-attack { margin: .4rem 0 .4rem .8rem; }
`;
