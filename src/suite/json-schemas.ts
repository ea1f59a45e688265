import { z } from 'zod';
import { EvalFileSchema } from './schema.js';
import { ResultsSchema } from '../core/results-schema.js';
import { CalibrationSchema } from '../core/calibration-schema.js';

/**
 * The JSON Schemas in `schemas/`, generated from the zod schemas so that types, validation and
 * the published schemas cannot drift (a test fails when the files are stale).
 */
export function jsonSchemas(): Record<string, unknown> {
  return {
    'eval-file.schema.json': { $id: 'https://agent-evals.dev/schemas/eval-file.schema.json', title: 'agent-evals eval file (*.eval.yaml)', ...z.toJSONSchema(EvalFileSchema, { io: 'input' }) },
    'calibration.schema.json': { $id: 'https://agent-evals.dev/schemas/calibration.schema.json', title: 'agent-evals calibrate report', ...z.toJSONSchema(CalibrationSchema) },
    'results.schema.json': { $id: 'https://agent-evals.dev/schemas/results.schema.json', title: 'agent-evals results', ...z.toJSONSchema(ResultsSchema) },
  };
}

export function renderSchema(schema: unknown): string {
  return JSON.stringify(schema, null, 2) + '\n';
}
