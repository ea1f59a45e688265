import { describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeAtomic } from '../../src/report/atomic-write.js';

const dir = () => mkdtempSync(join(tmpdir(), 'agent-evals-atomic-'));

describe('writeAtomic', () => {
  it('writes text and bytes in order, across batches, and renames the whole file into place', async () => {
    const d = dir();
    const path = join(d, 'out.json');
    const big = Buffer.alloc(300_000, 'b');
    await writeAtomic(path, async (write) => {
      write('a');
      write(big);
      // A producer may still await what it reads between writes.
      await Promise.resolve();
      write(Buffer.from('c'));
      write('é');
    });
    const text = readFileSync(path, 'utf8');
    expect(text).toBe(`a${'b'.repeat(300_000)}cé`);
    expect(readdirSync(d)).toEqual(['out.json']);
  });

  it('leaves the previous file in place and no temp file when producing fails halfway', async () => {
    const d = dir();
    const path = join(d, 'out.json');
    writeFileSync(path, 'previous');
    await expect(
      writeAtomic(path, (write) => {
        // Past one batch: part of the new text already reached the temp file.
        write(Buffer.alloc(300_000, 'x'));
        throw new Error('broken producer');
      }),
    ).rejects.toThrow('broken producer');
    expect(readFileSync(path, 'utf8')).toBe('previous');
    expect(readdirSync(d)).toEqual(['out.json']);
  });
});
