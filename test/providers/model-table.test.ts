/** The capability table: one row per model family, found by family, dated id or line prefix, each with its source. */
import { describe, expect, it } from 'vitest';
import { minCacheableTokens } from '../../src/providers/wires/anthropic/anthropic-cache.js';
import { CapabilitiesSchema } from '../../src/providers/capabilities.js';
import { capabilitiesOf, familyRow } from '../../src/providers/capability-lookup.js';
import { MODEL_TABLE } from '../../src/providers/model-table.js';
import { wireDescriptor } from '../../src/providers/wires.js';

/** Every Claude id in the `Model` union of @anthropic-ai/sdk 1.14 (resources/messages/messages.d.ts). */
const SDK_CLAUDE_IDS = [
  'claude-fable-5-2',
  'claude-mythos-5-2',
  'claude-haiku-5-5',
  'claude-sonnet-5-5',
  'claude-fable-5-1',
  'claude-opus-5-5',
  'claude-mythos-5-1',
  'claude-sonnet-5',
  'claude-fable-5',
  'claude-mythos-5',
  'claude-opus-5',
  'claude-opus-4-8',
  'claude-opus-4-7',
  'claude-mythos-preview',
  'claude-opus-4-6',
  'claude-sonnet-4-6',
  'claude-haiku-4-5',
  'claude-haiku-4-5-20251001',
  'claude-opus-4-5',
  'claude-opus-4-5-20251101',
  'claude-sonnet-4-5',
  'claude-sonnet-4-5-20250929',
];

