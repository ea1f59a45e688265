/**
 * One framework example (examples/frameworks/<name>) run in-process by the real runner against the
 * fake OpenAI server, with the real framework: its cases through the adapter target, and the case
 * on the target that hands only `ctx.fetch('openai')` to the framework's client (tool calls read off the wire).
 * `trace: 'full'`: the tool calls are read back from the results, which digest them under `safe`.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { UserConfig } from '../../src/config/define-config.js';
import { REPO_ROOT, tempDir } from '../support/cli.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider } from '../support/fake-server.js';
import { caseOf } from '../support/results-helpers.js';
import { runInProcess, type InProcessRun } from '../support/run-in-process.js';
import { SERVED_MODEL, storeModel } from './store-script.js';

export function describeFrameworkExample(framework: string, config: UserConfig): void {
  const model = storeModel();
  let fake: FakeProvider;
  let run: InProcessRun;

  beforeAll(async () => {
    fake = await startFakeOpenAI({ script: model.script, apiKey: 'sk-example' });
    vi.stubEnv('OPENAI_API_KEY', 'sk-example');
    vi.stubEnv('OPENAI_BASE_URL', fake.url);
    run = await runInProcess({ dir: join(REPO_ROOT, 'examples/frameworks', framework), config: { ...config, trace: 'full', outputDir: tempDir() } });
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await fake.close();
  });

  const trial = (id: string) => caseOf(run.results, `frameworks/${framework}/${id}`).trials[0]!;
  const toolCalls = (id: string) => trial(id).trace.steps?.flatMap((s) => s.toolCalls ?? []);
  const checks = (id: string) => trial(id).assertions.map((a) => [a.kind, a.status]);

  describe(`examples/frameworks/${framework} through its adapter`, () => {
    it('passes every case', () => {
      expect(run.results.cases.map((c) => [c.id, c.verdict])).toEqual([
        ['order-status', 'passed'],
        ['refund-delivered', 'passed'],
        ['refund-refused', 'passed'],
        ['order-status-cost', 'passed'],
      ]);
      expect(run.exitCode).toBe(0);
    });

    it('passes calledTool with args, notCalledTool, toolOrder and noToolErrors on the tool calls the agent made', () => {
      expect(checks('order-status')).toEqual([
        ['calledTool', 'passed'],
        ['notCalledTool', 'passed'],
        ['noToolErrors', 'passed'],
        ['contains', 'passed'],
      ]);
      expect(toolCalls('order-status')).toEqual([{ name: 'orders_lookup', args: { orderId: 'A1' }, result: { orderId: 'A1', status: 'delivered', totalUsd: 42 }, isError: false }]);
      expect(checks('refund-delivered')).toEqual([
        ['calledTool', 'passed'],
        ['toolOrder', 'passed'],
        ['noToolErrors', 'passed'],
      ]);
      expect(toolCalls('refund-delivered')?.map((c) => c.name)).toEqual(['orders_lookup', 'refunds_issue']);
    });

    it('records the refund the tool refused (threw) with isError: true', () => {
      expect(toolCalls('refund-refused')?.find((c) => c.name === 'refunds_issue')).toMatchObject({
        args: { orderId: 'B2' },
        isError: true,
        result: expect.stringContaining('order B2 is not delivered yet'),
      });
      expect(checks('refund-refused')).toEqual([
        ['calledTool', 'passed'],
        ['custom', 'passed'],
      ]);
    });

    it('reports as target usage and cost what the fake served, one priced step per model call', () => {
      model.expectServed(trial('order-status').usage.target, 'Where is my order A1?');
      model.expectServed(trial('refund-delivered').usage.target, 'Please refund order A1.');
      model.expectServed(trial('refund-refused').usage.target, 'Please refund order B2.');
      expect(trial('refund-delivered').trace.steps?.map((s) => s.model)).toEqual([1, 2, 3].map(() => `openai:${SERVED_MODEL}`));
    });
  });

  describe(`examples/frameworks/${framework} with ctx.fetch and no adapter`, () => {
    it('passes calledTool with args on the tool call read off the wire', () => {
      expect(checks('order-status-cost')).toEqual([
        ['calledTool', 'passed'],
        ['contains', 'passed'],
        ['maxCostUsd', 'passed'],
      ]);
      expect(toolCalls('order-status-cost')).toEqual([{ name: 'orders_lookup', args: { orderId: 'A1' }, result: { orderId: 'A1', status: 'delivered', totalUsd: 42 }, isError: false }]);
    });

    it('reports exactly the usage and cost the fake served', () => {
      const t = trial('order-status-cost');
      expect(t.reply).toContain('"status":"delivered"');
      expect(t.trace.steps?.map((s) => s.model)).toEqual([`openai:${SERVED_MODEL}`, `openai:${SERVED_MODEL}`]);
      model.expectServed(t.usage.target, 'What is the status of order A1?');
    });
  });
}
