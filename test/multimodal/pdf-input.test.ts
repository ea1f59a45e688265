/**
 * A PDF as a case's input part, at model-agent targets: an OpenAI `file` part with the base64 data
 * URL and file name, an Anthropic `document` block with a base64 application/pdf source; both fakes
 * check the part (a PDF's bytes, well-formed base64) as the real APIs do.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI } from '../support/fake-openai.js';
import { startFakeAnthropic } from '../support/fake-anthropic.js';
import type { FakeProvider } from '../support/fake-server.js';
import { runInProcess } from '../support/run-in-process.js';

const fakes: FakeProvider[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

const env = { OPENAI_API_KEY: 'sk-test-dummy-key-000000', ANTHROPIC_API_KEY: 'sk-ant-test-dummy-000000' };
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n', 'latin1');
const files = (target: string) => ({
  'evals/invoice.eval.yaml': `suite: docs
target: ${target}
cases:
  - id: invoice
    input:
      - { type: text, text: What is the invoice number? }
      - { type: file, path: invoice.pdf }
    assert:
      - { type: contains, value: INV-7 }
`,
  'evals/invoice.pdf': PDF,
});

describe('a PDF input at model-agent targets', () => {
  it('OpenAI: a file part with the data URL and file name', async () => {
    const fake = await startFakeOpenAI({ script: () => ({ text: 'It is INV-7.' }) });
    fakes.push(fake);
    const { results } = await runInProcess({ files: files('gpt'), config: { targets: { gpt: { model: { provider: 'openai', model: 'gpt-4.1-mini', baseURL: fake.url } } } }, env });
    expect(results.cases[0]!.verdict).toBe('passed');
    expect(fake.bodies[0].messages.at(-1).content).toEqual([
      { type: 'text', text: 'What is the invoice number?' },
      { type: 'file', file: { filename: 'invoice.pdf', file_data: `data:application/pdf;base64,${PDF.toString('base64')}` } },
    ]);
    expect(results.cases[0]!.inputParts?.[1]).toMatchObject({ type: 'file', name: 'invoice.pdf', mediaType: 'application/pdf', bytes: PDF.length });
  });

  it('Anthropic: a document block with a base64 application/pdf source', async () => {
    const fake = await startFakeAnthropic({ script: () => ({ text: 'It is INV-7.' }) });
    fakes.push(fake);
    const { results } = await runInProcess({ files: files('claude'), config: { targets: { claude: { model: { provider: 'anthropic', model: 'claude-haiku-4-5', baseURL: fake.url } } } }, env });
    expect(results.cases[0]!.verdict).toBe('passed');
    expect(fake.bodies[0].messages[0].content).toEqual([
      { type: 'text', text: 'What is the invoice number?' },
      { type: 'document', title: 'invoice.pdf', source: { type: 'base64', media_type: 'application/pdf', data: PDF.toString('base64') } },
    ]);
  });
});
