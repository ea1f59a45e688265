/**
 * Isolation's public face, as the run loop uses it: isolated targets (a worker thread each) and, in
 * process, the exit trap and fault guard that keep a target's code from ending the run. Imported
 * from here, never a module of this folder (the `runner-public-face` rule in .dependency-cruiser.cjs);
 * the worker (isolated-worker.ts) is started by its file's URL, not imported.
 */
export { guardTargetFaults } from './fault-guard.js';
export { trapProcessEnd } from './exit-trap.js';
export { caseTarget, createIsolatedTarget, isIsolated } from './isolated-target.js';
