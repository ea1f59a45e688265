/**
 * Re-judging's public face, as the front door (runner/start-run.ts) opens it: a recorded run
 * re-graded (`agent-evals rejudge`) and a baseline re-graded for `--rejudge`. Imported from here,
 * never a module of this folder (the `runner-public-face` rule in .dependency-cruiser.cjs).
 */
export { rejudgeRecorded, type RejudgeOptions, type RejudgeOutcome } from './rejudge.js';
export { rejudgeBaseline, type RejudgedBaselineOutcome } from './rejudge-baseline.js';
