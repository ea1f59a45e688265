/**
 * Scoring's public face, as the front door (runner/start-run.ts) opens it: recorded agent runs
 * (traces) graded by a scoring file's assertions (`agent-evals score`). Imported from here, never a
 * module of this folder (the `runner-public-face` rule in .dependency-cruiser.cjs).
 */
export { scoreTraces, type ScoreOptions, type ScoreOutcome } from './score.js';
