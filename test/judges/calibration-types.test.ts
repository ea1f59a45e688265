/**
 * `agent-evals calibrate --type` takes the judged types whose registry descriptor has `calibration`:
 * the list, the help, the errors and the assertion a row is judged with derive from it. Shown by a
 * registry holding one throwaway calibrating type more.
 */
import { describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { z } from 'zod';
import { buildProgram } from '../../src/cli/program.js';
import { CalibrationCriterionSchema } from '../../src/judges/calibration-schema.js';
import { CALIBRATION_TYPES, calibrationSpec, calibrationTypeHelp, calibrationTypesOf, isRubricType, missingCriteriaMessage } from '../../src/judges/calibration-types.js';
import { JUDGED_ASSERTIONS, type JudgedAssertionDescriptor } from '../../src/judges/spec.js';

const tone: JudgedAssertionDescriptor = { schema: z.object({ type: z.literal('tone') }).strict(), reference: 'none', summary: 'An LLM judge grades the tone of the reply.', calibration: {} };

describe('calibrate --type, from the judged assertion registry', () => {
  it('takes exactly the types whose descriptor has calibration, in registry order, the first as the default', () => {
    expect(CALIBRATION_TYPES).toEqual(JUDGED_ASSERTIONS.filter((d) => 'calibration' in d).map((d) => d.schema.shape.type.value));
    expect(CALIBRATION_TYPES).toEqual(['judge', 'judgeAgainst', 'factuality', 'closedQa', 'sql']);
    expect(CalibrationCriterionSchema.shape.type.options).toEqual(CALIBRATION_TYPES);
  });

  it('lists a type the registry gains with calibration, and only then', () => {
    expect(calibrationTypesOf([...JUDGED_ASSERTIONS, tone])).toEqual([...CALIBRATION_TYPES, 'tone']);
    expect(calibrationTypesOf([...JUDGED_ASSERTIONS, { ...tone, calibration: undefined }])).toEqual(CALIBRATION_TYPES);
    expect(calibrationTypeHelp(calibrationTypesOf([...JUDGED_ASSERTIONS, tone]))).toBe('judge (default) | judgeAgainst | factuality | closedQa | sql | tone');
  });

  it('the help and the errors say the derived list', async () => {
    const program = await buildProgram(['calibrate', '--help']);
    const calibrate = program.commands.find((c: Command) => c.name() === 'calibrate')!;
    expect(calibrate.options.find((o) => o.long === '--type')?.description).toBe(calibrationTypeHelp(CALIBRATION_TYPES));
    expect(calibrationTypeHelp(CALIBRATION_TYPES)).toBe('judge (default) | judgeAgainst | factuality | closedQa | sql');
    expect(missingCriteriaMessage('judgeAgainst')).toBe('give --criteria "<rubric>" (or --type factuality, closedQa, sql)');
    expect(missingCriteriaMessage('closedQa')).toBe('--type closedQa needs --criteria "<the question to ask of each output>"');
  });

  it("judges a row with the assertion an eval file would write: --criteria in the type's field, a rubric's scale", () => {
    expect(CALIBRATION_TYPES.filter(isRubricType)).toEqual(['judge', 'judgeAgainst']);
    expect(calibrationSpec({ type: 'judge', criteria: 'polite', scale: 10 })).toEqual({ type: 'judge', criteria: 'polite', scale: 10 });
    expect(calibrationSpec({ type: 'closedQa', criteria: 'Is it polite?', scale: 1 })).toEqual({ type: 'closedQa', question: 'Is it polite?' });
    expect(calibrationSpec({ type: 'sql', scale: 1 })).toEqual({ type: 'sql' });
  });
});