describe('the model capability table', () => {
  it('every row has a valid capability record, a source in words (no link) and an as-of date', () => {
    for (const row of MODEL_TABLE) {
      expect(CapabilitiesSchema.safeParse(row.capabilities).success, row.family).toBe(true);
      expect(row.source.trim().length, row.family).toBeGreaterThan(10);
      expect(row.source, row.family).not.toMatch(/https?:|www\./);
      expect(['2026-12-01', '2026-12-04'], row.family).toContain(row.asOf); // the Gemini rows were read 2026-12-04
      for (const date of [row.deprecated, row.shutdown]) if (date !== undefined) expect(date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
  });

  it('holds no family twice on one wire', () => {
    const keys = MODEL_TABLE.map((row) => `${row.wire}:${row.family}`);
    expect(keys.filter((key, i) => keys.indexOf(key) !== i)).toEqual([]);
  });

  it('has an exact row for every Claude id the SDK names (dated ids map to their family)', () => {
    for (const id of SDK_CLAUDE_IDS) expect(familyRow('anthropic', id)?.prefix, id).toBeFalsy();
    expect(familyRow('anthropic', 'claude-haiku-4-5-20251001')?.family).toBe('claude-haiku-4-5');
    expect(familyRow('anthropic', 'claude-sonnet-4-5-20250929')?.family).toBe('claude-sonnet-4-5');
  });

  it('never lets a sampling parameter reach an Anthropic request (API version 2026-10-21)', () => {
    for (const row of MODEL_TABLE.filter((r) => r.wire === 'anthropic')) expect(row.capabilities.sampling, row.family).toBe('none');
    expect(capabilitiesOf(wireDescriptor('anthropic'), 'claude-unknown-9').sampling).toBe('none');
  });

  it('asks the models that refuse forced tool use for output_config.format, and older Claude for the forced tool', () => {
    for (const id of ['claude-sonnet-5-5', 'claude-opus-5-5', 'claude-fable-5-1', 'claude-mythos-5-1', 'claude-fable-5-2']) {
      expect(capabilitiesOf(wireDescriptor('anthropic'), id).structuredOutput, id).toBe('output_config');
    }
    expect(capabilitiesOf(wireDescriptor('anthropic'), 'claude-haiku-4-5').structuredOutput).toBe('forced_tool');
    expect(capabilitiesOf(wireDescriptor('anthropic'), 'claude-haiku-4-5-20251001').structuredOutput).toBe('forced_tool');
    expect(capabilitiesOf(wireDescriptor('anthropic'), 'claude-sonnet-4-6').structuredOutput).toBe('forced_tool');
  });

  it('tells "Adaptive (always on)" from "Adaptive" (on by default) and from thinking off unless asked', () => {
    expect(capabilitiesOf(wireDescriptor('anthropic'), 'claude-opus-5-5').thinking).toBe('always');
    expect(capabilitiesOf(wireDescriptor('anthropic'), 'claude-fable-5-1').thinking).toBe('always');
    expect(capabilitiesOf(wireDescriptor('anthropic'), 'claude-sonnet-5-5').thinking).toBe('default-on');
    expect(capabilitiesOf(wireDescriptor('anthropic'), 'claude-haiku-5-5').thinking).toBe('default-on');
    expect(capabilitiesOf(wireDescriptor('anthropic'), 'claude-opus-4-8').thinking).toBe('optional');
  });

  it("gives an unknown id of a known Claude line its newest model's rules", () => {
    const row = familyRow('anthropic', 'claude-opus-5-7');
    expect(row).toMatchObject({ family: 'claude-opus', prefix: true });
    expect(capabilitiesOf(wireDescriptor('anthropic'), 'claude-opus-5-7')).toMatchObject({ thinking: 'always', structuredOutput: 'output_config', sampling: 'none' });
  });

  it('gives an unknown gpt-6.x id the GPT-6 family rules, and known GPT-6 models their own', () => {
    expect(familyRow('openai', 'gpt-6.3-nova')).toMatchObject({ family: 'gpt-6', prefix: true });
    const unknown = capabilitiesOf(wireDescriptor('openai'), 'gpt-6.3-nova');
    expect(unknown.sampling).toBe('none');
    expect(unknown.reasoningEfforts).not.toContain('none');
    expect(unknown.tokenParam).toBe('max_completion_tokens');
    // gpt-6.1-terra: temperature/top_p only with reasoning effort none, which it accepts.
    const terra = capabilitiesOf(wireDescriptor('openai'), 'gpt-6.1-terra');
    expect(terra.sampling).toBe('reasoning-off');
    expect(terra.reasoningEfforts).toEqual(['none', 'low', 'medium', 'high', 'xhigh', 'max']);
    expect(capabilitiesOf(wireDescriptor('openai'), 'gpt-6.1-sol').reasoningEfforts).not.toContain('none');
  });

  it('knows the OpenAI sampling rules by family: GPT-4.x any, GPT-5.1+ only at effort none, gpt-5 and o-series never', () => {
    expect(capabilitiesOf(wireDescriptor('openai'), 'gpt-4.1-mini-2025-04-14').sampling).toBe('any');
    expect(capabilitiesOf(wireDescriptor('openai'), 'gpt-4o-mini').sampling).toBe('any');
    expect(capabilitiesOf(wireDescriptor('openai'), 'gpt-5.5').sampling).toBe('reasoning-off');
    expect(capabilitiesOf(wireDescriptor('openai'), 'gpt-5.4-mini').sampling).toBe('reasoning-off');
    expect(capabilitiesOf(wireDescriptor('openai'), 'gpt-5-mini').sampling).toBe('none');
    expect(capabilitiesOf(wireDescriptor('openai'), 'o3-mini').sampling).toBe('none');
    expect(capabilitiesOf(wireDescriptor('openai'), 'gpt-5-chat-latest').sampling).toBe('any');
    expect(capabilitiesOf(wireDescriptor('openai'), 'gpt-5.2-chat-latest').sampling).toBe('none');
  });

  it('records the announced shutdowns', () => {
    expect(familyRow('openai', 'gpt-4.1-mini')?.shutdown).toBe('2027-01-14');
    expect(familyRow('anthropic', 'claude-sonnet-4-5-20250929')?.shutdown).toBe('2026-11-30');
    expect(familyRow('openai', 'gpt-6.1-terra')?.shutdown).toBeUndefined();
  });

  it('feeds the Anthropic prompt-cache minimum from promptCacheMinTokens; a family without one is held to the largest', () => {
    expect(minCacheableTokens('claude-opus-4-8')).toBe(1024);
    expect(minCacheableTokens('claude-fable-5')).toBe(512);
    expect(capabilitiesOf(wireDescriptor('anthropic'), 'claude-opus-5-5').promptCacheMinTokens).toBeUndefined();
    expect(minCacheableTokens('claude-opus-5-5')).toBe(4096);
  });
});
