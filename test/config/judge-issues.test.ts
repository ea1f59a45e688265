import { describe, expect, it } from 'vitest';
import { parseUserConfig } from '../../src/config/load-config.js';
import { UserErrors } from '../../src/core/errors.js';

/** The config's errors, each as the CLI prints it (file, field, message). */
function errors(config: unknown): string[] {
  try {
    parseUserConfig(config, 'evals.config.mjs');
  } catch (err) {
    if (err instanceof UserErrors) return err.errors.map((e) => e.message);
    throw err;
  }
  throw new Error('expected the config to be refused');
}

const ONE = '"provider:model", "fake", { provider, model, ... }, or a judge object (agentJudge(...), promptJudge(...))';
const OR_PANEL = '"provider:model", "fake", { provider, model, ... }, a judge object (agentJudge(...), promptJudge(...)), or a panel { panel: [two or more judges], aggregate? }';

describe('a config judge of no form a judge takes is named a judge, not "Invalid input"', () => {
  it('`judge`: the forms, a panel among them', () => {
    expect(errors({ judge: 42 })).toEqual([`evals.config.mjs: judge: expected a judge: ${OR_PANEL}; got number`]);
  });

  it('a panel member: the forms of one judge, at the member', () => {
    expect(errors({ judge: { panel: [42, 'fake'] } })).toEqual([`evals.config.mjs: judge: panel[0]: expected a judge: ${ONE}; got number`]);
  });

  it('`judges.<name>`: the forms of one judge (a named judge is no panel)', () => {
    expect(errors({ judges: { j: { provider: 'fak' } } })).toEqual([`evals.config.mjs: judges.j: expected a judge: ${ONE}; got an object with keys provider`]);
  });
});
