import type { CaseView } from '../../report/reporter.js';
import type { PlannedCase } from '../../suite/plan.js';

const views = new WeakMap<PlannedCase, CaseView>();

/** The case as reporters see it: made once per case, frozen, with no function in it. */
export function caseView(c: PlannedCase): CaseView {
  let view = views.get(c);
  if (!view) {
    const { index, key, suite, id, file, line, targetName, repeat } = c;
    view = Object.freeze({ index, key, suite, id, file, line, tags: Object.freeze([...c.tags]), targetName, repeat, ...(c.matrix ? { matrix: Object.freeze({ ...c.matrix }) } : {}) });
    views.set(c, view);
  }
  return view;
}
