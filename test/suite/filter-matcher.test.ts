import { describe, expect, it } from 'vitest';
import { filterMatcher } from '../../src/suite/select.js';

const keys = ['support/refunds/verify', 'support/refunds/outside-window', 'support/orders/status', 'billing/refunds/verify', 'smoke'];
const pick = (...patterns: string[]) => keys.filter(filterMatcher(patterns));

describe('--filter patterns', () => {
  it('a glob matches the whole key, a trailing part, or a leading part (suites select their cases)', () => {
    expect(pick('support/refunds/*')).toEqual(['support/refunds/verify', 'support/refunds/outside-window']);
    expect(pick('refunds/verify')).toEqual([]); // no glob: a prefix of the key only
    expect(pick('refunds/*')).toEqual(['support/refunds/verify', 'support/refunds/outside-window', 'billing/refunds/verify']);
    expect(pick('support/*')).toEqual(['support/refunds/verify', 'support/refunds/outside-window', 'support/orders/status']);
    expect(pick('*/orders')).toEqual(['support/orders/status']);
    expect(pick('*verify')).toEqual(['support/refunds/verify', 'billing/refunds/verify']);
  });

  it('a plain pattern matches a suite or case by prefix at a segment boundary', () => {
    expect(pick('support/refunds')).toEqual(['support/refunds/verify', 'support/refunds/outside-window']);
    expect(pick('support/ref')).toEqual([]);
    expect(pick('smoke')).toEqual(['smoke']);
    expect(pick()).toEqual(keys);
  });
});
