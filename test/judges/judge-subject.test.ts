/**
 * The judge wiring reads a case only as a `JudgeSubject` (src/core/judge-subject.ts): a bare subject,
 * no planned case, is judged, and what the judge reads of it (input, history, reference, its own judge
 * and judged defaults, its judged assertions) comes from the subject. The wiring lives in src/judges/,
 * none of it in src/runner/, and nothing under src/judges/ reads the floors above it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { JudgeSubject } from '../../src/core/judge-subject.js';
import { checkRunJudgeRefs } from '../../src/judges/judge-refs.js';
import type { ModelRef } from '../../src/judges/spec.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider } from '../support/fake-server.js';
import { judgeRef, judgeService, MODEL, REPLY, sampleRun, splitPrompt, userText } from './helpers.js';

const root = resolve(import.meta.dirname, '../..');

const fakes: FakeProvider[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

/** A case as a judge sees it, and nothing more: no suite, target, repeat or check. */
function bareSubject(judge: ModelRef | undefined): JudgeSubject<ModelRef> {
  return {
    key: 'bare/one',
    file: 'bare.eval.yaml',
    line: 7,
    input: 'INPUT-BARE: and where is it now?',
    messages: [
      { role: 'user', content: 'HISTORY-BARE: I ordered 4711' },
      { role: 'assistant', content: 'It is on its way.' },
      { role: 'user', content: 'INPUT-BARE: and where is it now?' },
    ],
    reference: 'REFERENCE-BARE: shipped on Monday',
    judge,
    judgeDefaults: { severity: 'gate', threshold: 0.5 },
    assertions: [{ type: 'contains' }],
    turns: [{ assert: [{ type: 'judge' }] }],
  };
}

describe('the judge service takes a JudgeSubject', () => {
  it('judges a bare subject with its own judge, reading its input, history and reference; its defaults grade the score', async () => {
    const f = await startFakeOpenAI({ script: [{ json: { score: 0.6, reason: 'ok', evidence: [] } }] });
    fakes.push(f);
    const subject = bareSubject(judgeRef('openai', f.url));
    // No judge in the config: only the subject's own names one.
    const service = judgeService({});
    // Its judged assertions (a turn's here) name the subject's judge: built before the run, priced for a budget.
    service.prepare([subject]);
    expect(service.judgeModels([subject])).toEqual([`openai:${MODEL.openai}`]);

    const { result } = await service.grade(
      { type: 'judge', criteria: 'CRITERIA: says where the order is' },
      { subject, trialIndex: 0, run: sampleRun(), reply: REPLY, caseJudge: undefined, signal: new AbortController().signal },
    );
    // 0.6 passes the subject's threshold (0.5), not the config's default (0.7); its default severity is gate.
    expect(result).toMatchObject({ status: 'passed', threshold: 0.5, severity: 'gate' });
    const { before } = splitPrompt(userText(f.bodies[0]));
    expect(before).toContain('REFERENCE-BARE: shipped on Monday');
    expect(JSON.stringify(f.bodies[0])).toContain('HISTORY-BARE: I ordered 4711');
    expect(JSON.stringify(f.bodies[0])).toContain('INPUT-BARE: and where is it now?');
  });

  it("a subject's unknown judge is blamed on its file and line", () => {
    expect(() => checkRunJudgeRefs({ judges: {} }, [bareSubject('auditor')])).toThrow(expect.objectContaining({ file: 'bare.eval.yaml', line: 7, field: 'judge' }));
  });
});

/** The judge wiring: the run's judge service and everything it puts together. */
const WIRING = ['create-judge-service', 'judge-service', 'judge-instances', 'judge-batch', 'batch-collect', 'batch-outcomes', 'judged-result', 'judge-refs', 'judge-keys', 'judged-specs'];

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

describe('where the judge wiring lives', () => {
  it('src/judges/ holds it; src/runner/ holds none of it and defines none of its pieces', () => {
    for (const name of WIRING) expect(existsSync(join(root, 'src/judges', `${name}.ts`)), name).toBe(true);
    const runner = tsFiles(join(root, 'src/runner'));
    expect(runner.map((f) => relative(root, f)).filter((f) => WIRING.some((w) => f.endsWith(`/${w}.ts`)))).toEqual([]);
    const pieces =
      /export\s+(?:async\s+)?(?:function|class|const|interface|type)\s+(createJudgeService|judgeInstances|JudgeBatch|judgedResult|checkRunJudgeRefs|missingJudgeKeys|staticJudgedSpecs|JudgeService|JudgeTrialContext)\b/;
    expect(runner.filter((f) => pieces.test(readFileSync(f, 'utf8'))).map((f) => relative(root, f))).toEqual([]);
  });

  it('nothing under src/judges/ imports suite/, runner/, report/ or a floor above them: it reads a case as a JudgeSubject', () => {
    const above = /^src\/(cli|api|config|runner|report|suite)\//;
    const upward: string[] = [];
    for (const file of tsFiles(join(root, 'src/judges'))) {
      for (const [, spec] of readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)) {
        const target = relative(root, resolve(dirname(file), spec!));
        if (above.test(target)) upward.push(`${relative(root, file)} → ${target}`);
      }
    }
    expect(upward).toEqual([]);
  });
});
