import type { CaseResult } from '../../core/results-schema.js';

/** Why a case ended with trials not run (early stop, bail, budget, interrupted), as its result records it. */
export type StopReason = NonNullable<CaseResult['notRunReason']>;
