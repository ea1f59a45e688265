import { REVIEW_STYLE } from './review-style.js';

/** The drafts page's style (drafts-page.ts inlines it): the labels review's, plus one card per draft and its edit form. */
export const DRAFTS_STYLE = `${REVIEW_STYLE}
.draft { border: 1px solid #e6e9ef; border-radius: 6px; padding: .6rem .8rem; margin: .8rem 0; }
.draft-head { display: flex; gap: .6rem; align-items: center; flex-wrap: wrap; }
.tag { font-size: .75rem; padding: 0 .35rem; border-radius: 3px; background: #e6e9ef; color: #3a4454; }
.actions { display: flex; gap: .4rem; margin-top: .5rem; }
.actions button, .edit button { font: inherit; padding: .2rem .6rem; border: 1px solid #c5ccd8; border-radius: 4px; background: #fff; cursor: pointer; }
.actions button.accept { border-color: #2f9e4f; color: #17622b; } .actions button.reject { border-color: #d9534f; color: #8c1d15; }
.edit label { display: block; font-weight: 600; font-size: .85rem; margin-top: .4rem; }
.edit textarea { width: 100%; box-sizing: border-box; font: 12.5px/1.4 ui-monospace, monospace; min-height: 4rem; }
.error { color: #b3261e; font-weight: 600; white-space: pre-wrap; margin: .3rem 0; }
`;
