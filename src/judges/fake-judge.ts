import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import picomatch from 'picomatch';
import type * as JsYaml from 'js-yaml';
import { z } from 'zod';
import { UserError } from '../core/errors.js';
import { emptyUsage } from '../core/usage.js';
import type { Judge, JudgeRequest, JudgeScore } from '../core/judge-port.js';

/**
 * Fixture answers for the `fake` judge: the first entry whose `case` glob and `type` match wins.
 * `score` is on 0..1 (for pairwise, 1 means the graded output wins).
 */
export const FakeFixturesSchema = z.array(
  z
    .object({
      case: z.string().optional(),
      type: z.string().optional(),
      score: z.number().min(0).max(1),
      reason: z.string().min(1).optional(),
      evidence: z.array(z.string()).optional(),
      dimensions: z.record(z.string(), z.number().min(0).max(1)).optional(),
    })
    .strict(),
);
type Fixtures = z.infer<typeof FakeFixturesSchema>;

/** js-yaml, required when a fixtures file is read: a run with warm eval files loads no YAML parser otherwise. */
const yaml = (): typeof JsYaml => createRequire(import.meta.url)('js-yaml') as typeof JsYaml;

export function loadFakeFixtures(file: string): Fixtures {
  const { CORE_SCHEMA, load: parseYaml } = yaml();
  let raw: unknown;
  try {
    raw = parseYaml(readFileSync(file, 'utf8'), { schema: CORE_SCHEMA });
  } catch (err) {
    throw new UserError(`cannot read fake judge fixtures: ${(err as Error).message}`, { file });
  }
  const parsed = FakeFixturesSchema.safeParse(raw);
  if (!parsed.success) {
    const i = parsed.error.issues[0]!;
    throw new UserError(i.message, { file, field: i.path.join('.') });
  }
  return parsed.data;
}

/**
 * A judge that calls no model: zero tokens, answers from fixtures, or a fixed passing score.
 * Used by `--dry-run` and by `judge: 'fake'` in a config, so example suites run offline.
 */
export function fakeJudge(fixtures: Fixtures = []): Judge {
  return {
    provider: 'fake',
    model: 'fixtures',
    async judge(req: JudgeRequest): Promise<JudgeScore> {
      const hit = fixtures.find((f) => (!f.type || f.type === req.subject?.type) && (!f.case || (req.subject !== undefined && picomatch(f.case)(req.subject.case))));
      const score = hit?.score ?? 1;
      const dimsWanted = 'dimensions' in req.criterion ? req.criterion.dimensions : [];
      const dimensions = dimsWanted.length ? Object.fromEntries(dimsWanted.map((d) => [d, hit?.dimensions?.[d] ?? score])) : undefined;
      const c = req.criterion;
      // Pairwise answers are positional: say the graded output's position wins when the score is 1.
      const choice = c.kind === 'pairwise' ? (score === 0.5 ? 'tie' : score > 0.5 === (c.actualPosition !== 'B') ? 'A' : 'B') : undefined;
      const positional = choice === undefined ? score : choice === 'A' ? 1 : choice === 'B' ? 0 : 0.5;
      return {
        score: positional,
        reason: hit?.reason ?? (hit ? 'fake judge: fixture answer' : 'fake judge: fixed passing score (no fixture matched)'),
        evidence: hit?.evidence ?? [],
        ...(dimensions ? { dimensions } : {}),
        ...(choice ? { choice } : {}),
        usage: emptyUsage(),
      };
    },
  };
}
