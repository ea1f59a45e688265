/**
 * The adaptive stopping rule (src/stats/adaptive.ts), pure: its calibration keeps the chance of a
 * wrongly decided verdict within DECIDED_WRONG_RATE at the worst true rate, and a seeded 200-case
 * simulation of the rule and the verdict it leads to stays within the rates the README states.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ADAPTIVE_CLEAR_MARGIN, CLEAR_WRONG_RATE, DECIDED_WRONG_RATE, adaptiveSide, adaptiveStop, adaptiveZ, wrongDecisionRisk } from '../../src/stats/adaptive.js';
import { requiredPasses } from '../../src/runner/loop/verdict.js';
import { Z_95 } from '../../src/stats/wilson.js';
import { REPO_ROOT } from '../support/cli.js';
import { seededRandom } from '../support/seeded-random.js';

const RANGE = { min: 3, max: 30 };

/** One simulated adaptive case: trials drawn until the rule stops; the verdict as the runner reads it. */
function simulate(trueRate: number, threshold: number, rand: () => number) {
  let passes = 0;
  for (let n = 1; ; n++) {
    if (rand() < trueRate) passes += 1;
    const stop = adaptiveStop(passes, n, threshold, RANGE);
    if (stop) return { used: n, stop, passed: passes >= requiredPasses(n, threshold) };
  }
}

describe('the adaptive stopping rule', () => {
  it('waits for min, decides once the interval clears the threshold, and stops at max', () => {
    expect(adaptiveStop(2, 2, 0.5, RANGE)).toBeUndefined();
    // 3 of 3 is not yet clear of 0.5 at the calibrated level; 12 of 12 is.
    expect(adaptiveStop(3, 3, 0.5, RANGE)).toBeUndefined();
    expect(adaptiveStop(12, 12, 0.5, RANGE)).toBe('decided');
    expect(adaptiveStop(0, 12, 0.5, RANGE)).toBe('decided');
    expect(adaptiveSide(0, 12, 0.5, adaptiveZ(RANGE, 0.5))).toBe('below');
    expect(adaptiveStop(15, 29, 0.5, RANGE)).toBeUndefined();
    expect(adaptiveStop(15, 30, 0.5, RANGE)).toBe('max');
    // A threshold of 1 can never be cleared from above: a passing case runs to max.
    expect(adaptiveStop(29, 29, 1, RANGE)).toBeUndefined();
  });

  it('calibrates each look stricter than 95%, so the repeated looks keep a decided verdict within DECIDED_WRONG_RATE', () => {
    for (let t = 0.05; t < 1; t += 0.05) {
      const z = adaptiveZ(RANGE, t);
      expect(z).toBeGreaterThan(Z_95);
      expect(wrongDecisionRisk(t, RANGE, z), `threshold ${t}`).toBeLessThanOrEqual(DECIDED_WRONG_RATE);
      // At the plain 95% per look, the repeated looks would decide wrongly more often than stated.
      expect(wrongDecisionRisk(t, RANGE, Z_95), `threshold ${t} at 95% per look`).toBeGreaterThan(DECIDED_WRONG_RATE);
    }
  });

  it('in a seeded 200-case simulation, wrong verdicts stay within the rates the README states', () => {
    const rand = seededRandom(0x5eed26);
    const offsets = [-0.3, -0.2, -0.1, -0.05, 0.05, 0.1, 0.2, 0.3];
    const thresholds = [0.5, 0.6, 0.7, 0.8, 0.9];
    const runs = Array.from({ length: 200 }, (_, i) => {
      const threshold = thresholds[i % thresholds.length]!;
      const trueRate = Math.min(1, Math.max(0, threshold + offsets[Math.floor(i / thresholds.length) % offsets.length]!));
      const r = simulate(trueRate, threshold, rand);
      return { ...r, wrong: r.passed !== trueRate >= threshold, clear: Math.abs(trueRate - threshold) >= ADAPTIVE_CLEAR_MARGIN - 1e-9 };
    });
    const share = (rs: typeof runs) => rs.filter((r) => r.wrong).length / rs.length;
    const decided = runs.filter((r) => r.stop === 'decided');
    const clear = runs.filter((r) => r.clear);
    expect(decided.length).toBeGreaterThan(40);
    expect(clear.length).toBeGreaterThanOrEqual(80);
    expect(share(decided)).toBeLessThanOrEqual(DECIDED_WRONG_RATE);
    expect(share(clear)).toBeLessThanOrEqual(CLEAR_WRONG_RATE);
    // Cases near their threshold are the ones that spend: they run to max far more often.
    const nearMax = runs.filter((r) => !r.clear && r.stop === 'max').length / runs.filter((r) => !r.clear).length;
    const clearMax = clear.filter((r) => r.stop === 'max').length / clear.length;
    expect(nearMax).toBeGreaterThan(clearMax);
  });

  it('gives, exactly over every path, the wrong-verdict rates by distance from the threshold that the README states', () => {
    // The chance of a wrong verdict for a true rate p against threshold t: the passes carried trial by trial.
    const wrong = (p: number, t: number) => {
      let dist = [1];
      let passing = 0;
      for (let n = 1; n <= RANGE.max; n++) {
        const next = new Array<number>(n + 1).fill(0);
        dist.forEach((w, k) => ((next[k + 1]! += w * p), (next[k]! += w * (1 - p))));
        next.forEach((w, k) => {
          if (w && adaptiveStop(k, n, t, RANGE)) {
            if (k >= requiredPasses(n, t)) passing += w;
            next[k] = 0;
          }
        });
        dist = next;
      }
      return p >= t ? 1 - passing : passing;
    };
    const worst = (margin: number) => {
      let w = 0;
      for (let t = 0.2; t < 0.96; t += 0.05) for (const p of [t - margin, t + margin]) if (p >= 0 && p <= 1) w = Math.max(w, wrong(p, t));
      return w;
    };
    expect(worst(ADAPTIVE_CLEAR_MARGIN)).toBeLessThanOrEqual(CLEAR_WRONG_RATE);
    expect(Math.round(worst(0.1) * 100)).toBe(18);
    expect(Math.round(worst(0.05) * 100)).toBe(36);
  });

  it('the README states the rates the rule is held to', () => {
    const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8').replace(/\s+/g, ' ');
    const pct = (x: number) => `${+(x * 100).toFixed(1)}%`;
    expect(readme).toContain(`wrong at most ${pct(DECIDED_WRONG_RATE)} of the time`);
    expect(readme).toContain(`at least ${ADAPTIVE_CLEAR_MARGIN} from the threshold, at most ${pct(CLEAR_WRONG_RATE)} of verdicts are wrong`);
  });
});
