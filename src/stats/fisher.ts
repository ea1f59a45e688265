/**
 * One-sided Fisher exact test on a 2×2 table of passes and fails: how likely a drop in pass rate at
 * least this large is when both runs share one pass rate. With every margin fixed, the head run's
 * passes follow a hypergeometric law; the p-value sums its probabilities at and below what was seen.
 */
export function fisherDropP(basePassed: number, baseRun: number, headPassed: number, headRun: number): number {
  check(basePassed, baseRun);
  check(headPassed, headRun);
  const total = baseRun + headRun;
  const passes = basePassed + headPassed;
  if (total === 0 || headRun === 0 || baseRun === 0) return 1;
  const lnf = lnFactorials(total);
  const lnChoose = (n: number, k: number) => lnf[n]! - lnf[k]! - lnf[n - k]!;
  const denominator = lnChoose(total, headRun);
  // The head run can hold no fewer passes than the baseline's fails leave over.
  const lowest = Math.max(0, passes - baseRun);
  let p = 0;
  for (let x = lowest; x <= headPassed; x++) p += Math.exp(lnChoose(passes, x) + lnChoose(total - passes, headRun - x) - denominator);
  return Math.min(1, p);
}

/** The same test the other way: how likely a rise at least this large is by chance. */
export function fisherRiseP(basePassed: number, baseRun: number, headPassed: number, headRun: number): number {
  return fisherDropP(headPassed, headRun, basePassed, baseRun);
}

function check(passed: number, run: number): void {
  if (!Number.isInteger(passed) || !Number.isInteger(run) || passed < 0 || run < passed) throw new RangeError(`not a pass count: ${passed}/${run}`);
}

/** ln(k!) for k = 0..n, by sums of logarithms: exact enough for any trial count and never overflows. */
function lnFactorials(n: number): number[] {
  const out = [0];
  for (let k = 1; k <= n; k++) out.push(out[k - 1]! + Math.log(k));
  return out;
}
