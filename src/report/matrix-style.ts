/**
 * The matrix section's style (page/matrix-grid.ts), appended to the run report's STYLE in
 * html-page.ts: the comparison table, the grid (a row per case, a column per matrix value) and the
 * mark on rows whose variants differ; a cell's verdict and N, a button to its case, drawn as a link.
 */
export const MATRIX_STYLE = `
.matrix h2 { font-size: 1.15rem; margin: 1.2rem 0 .4rem; }
.mx-suite { margin: 0 0 1.2rem; }
.mx-scroll { overflow-x: auto; }
.mx-table, .mx-grid { border-collapse: collapse; margin: .4rem 0; font-size: .9rem; }
.mx-table th, .mx-table td, .mx-grid th, .mx-grid td { border: 1px solid #e6e9ef; padding: .3rem .5rem; text-align: left; vertical-align: top; }
.mx-table thead th, .mx-grid thead th { background: #f3f5f8; font-weight: 600; }
.mx-table td.best { background: #e8f5eb; font-weight: 600; }
.mx-best { color: #17622b; }
.mx-notes, .mx-count, .mx-n, .mx-why { color: #5a6474; font-size: .85rem; }
.mx-tools { display: flex; gap: 1rem; align-items: center; margin: .4rem 0; }
.mx-grid td.mx-cell { min-width: 12rem; max-width: 32rem; }
.mx-cell .verdict { margin-right: .4rem; }
.mx-open { font: inherit; color: inherit; background: none; border: 0; padding: 0; cursor: pointer; text-align: left; }
.mx-open .mx-n { color: #3b6fd8; text-decoration: underline; }
.mx-none { color: #9aa5b8; }
.mx-case .key { display: block; }
.mx-why { display: block; font-weight: normal; }
.mx-grid tr.mx-differs > th, .mx-grid tr.mx-differs > td { background: #fff6db; }
.mx-grid tr.mx-differs > th { border-left: 3px solid #d19a00; }
.mx-reply { border: 0; }
.mx-reply > summary { display: list-item; padding: .15rem 0; font-size: .85rem; color: #3b6fd8; }
.mx-more { margin: .4rem 0; }
`;
