import type { z } from 'zod';
import { UserError, UserErrors } from '../core/errors.js';
import { PARSE_ONCE } from '../core/parse-once.js';
import type { ReducerSetting } from '../core/reducer-setting.js';
import type { InputPartSpec } from '../core/content-parts.js';
import type { CaseMessage } from '../suite/message-schema.js';
import type { Judge } from '../core/judge-port.js';
import type { UserConfig } from '../config/define-config.js';
import type { Reporter } from '../report/reporter.js';
import { AssertionSpecSchema, TsAssertionSpecSchema, TurnSchema } from '../suite/schema.js';
import { allAssertionTypes } from '../suite/assertion-types.js';
import { describeIssue, formatPath } from '../suite/zod-issues.js';
import { isJudgeInstance } from '../judges/resolve.js';
import type { TargetConfig } from '../targets/config-schema.js';
import type { TargetFunction } from '../targets/function-target.js';
import { EVALUATE } from './evaluate-name.js';
import { similarToShorthand, type SimilarToOptions } from '../assertions/similar-to-shorthand.js';
import type { EvalResult } from './eval-result.js';

/** Any assertion a `*.eval.ts` file's `assert` takes (YAML's, plus `custom` predicates). */
export type AssertionInput = z.input<typeof TsAssertionSpecSchema>;
type JudgeSpecInput = Extract<AssertionInput, { type: 'judge' }>;
type JudgeAgainstInput = Extract<AssertionInput, { type: 'judgeAgainst' }>;
/** What `expectJudge` takes besides the criteria: threshold, severity, weight, its own judge, scale, … */
export type JudgeOptions = Omit<JudgeSpecInput, 'type' | 'criteria'>;
export type JudgeAgainstOptions = Omit<JudgeAgainstInput, 'type' | 'reference'> & { reference: string };
type CalledToolOptions = Omit<Extract<AssertionInput, { type: 'calledTool' }>, 'type' | 'tool' | 'args'>;

/** The agent under test: whatever `targets:` in evals.config.ts takes (a function, a model agent, a command, an HTTP service). */
export type EvalAgent = TargetFunction | Exclude<TargetConfig, (...args: never[]) => unknown>;
/** A judge: `provider:model`, a model spec object, `fake`, or a judge object (`agentJudge(...)`, anything implementing Judge). */
export type EvalJudge = NonNullable<UserConfig['judge']> | Judge;
/** Keys of evals.config.ts an eval in a test file may set (its target is the agent; it has no eval files or reporters). */
export type EvalConfig = Omit<UserConfig, 'targets' | 'evals' | 'reporters' | 'results'>;
/** One user turn of a multi-turn eval: its text, or its text and assertions on its reply (as in eval files, no `custom` there). */
export type TurnInput = string | z.input<typeof TurnSchema>;

export interface EvaluateOptions {
  /** The case id in results and messages (default `case`). */
  name?: string;
  /** The target's name in results (default the function's name, else `agent`). */
  target?: string;
}

interface State {
  agent: EvalAgent;
  options: EvaluateOptions;
  prompt?: { input: string | InputPartSpec[] } | { messages: CaseMessage[] } | { turns: TurnInput[] };
  reference?: string;
  assertions: AssertionInput[];
  repeat?: number;
  passRate?: number;
  /** At most one of the two: each decides the verdict on its own. */
  reducer?: { passAt: ReducerSetting } | { passHat: ReducerSetting };
  timeoutMs?: number;
  onlyTools?: string[];
  judge?: EvalJudge;
  config: EvalConfig;
  reporters: Reporter[];
  signal?: AbortSignal;
}

/**
 * An eval from inside a test file. Each call returns a new builder (a base eval can be extended
 * without changing it); `run()` plans one case and runs it through the same runner, assertions,
 * judges, verdict rules and pricing as `agent-evals run`.
 */
export class EvalBuilder {
  readonly #state: State;

  constructor(state: State) {
    this.#state = state;
  }

