import { describe, expect, it } from 'vitest';
import { JUDGE_CHAIN_PLACEHOLDER as J, maskJudgeChains } from '../../src/suite/mask-judge-chains.js';

describe('maskJudgeChains', () => {
  it('masks a judge chain from its receiver to the end of its statement, whatever the receiver is called', () => {
    expect(maskJudgeChains(`(t) => { t.contains('Paris'); t.judge().criteria('Polite').gate(); t.equals('x'); }`)).toBe(`(t) => { t.contains('Paris'); ${J}; t.equals('x'); }`);
    expect(maskJudgeChains(`check(ctx) { ctx.judge('openai:gpt-4.1-mini').criteria("Polite") }`)).toBe(`check(ctx) { ${J}}`);
    expect(maskJudgeChains(`(t) => t.expectJudge('Polite', 0.8)`)).toBe(`(t) => ${J}`);
    expect(maskJudgeChains(`(t) => { t.expectJudgeAgainst('Paris', 'Same city'); t.useJudge('anthropic:claude-haiku-5-5'); }`)).toBe(`(t) => { ${J}; ${J}; }`);
  });

  it('follows a chain over line breaks that continue it, and stops at one that does not', () => {
    const src = `async (t) => {\n  t.judge()\n    .criteria('Polite')\n    // a comment between links\n    ?.gate()\n  t.contains('x')\n}`;
    expect(maskJudgeChains(src)).toBe(`async (t) => {\n  ${J}\n  t.contains('x')\n}`);
  });

  it('a ; , ) or } inside a string, template literal, comment or regex ends nothing', () => {
    const tricky = [`'a; b) c}'`, `"a; b, c"`, '`a; ${"x;)".length} b}`', `/* ; ) */ 'x'`, `/[;)]/.source`];
    for (const arg of tricky) {
      expect(maskJudgeChains(`(t) => { t.judge().criteria(${arg}).gate(); t.equals('y'); }`), arg).toBe(`(t) => { ${J}; t.equals('y'); }`);
    }
  });

  it('ends the chain at a bracket closing one opened before it, or at a comma beside it', () => {
    expect(maskJudgeChains(`(t) => expect((await t.judge().criteria('x').result()).status)`)).toBe(`(t) => expect((await ${J}).status)`);
    expect(maskJudgeChains(`(t) => Promise.all([t.judge().criteria('a').result(), t.judge().closedQa('b?').result()])`)).toBe(`(t) => Promise.all([${J}, ${J}])`);
  });

  it('leaves everything else alone: other methods, a judge named in a string, a property that is not called', () => {
    const src = `(t) => { t.contains('t.judge().criteria("x");'); const j = t.judge; myjudge(1); t.judgement('x'); }`;
    expect(maskJudgeChains(src)).toBe(src);
    expect(maskJudgeChains('')).toBe('');
  });

  it('an unterminated chain, string or template runs to the end of the text without throwing', () => {
    expect(maskJudgeChains(`(t) => t.judge().criteria('open`)).toBe(`(t) => ${J}`);
    expect(maskJudgeChains('(t) => `open ${t.judge(')).toBe('(t) => `open ${t.judge(');
  });
});
