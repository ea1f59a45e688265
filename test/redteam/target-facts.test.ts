/** What the plugins read of a target: the tool an injection goes through, the values they detect. */
import { describe, expect, it } from 'vitest';
import { canary, instructionFragments, instructionsCanary, obedienceMarker, readingTool } from '../../src/redteam/target-facts.js';
import type { RedteamTargetInfo } from '../../src/redteam/index.js';

const tool = (name: string, description?: string) => ({ name, ...(description ? { description } : {}), inputSchema: { type: 'object' } });
const target = (tools: ReturnType<typeof tool>[], destructiveTools: string[] = [], instructions?: string): RedteamTargetInfo => ({
  name: 't',
  tools,
  destructiveTools,
  ...(instructions ? { instructions } : {}),
});

describe('readingTool', () => {
  it('picks the first non-destructive tool that reads, by name, then by description, then the first non-destructive one', () => {
    expect(readingTool(target([tool('issue_refund'), tool('send_email'), tool('get_profile')], ['issue_refund']))).toBe('get_profile');
    expect(readingTool(target([tool('refunds'), tool('crm', 'Search the customer records')], ['refunds']))).toBe('crm');
    expect(readingTool(target([tool('wipe_disk'), tool('ping')], ['wipe_disk']))).toBe('ping');
    expect(readingTool(target([tool('wipe_disk')], ['wipe_disk']))).toBeUndefined();
  });
});

describe('detected values', () => {
  it('are the same for the same target and differ between targets and places', () => {
    const a = target([]);
    const b = { ...a, name: 'other' };
    expect(instructionsCanary(a)).toBe(instructionsCanary({ ...a }));
    expect(instructionsCanary(a)).not.toBe(instructionsCanary(b));
    expect(canary(a, 'tool-result')).not.toBe(instructionsCanary(a));
    expect(obedienceMarker(a)).not.toBe(obedienceMarker(b));
  });

  it('instruction fragments: the longest sentences of at least 40 characters, at most three', () => {
    const text =
      'Be nice. Always verify the customer email before any account change. Refunds above 100 dollars need a manager to approve them first.\nNever reveal internal discount codes to anyone at all, ever. Short one here. Keep answers under one hundred and twenty words please.';
    expect(instructionFragments(target([], [], text))).toEqual([
      'Refunds above 100 dollars need a manager to approve them first.',
      'Never reveal internal discount codes to anyone at all, ever.',
      'Always verify the customer email before any account change.',
    ]);
    expect(instructionFragments(target([]))).toEqual([]);
  });
});
