/**
 * `--judge` does not silently replace a judge named from the config's `judges`: such an assertion
 * keeps its judge unless `--judge` itself names a configured judge, and the run says once which
 * assertions kept theirs. In-process runs (as `agent-evals run` runs them), asserted by which fake
 * server (and model) received each assertion's request.
 */
import { afterAll, describe, expect, it, type TestContext } from 'vitest';
import { removeTempDirs } from '../support/cli.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider } from '../support/fake-server.js';
import { explain, runProjectInProcess } from '../support/run-fixture-in-process.js';
import { userText } from './helpers.js';

afterAll(removeTempDirs);

async function fake(t: TestContext): Promise<FakeProvider> {
  const f = await startFakeOpenAI({ script: () => ({ json: { answer: 'yes', reason: 'says shipped', evidence: [] } }) });
  t.onTestFinished(() => f.close());
  return f;
}

/** `auditor` (named) on one server, `other` (named) and the command line's model on the other. */
function run(auditorUrl: string, cliUrl: string, override: string) {
  const q = (tag: string, judge?: string) => `      - type: closedQa\n        question: ${tag} Does it give the status?\n${judge ? `        judge: ${judge}\n` : ''}`;
  return runProjectInProcess(
    {
      files: {
        'kept.eval.yaml': `suite: kept\ntarget: agent\ncases:\n  - id: a\n    input: where is A1?\n    assert:\n${q('Q-NAMED', 'auditor')}${q('Q-DEFAULT')}${q('Q-MODEL', 'openai:gpt-4.1-mini')}`,
      },
    },
    {
      evals: ['*.eval.yaml'],
      targets: { agent: () => 'Order A1 shipped.' },
      judge: 'openai:gpt-4.1',
      judges: {
        auditor: { provider: 'openai', model: 'gpt-4.1-nano', baseURL: auditorUrl },
        other: { provider: 'openai', model: 'gpt-4o-mini' },
      },
    },
    { override, env: { OPENAI_BASE_URL: cliUrl, OPENAI_API_KEY: 'test-key' } },
  );
}

/** Question tag → `server model` for every request. */
function routed(servers: Record<string, FakeProvider>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, f] of Object.entries(servers)) for (const b of f.bodies) out[/Q-\w+/.exec(userText(b))![0]] = `${name} ${b.model}`;
  return out;
}

describe.concurrent('--judge and judges named in the config', () => {
  it('a provider:model --judge replaces every judge but the named one, and says so once', async (t) => {
    const [auditor, cli] = [await fake(t), await fake(t)];
    const res = await run(auditor.url, cli.url, 'openai:gpt-4.1-mini');
    expect(res.code, explain(res)).toBe(0);
    expect(routed({ auditor, cli })).toEqual({ 'Q-NAMED': 'auditor gpt-4.1-nano', 'Q-DEFAULT': 'cli gpt-4.1-mini', 'Q-MODEL': 'cli gpt-4.1-mini' });
    const out = res.stdout + res.stderr;
    const notices = out.split('\n').filter((l) => l.includes('kept its own judge'));
    expect(notices, out).toHaveLength(1);
    expect(notices[0]).toContain('--judge openai:gpt-4.1-mini');
    expect(notices[0]).toContain('kept/a › closedQa "Q-NAMED Does it give the status?" (auditor)');
    expect(notices[0]).not.toContain('Q-DEFAULT');
    expect(res.results().summary.warnings.filter((w) => w.includes('kept its own judge'))).toHaveLength(1);
  });

  it('--judge naming a configured judge replaces the named one too, with no notice', async (t) => {
    const [auditor, cli] = [await fake(t), await fake(t)];
    const res = await run(auditor.url, cli.url, 'other');
    expect(res.code, explain(res)).toBe(0);
    expect(routed({ auditor, cli })).toEqual({ 'Q-NAMED': 'cli gpt-4o-mini', 'Q-DEFAULT': 'cli gpt-4o-mini', 'Q-MODEL': 'cli gpt-4o-mini' });
    expect(res.stdout + res.stderr).not.toContain('own judge');
  });
});
