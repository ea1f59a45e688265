/**
 * The targets guide's example of a function target that sends a case's content parts on to OpenAI
 * ("Images and files in a function target"), taken from docs/guide/targets.md as written and run as a
 * project's `evals.config.ts` by the built CLI against the fake OpenAI server: the request carries the
 * image and the PDF as the guide says the parts hold them; and it type-checks, strict, against the
 * package's declarations. Needs dist/.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT, removeTempDirs } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js';
import { writeProject } from '../support/temp-project.js';
import { IMAGE_PNG } from '../multimodal/image-fixtures.js';

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});
afterAll(removeTempDirs);

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n', 'latin1');

/** The first `ts` code block after the guide's heading. */
function guideExample(): string {
  const guide = readFileSync(join(REPO_ROOT, 'docs', 'guide', 'targets.md'), 'utf8');
  const section = guide.slice(guide.indexOf('### Images and files in a function target'));
  const block = /```ts\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error('no ts example under "Images and files in a function target"');
  return block[1]!;
}

describe('the targets guide: images and files in a function target', () => {
  // A whole `tsc` over the package's declarations takes ~20 s on two idle cores and three times that on
  // a busy machine: the bound is for a hang, not for speed.
  it('its example sends the text, the image and the PDF of a case on to OpenAI, inline as the parts hold them', { timeout: 300_000 }, async () => {
    fake = await startFakeOpenAI({ script: () => ({ text: 'The total is 12.50.' }) });
    const dir = writeProject({
      'evals.config.ts': guideExample(),
      'evals/receipt.eval.yaml': [
        'suite: vision',
        'target: vision',
        'cases:',
        '  - id: receipt',
        '    input:',
        '      - { type: text, text: What is the total? }',
        '      - { type: image, path: receipt.png }',
        '      - { type: file, path: invoice.pdf, name: invoice-7.pdf }',
        '    assert: [{ type: contains, value: total }]',
        '',
      ].join('\n'),
    });
    // Written as bytes: writeProject takes text.
    writeFileSync(join(dir, 'evals', 'receipt.png'), IMAGE_PNG);
    writeFileSync(join(dir, 'evals', 'invoice.pdf'), PDF);
    // The example imports `agent-evals` as a user's project does.
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(REPO_ROOT, join(dir, 'node_modules', 'agent-evals'), 'dir');

    const r = await runCliInProcess(['run', '--no-results'], { cwd: dir, env: { OPENAI_API_KEY: 'sk-test-dummy-key-000000', OPENAI_BASE_URL: fake.url } });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    // Strict TypeScript against the package's declarations, as a user's editor checks it.
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { strict: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', noEmit: true, skipLibCheck: true, types: [] },
        files: ['evals.config.ts'],
      }),
    );
    execFileSync(process.execPath, [join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir], { encoding: 'utf8' });
    expect(fake.bodies).toHaveLength(1);
    expect(fake.bodies[0].messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is the total?' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${IMAGE_PNG.toString('base64')}` } },
          { type: 'file', file: { filename: 'invoice-7.pdf', file_data: `data:application/pdf;base64,${PDF.toString('base64')}` } },
        ],
      },
    ]);
  });
});