  #with(patch: Partial<State>): EvalBuilder {
    return new EvalBuilder({ ...this.#state, ...patch });
  }

  /**
   * The user message (replaces `messages` / `turns`): its text, or content parts (text, images and
   * PDF files by path relative to the working directory, or a data URL), as an eval file's `input`.
   */
  input(input: string | InputPartSpec[]): EvalBuilder {
    return this.#with({ prompt: { input } });
  }

  /** A conversation history ending with the user message to answer (replaces `input` / `turns`); a user message's content may be parts. */
  messages(messages: CaseMessage[]): EvalBuilder {
    return this.#with({ prompt: { messages } });
  }

  /** User turns of one conversation, each optionally with assertions on its own reply (replaces `input` / `messages`). */
  turns(turns: TurnInput[]): EvalBuilder {
    for (const t of turns) if (typeof t === 'object') for (const a of t.assert ?? []) checkSpec(a, AssertionSpecSchema, allAssertionTypes);
    return this.#with({ prompt: { turns } });
  }

  /** The case's reference answer (what `judgeAgainst`, `factuality` and `pairwise` compare with when they name none). */
  reference(text: string): EvalBuilder {
    return this.#with({ reference: text });
  }

  /** The judge of every judged assertion that names none (like the config's `judge`; default EVALS_JUDGE_PROVIDER / EVALS_JUDGE_MODEL). */
  useJudge(judge: EvalJudge): EvalBuilder {
    return this.#with({ judge });
  }

  /** Any assertion an eval file takes, checked now against the same schema: a bad one throws a UserError naming its field. */
  expect(spec: AssertionInput): EvalBuilder {
    checkSpec(spec, TsAssertionSpecSchema, [...allAssertionTypes, 'custom']);
    return this.#with({ assertions: [...this.#state.assertions, spec] });
  }

  /** An LLM judge grades the reply on `criteria` (`threshold`, `severity`, `judge`, … as in eval files). */
  expectJudge(criteria: string, options: JudgeOptions = {}): EvalBuilder {
    return this.expect({ ...options, type: 'judge', criteria });
  }

  /** An LLM judge grades the reply against a reference answer on `criteria`. */
  expectJudgeAgainst({ reference, criteria, ...options }: JudgeAgainstOptions): EvalBuilder {
    return this.expect({ ...options, type: 'judgeAgainst', criteria, reference });
  }

  /**
   * The reply's embedding is at least `threshold` cosine-similar to `value`'s (`model`, else the
   * config's `embeddingModel`): `similarTo(value, 0.8, model?)` or `similarTo(value, 0.8, { model, dimensions })`.
   */
  similarTo(value: string, threshold: number, modelOrOptions?: string | SimilarToOptions): EvalBuilder {
    return this.expect(similarToShorthand(value, threshold, modelOrOptions));
  }

  /** The agent called `tool` (with arguments containing `args`, when given). */
  calledTool(tool: string, args?: Record<string, unknown>, options: CalledToolOptions = {}): EvalBuilder {
    return this.expect({ ...options, type: 'calledTool', tool, ...(args !== undefined ? { args } : {}) });
  }

  /** The agent never called `tool` (with arguments containing `args`, when given). */
  notCalledTool(tool: string, args?: Record<string, unknown>): EvalBuilder {
    return this.expect({ type: 'notCalledTool', tool, ...(args !== undefined ? { args } : {}) });
  }

  /** No tool call of the agent ended in an error. */
  noToolErrors(): EvalBuilder {
    return this.expect({ type: 'noToolErrors' });
  }

  /** The only tools the agent may call: a call to any other fails the trial (and is listed in the summary). */
  onlyTools(tools: string[]): EvalBuilder {
    return this.#with({ onlyTools: [...tools] });
  }

  /** Trials of the case; it passes when the share of passing trials reaches `passRate` (default every trial). */
  repeat(trials: number): EvalBuilder {
    return this.#with({ repeat: trials });
  }

  /** The share of trials that must pass, 0..1. */
  passRate(rate: number): EvalBuilder {
    return this.#with({ passRate: rate });
  }

  /**
   * pass@k: the case passes when the unbiased estimate of "at least one of k trials passes", over its
   * N ≥ k trials (`.repeat(n)`), is at least `min` (default 0.5). Replaces `passRate` and `passHat`.
   */
  passAt(setting: ReducerSetting): EvalBuilder {
    return this.#with({ reducer: { passAt: setting } });
  }

  /** pass^k: as `passAt`, on the estimate that all k trials pass. Replaces `passRate` and `passAt`. */
  passHat(setting: ReducerSetting): EvalBuilder {
    return this.#with({ reducer: { passHat: setting } });
  }

  /** Per-trial timeout of the agent, in ms. */
  timeout(ms: number): EvalBuilder {
    return this.#with({ timeoutMs: ms });
  }

  /** Keys of evals.config.ts: `pricing`, `judges`, `concurrency`, `earlyStop`, `strict`, `cache`, `maxCostUsd`, … (merged over earlier calls). */
  config(config: EvalConfig): EvalBuilder {
    refuseProjectKeys(config);
    return this.#with({ config: { ...this.#state.config, ...config } });
  }

  /** A reporter told of the run's events (none by default: the run prints and writes nothing). */
  reporter(reporter: Reporter): EvalBuilder {
    return this.#with({ reporters: [...this.#state.reporters, reporter] });
  }

  /** Aborting it stops the run as Ctrl-C stops the CLI: in-flight trials finish briefly, then the result. */
  signal(signal: AbortSignal): EvalBuilder {
    return this.#with({ signal });
  }

  /** Runs the eval; resolves with the result whether it passed or not (`assertPasses()` throws when not). */
  async run(): Promise<EvalResult> {
    const s = this.#state;
    const errors: UserError[] = [];
    if (!s.prompt) errors.push(new UserError('give the agent something to answer: .input(text), .messages([...]) or .turns([...])', { file: EVALUATE }));
    const turnAsserts = s.prompt && 'turns' in s.prompt ? s.prompt.turns.some((t) => typeof t === 'object' && (t.assert?.length ?? 0) > 0) : false;
    if (s.assertions.length === 0 && !turnAsserts) {
      errors.push(new UserError('nothing is checked: add .expectJudge(...), .calledTool(...), .expect(...) or another expectation; without one it can only pass', { file: EVALUATE }));
    }
    if (errors.length > 0) throw errors.length === 1 ? errors[0]! : new UserErrors(errors);
    const target = s.options.target ?? ((typeof s.agent === 'function' && s.agent.name) || 'agent');
    const prompt = s.prompt && 'turns' in s.prompt ? { turns: s.prompt.turns.map((t) => (typeof t === 'string' ? { input: t } : t)) } : s.prompt;
    // The runner loads on the first run, not with the public entry a config imports (`agent-evals list` stays light).
    const { runEval } = await import('./run-eval.js');
    return runEval({
      target: { name: target, spec: s.agent },
      definition: {
        suite: 'evaluate',
        target,
        cases: [
          {
            id: s.options.name ?? 'case',
            ...prompt,
            ...(s.reference !== undefined ? { reference: s.reference } : {}),
            ...(s.assertions.length > 0 ? { assert: s.assertions } : {}),
            ...(s.repeat !== undefined ? { repeat: s.repeat } : {}),
            ...(s.passRate !== undefined ? { passRate: s.passRate } : {}),
            ...s.reducer,
            ...(s.timeoutMs !== undefined ? { timeoutMs: s.timeoutMs } : {}),
            ...(s.onlyTools !== undefined ? { onlyTools: s.onlyTools } : {}),
          },
        ],
      },
      ...(s.judge !== undefined && isJudgeInstance(s.judge) ? { judge: s.judge } : {}),
      config: { ...s.config, ...(s.judge !== undefined && !isJudgeInstance(s.judge) ? { judge: s.judge } : {}) },
      reporters: s.reporters,
      ...(s.signal ? { signal: s.signal } : {}),
    });
  }
}

/**
 * Starts an eval of `agent` from a test file:
 * `await evaluate(agent).input('…').expectJudge('…').run()`.
 */
export function evaluate(agent: EvalAgent, options: EvaluateOptions = {}): EvalBuilder {
  return new EvalBuilder({ agent, options, assertions: [], config: {}, reporters: [] });
}

/** One assertion checked against the eval-file schema when it is added, so the error points at the call that added it. */
/**
 * Keys of evals.config.ts that an eval in a test file has no use for, and what to do instead. The run
 * would drop them unsaid (a `reporters: ['junit']` writing no file), so a plain JS caller, whom the
 * `EvalConfig` type does not stop, is told when the key is given.
 */
const PROJECT_KEYS: Record<string, string> = {
  targets: 'the agent is the argument of evaluate(agent)',
  evals: 'the case is this builder: .input(...), .expect(...)',
  reporters: 'give a reporter object to .reporter(r); evaluate() writes no file of its own',
  results: 'evaluate() writes no results file',
};

function refuseProjectKeys(config: unknown): void {
  if (typeof config !== 'object' || config === null) return;
  const errors = Object.keys(config)
    .filter((key) => Object.hasOwn(PROJECT_KEYS, key))
    .map((key) => new UserError(`not taken by evaluate(): ${PROJECT_KEYS[key]}`, { file: `${EVALUATE}.config()`, field: key }));
  if (errors.length > 0) throw errors.length === 1 ? errors[0]! : new UserErrors(errors);
}

function checkSpec(spec: unknown, schema: z.ZodType, known: readonly string[]): void {
  const parsed = schema.safeParse(spec, PARSE_ONCE);
  if (parsed.success) return;
  const type = typeof spec === 'object' && spec !== null ? (spec as { type?: unknown }).type : undefined;
  const errors = parsed.error.issues.slice(0, 10).map((issue) => {
    const { path, message } = describeIssue(issue, spec, known, schema);
    const field = formatPath(path);
    return new UserError(message, { file: `${EVALUATE}.expect(${typeof type === 'string' ? type : '…'})`, ...(field && field !== 'type' ? { field } : {}) });
  });
  throw errors.length === 1 ? errors[0]! : new UserErrors(errors);
}
