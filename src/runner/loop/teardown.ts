import { errorMessage } from '../../core/errors.js';

/** One named piece of the end of a run. `output`: its failure leaves a file the user asked for unwritten. */
export interface TeardownStep {
  name: string;
  output: boolean;
  run(): unknown;
}

export interface StepFailure {
  step: TeardownStep;
  error: unknown;
}

/**
 * Runs every step in order, each awaited, whatever the earlier ones did: one step's failure never
 * keeps the next (the judge cache, the results file, the reporters) from running. Returns the failures.
 */
export async function runTeardown(steps: TeardownStep[]): Promise<StepFailure[]> {
  const failures: StepFailure[] = [];
  for (const step of steps) {
    try {
      await step.run();
    } catch (error) {
      failures.push({ step, error });
    }
  }
  return failures;
}

export function stepFailureLine(f: StepFailure): string {
  return `teardown step "${f.step.name}" failed: ${errorMessage(f.error)}`;
}
