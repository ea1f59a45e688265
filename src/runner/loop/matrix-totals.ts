import type { CaseResult, MatrixTable } from '../../core/results-schema.js';
import { matrixDimensions } from '../../core/matrix.js';
import { matrixTable, type VariantTotals } from '../../stats/matrix-table.js';

const sumCost = (a: number | null, b: number | null) => (a === null || b === null ? null : a + b);

/**
 * Per suite and matrix value, the totals of its finished cases (a number per case and a duration
 * per trial, never the cases themselves); the comparison tables at the end.
 */
export class MatrixTotals {
  /** suite → dimension → value → totals, in plan order (cases end in any order). */
  private readonly suites = new Map<string, Map<string, Map<string, VariantTotals>>>();

  constructor(planned: ReadonlyArray<Pick<CaseResult, 'suite' | 'matrix' | 'variant'>> = []) {
    for (const c of planned) this.entries(c);
  }

  /** One table per suite and set of dimensions; its rows are the variants (a target's name, a settings variant's name). */
  private entries(c: Pick<CaseResult, 'suite' | 'matrix' | 'variant'>): VariantTotals[] {
    const dimension = matrixDimensions(c.matrix);
    const value = c.variant?.name ?? c.matrix?.target;
    if (!dimension || value === undefined) return [];
    const dims = this.suites.get(c.suite) ?? new Map<string, Map<string, VariantTotals>>();
    this.suites.set(c.suite, dims);
    const values = dims.get(dimension) ?? new Map<string, VariantTotals>();
    dims.set(dimension, values);
    const t = values.get(value) ?? { value, cases: 0, casesPassed: 0, trialsRun: 0, trialsPassed: 0, scoreSum: 0, targetCostUsd: 0, judgeCostUsd: 0, durationsMs: [] };
    values.set(value, t);
    return [t];
  }

  addCase(c: CaseResult): void {
    for (const t of this.entries(c)) {
      t.cases += 1;
      if (c.verdict === 'passed') t.casesPassed += 1;
      for (const trial of c.trials) {
        if (trial.verdict === 'interrupted') continue;
        t.trialsRun += 1;
        if (trial.verdict === 'passed') t.trialsPassed += 1;
        t.scoreSum += trial.score;
        t.durationsMs.push(trial.durationMs);
      }
      t.targetCostUsd = sumCost(t.targetCostUsd, c.usage.target.costUsd);
      t.judgeCostUsd = sumCost(t.judgeCostUsd, c.usage.judge.costUsd);
    }
  }

  tables(): MatrixTable[] {
    return [...this.suites].flatMap(([suite, dims]) => [...dims].map(([dimension, values]) => matrixTable(suite, dimension, [...values.values()])));
  }
}
