/**
 * Calibration's public face, as the front door (runner/start-run.ts) opens it (`agent-evals
 * calibrate`). Imported from here, never from calibrate.ts (the `runner-public-face` rule in
 * .dependency-cruiser.cjs).
 */
export { calibrate, type CalibrationOptions } from './calibrate.js';
