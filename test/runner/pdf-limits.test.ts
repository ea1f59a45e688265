/**
 * PDF limits per model (the capability table's, with source and date): a 40 MB, 300-page PDF is
 * accepted where the provider's docs allow it (OpenAI models with a 1M-token context: 128 MB, 600
 * pages) and refused before any trial where they do not (OpenAI under 1M: 100 pages; Anthropic:
 * 32 MB per request with base64, 100 pages), naming the limit and its source.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveInputParts } from '../../src/suite/input-parts.js';
import { pdfPageCount } from '../../src/suite/pdf-pages.js';
import { pdfLimitErrors } from '../../src/runner/loop/pdf-limit-check.js';
import { pdfLimitsOf } from '../../src/providers/pdf-limits.js';
import type { PlannedCase } from '../../src/suite/plan.js';
import { removeTempDirs, STACK_FRAME, tempDir } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { startFakeAnthropic } from '../support/fake-anthropic.js';
import type { FakeProvider } from '../support/fake-server.js';

const MB = 1024 * 1024;

/** A PDF whose page tree says `pages`, padded to `size` bytes (a comment line: inert to a reader). */
function pdf(pages: number, size: number): Buffer {
  const head = Buffer.from(`%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count ${pages} >> endobj\n%`, 'latin1');
  const tail = Buffer.from('\ntrailer << /Root 1 0 R >>\n%%EOF\n', 'latin1');
  return Buffer.concat([head, Buffer.alloc(size - head.length - tail.length, 0x20), tail]);
}

let fakes: FakeProvider[] = [];
afterEach(async () => {
  await Promise.all(fakes.map((f) => f.close()));
  fakes = [];
  removeTempDirs();
});

function plannedWith(file: string): PlannedCase {
  const dir = tempDir();
  writeFileSync(join(dir, 'big.pdf'), pdf(300, 40 * MB));
  const parts = resolveInputParts([{ type: 'file', path: 'big.pdf' }], { dir, file });
  return { file, line: 4, parts, turns: undefined } as unknown as PlannedCase;
}

describe('PDF limits per model', () => {
  it('reads a page count from the page tree, and none from a PDF that does not show it', () => {
    expect(pdfPageCount(pdf(300, 4096))).toBe(300);
    expect(pdfPageCount(Buffer.from('%PDF-1.5\n<< /Count 7 /Type /Pages >>\n', 'latin1'))).toBe(7);
    expect(pdfPageCount(Buffer.from('%PDF-1.5\n1 0 obj << /Type /ObjStm /N 3 >> stream\nxx\nendstream\n', 'latin1'))).toBeUndefined();
  });

  it('has the limits per wire and model, each with its source and date', () => {
    expect(pdfLimitsOf({ provider: 'openai', model: 'gpt-6.1-sol' })).toMatchObject({ maxBytes: 128 * MB, maxPages: 600, asOf: '2026-12-04' });
    expect(pdfLimitsOf({ provider: 'openai', model: 'gpt-4o' })).toMatchObject({ maxBytes: 128 * MB, maxPages: 100 });
    expect(pdfLimitsOf({ provider: 'anthropic', model: 'claude-haiku-5-5' })).toMatchObject({ maxBytes: 20 * MB, maxPages: 100 });
    expect(pdfLimitsOf({ provider: 'anthropic', model: 'claude-haiku-5-5' })?.source).toMatch(/Anthropic docs: PDF support guide/);
    // An OpenAI-compatible server sets its own: not guessed.
    expect(pdfLimitsOf({ provider: 'ollama', model: 'llama3.2' })).toBeUndefined();
  });

  it('accepts a 40 MB, 300-page PDF where the docs allow it and refuses it where they do not, naming the limit and the source', () => {
    const c = plannedWith('evals/docs.eval.yaml');
    expect(c.parts?.[0]).toMatchObject({ type: 'file', bytes: 40 * MB, pages: 300 });
    const errorsFor = (model: string) => pdfLimitErrors([c], () => ({ name: 't', model }));
    expect(errorsFor('openai:gpt-6.1-sol')).toEqual([]);
    expect(errorsFor('openai:gpt-5.6-luna')).toEqual([]);
    const openai = errorsFor('openai:gpt-4o');
    expect(openai).toHaveLength(1);
    expect(openai[0]!.message).toMatch(/target "t" \(openai:gpt-4o\) cannot take this case's PDFs: 300 pages \(at most 100\) per request; source: OpenAI docs: File inputs guide.*read 2026-12-04/);
    expect(openai[0]!.message).not.toMatch(/MB of PDF/);
    expect(openai[0]).toMatchObject({ file: 'evals/docs.eval.yaml', line: 4, field: 'input' });
    const claude = errorsFor('anthropic:claude-haiku-5-5');
    expect(claude[0]!.message).toMatch(/40 MB of PDF \(at most 20 MB\) and 300 pages \(at most 100\) per request; source: Anthropic docs: PDF support guide/);
    // No model (a command target), or a server the table does not speak for: the provider checks.
    expect(pdfLimitErrors([c], () => ({ name: 'cmd' }))).toEqual([]);
    expect(errorsFor('ollama:llama3.2')).toEqual([]);
  });

  it('through the CLI: exit 2 naming the limit and the source, before any call', async () => {
    const fake = await startFakeAnthropic({ script: () => ({ text: 'should not be asked' }) });
    fakes.push(fake);
    const dir = tempDir();
    writeFileSync(
      join(dir, 'evals.config.mjs'),
      `export default { evals: ['evals/*.eval.yaml'], outputDir: '.out', targets: { claude: { model: { provider: 'anthropic', model: 'claude-haiku-5-5', baseURL: '${fake.url}' } } } };`,
    );
    mkdirSync(join(dir, 'evals'));
    writeFileSync(join(dir, 'evals', 'big.pdf'), pdf(300, 40 * MB));
    writeFileSync(
      join(dir, 'evals', 'a.eval.yaml'),
      'suite: s\ntarget: claude\ncases:\n  - id: a\n    input:\n      - { type: text, text: Summarize. }\n      - { type: file, path: big.pdf }\n    assert: [{ type: contains, value: x }]\n',
    );
    const res = await runCliInProcess(['run'], { cwd: dir, env: { ANTHROPIC_API_KEY: 'sk-ant-test-0000' } });
    expect(res.code, res.stdout + res.stderr).toBe(2);
    expect(res.stderr).toMatch(/a\.eval\.yaml.*/);
    expect(res.stderr).toMatch(/target "claude" \(anthropic:claude-haiku-5-5\) cannot take this case's PDFs: 40 MB of PDF \(at most 20 MB\) and 300 pages \(at most 100\)/);
    expect(res.stderr).toMatch(/Anthropic docs: PDF support guide/);
    expect(res.stderr).not.toMatch(STACK_FRAME);
    expect(fake.count).toBe(0);
  });
});
