import { describe, expect, it } from 'vitest';
import { caseFingerprint } from '../../src/suite/fingerprint.js';
import { makePlannedCase } from '../support/planned-case.js';

const base = () => makePlannedCase({ reference: 'Paris', assertions: [{ type: 'contains', value: 'Paris' }] }, { suite: 's', file: 'evals/s.eval.yaml', input: 'Capital of France?' });

describe('caseFingerprint', () => {
  it('is the same for the same case, whatever its key order, line, tags, trials or target', () => {
    const a = base();
    const moved = { ...base(), line: 40, tags: ['new'], repeat: 10, passRate: 0.5, targetName: 'other', assertions: [{ value: 'Paris', type: 'contains' }] } as typeof a;
    expect(caseFingerprint(moved)).toBe(caseFingerprint(a));
  });

  it('changes with the input, the reference, an assertion or a check', () => {
    const fp = caseFingerprint(base());
    expect(caseFingerprint({ ...base(), input: 'Capital of Spain?', messages: [{ role: 'user', content: 'Capital of Spain?' }] })).not.toBe(fp);
    expect(caseFingerprint({ ...base(), reference: 'Madrid' })).not.toBe(fp);
    expect(caseFingerprint({ ...base(), assertions: [{ type: 'contains', value: 'paris' }] })).not.toBe(fp);
    expect(caseFingerprint({ ...base(), turns: [{ input: 'Capital of France?' }, { input: 'And Spain?' }] })).not.toBe(fp);
    const check1 = caseFingerprint({ ...base(), check: (t) => void t.contains('Paris') });
    const check2 = caseFingerprint({ ...base(), check: (t) => void t.contains('paris') });
    expect(check1).not.toBe(fp);
    expect(check2).not.toBe(check1);
  });
});
