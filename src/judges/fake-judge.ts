import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import picomatch from 'picomatch';
import type * as JsYaml from 'js-yaml';
import { z } from 'zod';
import { UserError } from '../core/errors.js';
import { emptyUsage } from '../core/usage.js';
import type { Judge, JudgeRequest, JudgeScore } from '../core/judge-port.js';
import { lazySchema } from '../core/lazy-schema.js';

const JUDGE_ONLY = ['type', 'reason', 'evidence', 'dimensions'] as const;
const USER_ONLY = ['goalMetWhen', 'then'] as const;

/**
 * Fixtures of the `fake` judge and the `fake` user model, one list. A judge entry gives `score`: the
 * first whose `case` glob and `type` match answers (on 0..1; for pairwise, 1 means the graded output
 * wins). A user entry gives `user`: the scripted messages of the simulated user of the first case its
 * `case` glob matches (runner/users/scripted-user.ts). Built on first use (a run without fixtures never builds it).
 */
export const FakeFixturesSchema = lazySchema(() =>
  z.array(
    z
      .object({
        case: z.string().optional(),
        type: z.string().optional(),
        score: z.number().min(0).max(1).optional(),
        reason: z.string().min(1).optional(),
        evidence: z.array(z.string()).optional(),
        dimensions: z.record(z.string(), z.number().min(0).max(1)).optional(),
        /** The user's messages, in order, one a turn. */
        user: z.array(z.string().min(1)).min(1).optional(),
        /** Ends the conversation, goal met, as soon as the agent's latest reply contains this text (case-insensitive). */
        goalMetWhen: z.string().min(1).optional(),
        /** How the conversation ends once the messages are all sent: `goal-met` (default) or `gave-up`. */
        then: z.enum(['goal-met', 'gave-up']).optional(),
      })
      .strict()
      .superRefine((f, ctx) => {
        if ((f.score === undefined) === (f.user === undefined))
          ctx.addIssue({ code: 'custom', path: ['score'], message: 'an entry gives either "score" (a judge answer) or "user" (a scripted simulated user)' });
        const wrong = f.user ? JUDGE_ONLY.filter((k) => f[k] !== undefined) : USER_ONLY.filter((k) => f[k] !== undefined);
        for (const k of wrong) ctx.addIssue({ code: 'custom', path: [k], message: `"${k}" belongs to a ${f.user ? 'judge entry ("score")' : 'user entry ("user")'}` });
      }),
  ),
);
export type FakeFixtures = z.infer<typeof FakeFixturesSchema>;
type Fixtures = FakeFixtures;
/** A user entry of the fixtures: a scripted simulated user. */
export type FakeUserScript = FakeFixtures[number] & { user: string[] };

/** js-yaml, required when a fixtures file is read: a run with warm eval files loads no YAML parser otherwise. */
const yaml = (): typeof JsYaml => createRequire(import.meta.url)('js-yaml') as typeof JsYaml;

export function loadFakeFixtures(file: string): Fixtures {
  const { CORE_SCHEMA, load: parseYaml } = yaml();
  let raw: unknown;
  try {
    raw = parseYaml(readFileSync(file, 'utf8'), { schema: CORE_SCHEMA });
  } catch (err) {
    throw new UserError(`cannot read fake fixtures: ${(err as Error).message}`, { file });
  }
  const parsed = FakeFixturesSchema.safeParse(raw);
  if (!parsed.success) {
    const i = parsed.error.issues[0]!;
    // A misspelt key is named in the field, as in eval files (zod's own path stops at the entry).
    if (i.code === 'unrecognized_keys') {
      throw new UserError(`unknown field${i.keys.length > 1 ? 's' : ''} ${i.keys.map((k) => JSON.stringify(k)).join(', ')}`, { file, field: [...i.path, i.keys[0]].join('.') });
    }
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
      const hit = fixtures.find((f) => f.score !== undefined && (!f.type || f.type === req.subject?.type) && (!f.case || (req.subject !== undefined && picomatch(f.case)(req.subject.case))));
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
