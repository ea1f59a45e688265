import { z } from 'zod';
import { EvalFileSchema } from './schema.js';
import { ScoreFileSchema } from './score-file-schema.js';
import { ResultsSchema } from '../core/results-schema.js';
import { CalibrationSchema } from '../judges/calibration-schema.js';
import { ARGS_JSON_SCHEMA, isArgsSchema } from '../assertions/trajectory.js';

/**
 * The JSON Schemas in `schemas/`, generated from the zod schemas so that types, validation and
 * the published schemas cannot drift (a test fails when the files are stale).
 */
export function jsonSchemas(): Record<string, unknown> {
  return {
    'eval-file.schema.json': {
      $id: 'https://agent-evals.dev/schemas/eval-file.schema.json',
      title: 'agent-evals eval file (*.eval.yaml)',
      ...z.toJSONSchema(EvalFileSchema, { io: 'input', unrepresentable: 'any', override: customTypes }),
    },
    'score-file.schema.json': {
      $id: 'https://agent-evals.dev/schemas/score-file.schema.json',
      title: 'agent-evals scoring file (*.score.yaml)',
      ...z.toJSONSchema(ScoreFileSchema, { io: 'input', unrepresentable: 'any', override: customTypes }),
    },
    'calibration.schema.json': { $id: 'https://agent-evals.dev/schemas/calibration.schema.json', title: 'agent-evals calibrate report', ...z.toJSONSchema(CalibrationSchema) },
    'results.schema.json': { $id: 'https://agent-evals.dev/schemas/results.schema.json', title: 'agent-evals results', ...z.toJSONSchema(ResultsSchema) },
  };
}

/** The one custom type an eval file holds (the args filter, checked as written); any other is a mistake. */
function customTypes(ctx: { zodSchema: z.core.$ZodTypes; jsonSchema: z.core.JSONSchema.BaseSchema }): void {
  if (ctx.zodSchema._zod.def.type !== 'custom') return;
  if (!isArgsSchema(ctx.zodSchema)) throw new Error('a custom zod type in the eval-file or scoring-file schema has no JSON Schema');
  Object.assign(ctx.jsonSchema, ARGS_JSON_SCHEMA);
}

export function renderSchema(schema: unknown): string {
  return JSON.stringify(schema, null, 2) + '\n';
}
