/**
 * A judge named only in a turn's assertions is one of the run's judges like any other: built before
 * the first trial (so a bad reference stops the run there) and priced for a budget.
 */
import { describe, expect, it } from 'vitest';
import { judgeService, plannedCase } from './helpers.js';
import { UserError } from '../../src/core/errors.js';

const turnJudged = (judge: string) =>
  plannedCase({
    id: 'conversation',
    line: 7,
    assertions: [],
    turns: [{ input: 'hello', assert: [{ type: 'judge', criteria: 'greets back', judge }] }, { input: 'bye' }],
  });

describe('the judge service over turn assertions', () => {
  it('prices a judge named only in a turn', () => {
    const service = judgeService({ judge: 'fake' });
    expect(service.judgeModels([turnJudged('openai:gpt-4.1-mini')])).toEqual(['openai:gpt-4.1-mini']);
  });

  it('builds it before the run: an unknown judge name is a located error from prepare', () => {
    const service = judgeService({ judge: 'fake' });
    let thrown: unknown;
    try {
      service.prepare([turnJudged('auditor')]);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(UserError);
    expect((thrown as UserError).file).toBe('judges.eval.yaml');
    expect((thrown as UserError).line).toBe(7);
  });
});
