import { configuredTargets } from './configured-targets.js';
import { dirname, join, relative, resolve } from 'node:path';
import { textOfParts, type InputPart, type InputPartSpec } from '../core/content-parts.js';
import { resolveInputParts, type PartsWhere } from './input-parts.js';
import { UserError, UserErrors } from '../core/errors.js';
import type { ModelRef } from '../judges/spec.js';
import type { JudgedDefaults } from '../core/judge-subject.js';
import type { MessageTurn } from '../core/chat-turn.js';
import type { TargetFunction } from '../targets/function-target.js';
import type { CheckApi } from './check-api.js';
import type { EvalDefinition } from './define-eval.js';
import type { TsAssertionSpec } from './schema.js';
import { loadYamlEvalFile } from './load-yaml.js';
import { loadTsEvalFile, validateTsDefinitions, type LoadedTs } from './load-ts.js';
import type { z } from 'zod';
import type { TurnSchema } from './schema.js';
import type { SimulatedUser } from './simulated-user-schema.js';
import type { ToolResultInjection } from '../targets/tool-results-schema.js';
import { caseKey, type MatrixValues, type TargetVariant } from '../core/matrix.js';
import type { TargetConfig } from '../targets/config-schema.js';
import type { TargetVariants } from './target-variants.js';
import { targetChoices, type MatrixAxes, type TargetChoice, type TargetOverride } from './matrix-expand.js';
import { datasetCases, type DatasetColumns } from './dataset-cases.js';
import { iterableRows, readDatasetFile } from './dataset-read.js';
import type { DatasetPick } from './dataset-pick.js';
import type { UserAssertions } from '../assertions/user-assertion.js';
import { adaptiveRange, maxTrials, type AdaptiveRange, type RepeatSetting } from '../core/repeat-setting.js';
import type { CaseIdentity } from '../core/case-identity.js';
import { withAllowlist } from './allowlist-plan.js';
import { finalAssertionTypes, isFinalAssertion } from '../assertions/registry.js';
import type { Reducer, ReducerDefaults, ReducerSetting } from '../core/reducer-setting.js';
import { caseReducer, reducerTrialError } from './case-reducer.js';
import { pushAll } from '../core/push-all.js';
import { readMcpCase } from '../targets/mcp-case.js';

/** A turn as written: its input a string or content parts. */
export type TurnSpec = z.infer<typeof TurnSchema>;
/** A turn as planned: its input's text, and its parts resolved when it gave parts. */
export type Turn = Omit<TurnSpec, 'input'> & { input: string; parts?: readonly InputPart[] };

/** One case, with its suite's settings folded in: what the runner schedules. */
export interface PlannedCase extends CaseIdentity {
  readonly tags: string[];
  /** A target named in config, or an inline function target of a TS file. */
  readonly target: string | TargetFunction;
  readonly matrix?: MatrixValues;
  /** A settings variant of a model-agent target (`model`, `effort`, `instructions` of a matrix): `target` is then its name, `spec` the config it builds. */
  readonly variant?: TargetVariant & { readonly spec: TargetConfig };
  readonly passRate: number;
  /** `passAt` / `passHat`: the verdict comes from that estimate instead of `passRate` (suite/case-reducer.ts). */
  readonly reducer?: Reducer;
  readonly timeoutMs: number;
  /** Case judge, else suite judge (config and env come later in the resolution). */
  readonly judge: ModelRef | undefined;
  /** Severity and threshold of its judged assertions that set none (config `judgeSeverity`, `judgeThreshold`). */
  readonly judgeDefaults: JudgedDefaults;
  readonly input: string;
  /** `input` given as content parts (images, files), resolved; `input` is then their text. */
  readonly parts?: readonly InputPart[];
  /** The folder its content parts' paths are relative to (the eval or dataset file's): a `t.send()`'s parts too. */
  readonly partsDir?: string;
  /** The history ending with the user message to answer; a user message given as parts keeps them. */
  readonly messages: MessageTurn[];
  readonly turns: Turn[] | undefined;
  /** A user model holds the conversation instead of scripted turns (its goal is then `input`). */
  readonly simulatedUser?: SimulatedUser;
  /** Results served in place of tools (targets/tool-results-schema.ts). */
  readonly toolResults?: readonly ToolResultInjection[];
  readonly reference: string | undefined;
  readonly assertions: TsAssertionSpec[];
  readonly check: ((t: CheckApi) => void | Promise<void>) | undefined;
  /** Where the suite names its target (YAML), for errors about it. */
  readonly targetLine?: number;
  /** The eval file naming the target when the case comes from a dataset (its `file` is the dataset's). */
  readonly targetFile?: string;
  /** `repeat: { min, max }`: adaptive trials (`repeat` is then `max`). */
  readonly adaptive?: AdaptiveRange;
  /** `isolate: true` in a TS eval file: its inline target runs in a worker that imports `module` (the file's absolute path) again. */
  readonly isolate?: { module: string; display: string; maxHeapMb?: number };
  /** `draft: true`: a generated case no one has reviewed; a run skips it unless `--include-drafts` (never part of the fingerprint). */
  readonly draft?: true;
  /** `agent-evals score`: the recorded run (trace) this case grades; its results case says which (suite/score-plan.ts). */
  readonly scoredTrace?: { readonly id: string; readonly startedAt?: string; readonly source: string };
}

export interface Selection {
  filters: string[];
  tags: string[];
  excludeTags: string[];
  /** Only these case keys (`run --last-failed`), besides the filters and tags. */
  keys?: ReadonlySet<string>;
}

/**
 * What every planned case takes from the config (and the command line) when it and its file set
 * none: the one place a case's settings are merged is `planned()` below, which reads this.
 */
export interface PlanDefaults {
  repeat: RepeatSetting;
  passRate: number;
  /** The config's `passAt` / `passHat`, for cases whose suite and own settings give neither. */
  reducers?: ReducerDefaults;
  timeoutMs: number;
  targets: readonly string[];
  /** The config file the targets come from (null: none), named when a case's target is unknown. */
  configFile?: string | null;
  judgeDefaults: JudgedDefaults;
  /** Targets that run one process per trial and so cannot hold a multi-turn conversation. */
  commandTargets?: readonly string[];
  /** MCP server targets: their cases' input must name tool calls (targets/mcp-case.ts). */
  mcpTargets?: readonly string[];
  /** How long importing one `*.eval.ts` may take. */
  loadTimeoutMs?: number;
  /** `--target` / `--matrix` from the command line. */
  targetOverride?: TargetOverride;
  /** The settings variants of the config's model-agent targets, made once per run (config/plan-defaults.ts). */
  variants?: TargetVariants;
  /** --limit / --sample / --seed: the rows kept of each dataset. */
  pick?: DatasetPick;
  /** The config's user assertions: a YAML `- type: <name>` entry naming one becomes it (none: no entry does). */
  userAssertions?: UserAssertions;
  /** `--repeat` / `--timeout`: over what every case, its file and the config say. */
  override?: { readonly repeat?: RepeatSetting | undefined; readonly timeoutMs?: number | undefined };
}

/** Loads every file, reporting all bad files together; then checks cross-file rules. */
export async function loadCases(files: string[], cwd: string, defaults: PlanDefaults): Promise<PlannedCase[]> {
  const cases: PlannedCase[] = [];
  const errors: UserError[] = [];
  for (const file of files) {
    const display = relative(cwd, file) || file;
    try {
      pushAll(cases, await loadFile(file, display, defaults));
    } catch (err) {
      if (err instanceof UserErrors) pushAll(errors, err.errors);
      else if (err instanceof UserError) errors.push(err);
      else throw err;
    }
  }
  return checked(cases, [...errors, ...caseErrors(cases, defaults)]);
}

/**
 * The cases of eval definitions given in memory (`evaluate()` in a test file): validated, planned
 * and checked as a `*.eval.ts` file's would be; `display` stands for the file in errors.
 */
export async function planDefinitions(defs: unknown[], display: string, defaults: PlanDefaults): Promise<PlannedCase[]> {
  const cases = await planTsDefinitions(
    validateTsDefinitions(defs, { display, text: '', many: defs.length > 1, ...(defaults.userAssertions ? { userAssertions: defaults.userAssertions } : {}) }),
    display,
    display,
    defaults,
    { inMemory: true },
  );
  return checked(cases, [...caseErrors(cases, defaults), ...selectedErrors(cases)]);
}

/**
 * What is wrong with the cases a run selects, beyond what `loadCases` checks of every case: a
 * `passAt` case's trial count (a case the selection leaves out runs nothing, so its count is no error).
 */
export function checkSelected(cases: readonly PlannedCase[]): void {
  throwAll(selectedErrors(cases));
}

const selectedErrors = (cases: readonly PlannedCase[]): UserError[] => cases.flatMap((c) => reducerTrialError(c) ?? []);

/** The cases indexed in plan order, or every error at once. */
function checked(cases: PlannedCase[], errors: UserError[]): PlannedCase[] {
  throwAll(errors);
  // Each planned case is a fresh object of its own: indexed in place, not copied (a dataset may plan 300,000).
  cases.forEach((c, index) => ((c as { index: number }).index = index));
  return cases;
}

function throwAll(errors: UserError[]): void {
  if (errors.length > 0) throw errors.length === 1 ? errors[0]! : new UserErrors(dedupe(errors));
}

/** What is wrong across the planned cases: duplicate ids, unknown targets, turns a command target cannot hold. */
function caseErrors(cases: PlannedCase[], defaults: PlanDefaults): UserError[] {
  const errors: UserError[] = [];
  const seen = new Map<string, PlannedCase>();
  for (const c of cases) {
    const first = seen.get(c.key);
    if (first) {
      errors.push(
        new UserError(`duplicate case id "${c.key}" (first defined at ${first.file}${first.line ? `:${first.line}` : ''})`, {
          file: c.file,
          line: c.line ?? undefined,
          field: 'id',
        }),
      );
    } else seen.set(c.key, c);
    if (typeof c.target === 'string' && !c.variant && !defaults.targets.includes(c.target)) {
      const known = configuredTargets(defaults.targets, defaults.configFile);
      // A dataset row names no target: its eval file does, at the suite's `target:` when known.
      const where = c.targetFile !== undefined ? { file: c.targetFile, line: c.targetLine } : { file: c.file, line: c.targetLine ?? c.line ?? undefined };
      errors.push(new UserError(`unknown target "${c.target}" (configured: ${known})`, { ...where, field: 'target' }));
    }
    if (typeof c.target === 'string' && ((c.turns?.length ?? 0) > 1 || c.simulatedUser) && defaults.commandTargets?.includes(c.target)) {
      errors.push(
        new UserError(
          `this case has ${c.simulatedUser ? 'a simulated user' : `${c.turns!.length} turns`}, but target "${c.target}" is a command target (one process per trial), which cannot hold a conversation; multi-turn needs a function, model or HTTP target`,
          { file: c.file, line: c.line ?? undefined, field: c.simulatedUser ? 'simulatedUser' : 'turns' },
        ),
      );
    }
    if (c.simulatedUser?.endOnFail && !c.assertions.some(isFinalAssertion)) {
      errors.push(
        new UserError(`endOnFail: none of this case's assertions can end a conversation; give one of ${finalAssertionTypes.join(', ')} (a judge never runs per turn)`, {
          file: c.file,
          line: c.line ?? undefined,
          field: 'simulatedUser.endOnFail',
        }),
      );
    }
    if (typeof c.target === 'string' && defaults.mcpTargets?.includes(c.target)) {
      const problem = mcpCaseProblem(c, c.target);
      if (problem) errors.push(new UserError(problem, { file: c.file, line: c.line ?? undefined, field: 'input' }));
    }
  }
  return errors;
}

/** What an `mcp` target cannot run in a case: anything but one `input` naming its tool calls. */
function mcpCaseProblem(c: PlannedCase, target: string): string | undefined {
  if ((c.turns?.length ?? 0) > 1 || c.simulatedUser || c.messages.length > 1) return `target "${target}" is an MCP server target: a case gives its tool calls as its input, not a conversation`;
  const read = readMcpCase(c.input);
  return read.ok ? undefined : read.error;
}

function dedupe(errors: UserError[]): UserError[] {
  const seen = new Set<string>();
  return errors.filter((e) => !seen.has(e.message) && seen.add(e.message));
}

async function loadFile(file: string, display: string, d: PlanDefaults): Promise<PlannedCase[]> {
  if (/\.ya?ml$/.test(file)) {
    const { data, caseLines, targetLine, matrixLine } = await loadYamlEvalFile(file, display, d.userAssertions);
    const suiteWhere = { suiteTarget: targetLine, matrix: matrixLine, file: display };
    const cases = (data.cases ?? []).flatMap((c, i) =>
      targetChoices(data, c, { ...suiteWhere, case: caseLines[i] ?? null }, d.targetOverride, d.variants).map((choice) =>
        planned({ suite: data, c, file: display, dir: dirname(file), line: caseLines[i] ?? null, choice, assertions: c.assert ?? [], check: undefined }, d),
      ),
    );
    if (data.dataset !== undefined) pushAll(cases, await rowsPlanned({ file, display, dataset: data.dataset, assertions: data.assert ?? [], check: undefined, suite: data, where: suiteWhere }, d));
    return cases;
  }
  return planTsDefinitions(await loadTsEvalFile(file, display, d.loadTimeoutMs, d.userAssertions), file, display, d);
}

/** The cases of validated TS definitions; `file` is where a dataset path is relative to. */
async function planTsDefinitions(loaded: LoadedTs[], file: string, display: string, d: PlanDefaults, { inMemory = false } = {}): Promise<PlannedCase[]> {
  const out: PlannedCase[] = [];
  for (const { data, caseLines, targetLine } of loaded) {
    const cases = (data.cases ?? []).flatMap((c, i) =>
      targetChoices(data, c, { case: caseLines[i] ?? null, suiteTarget: targetLine, file: display }, d.targetOverride, d.variants).map((choice) =>
        planned({ suite: data, c, file: display, dir: dirname(file), line: caseLines[i] ?? null, choice, assertions: c.assert ?? [], check: c.check }, d),
      ),
    );
    if (data.dataset !== undefined)
      pushAll(cases, await rowsPlanned({ file, display, dataset: data.dataset, assertions: data.assert ?? [], check: data.check, suite: data, where: { suiteTarget: targetLine, file: display } }, d));
    pushAll(out, isolatedInline(cases, data, inMemory ? null : file, display));
  }
  return out;
}

/**
 * `isolate: true` in a TS eval file marks the cases of its inline target: the runner runs that
 * function in a worker that imports `module` again and finds it there. A named target is isolated
 * in the config; definitions given in code (`evaluate()`) have no file a worker could import.
 */
function isolatedInline(cases: PlannedCase[], data: EvalDefinition, module: string | null, display: string): PlannedCase[] {
  if (!data.isolate) {
    if (data.maxHeapMb !== undefined) throw new UserError('maxHeapMb caps the heap of an isolated target: it needs isolate: true', { file: display, field: 'maxHeapMb' });
    return cases;
  }
  if (typeof data.target !== 'function') {
    throw new UserError('isolate: true isolates the inline target (a function given as `target`); a target named in the config is isolated there', { file: display, field: 'isolate' });
  }
  if (module === null) throw new UserError('isolate: true needs the target in an eval file the worker can import (definitions given in code have none)', { file: display, field: 'isolate' });
  const isolate = { module, display, ...(data.maxHeapMb !== undefined ? { maxHeapMb: data.maxHeapMb } : {}) };
  return cases.map((c) => (c.target === data.target ? { ...c, isolate } : c));
}

type DatasetSource = string | ({ path: string } & DatasetColumns) | unknown[] | AsyncIterable<unknown>;
type TargetSuite = Settings & { suite: string; target?: string | TargetFunction | undefined; matrix?: MatrixAxes | undefined };

/** A suite's dataset rows as cases (each once per target it runs against): a file (relative to the eval file) or rows given in code. */
async function rowsPlanned(
  p: {
    file: string;
    display: string;
    dataset: DatasetSource;
    assertions: TsAssertionSpec[];
    check: PlannedCase['check'];
    suite: TargetSuite;
    where: { suiteTarget?: number | undefined; matrix?: number | undefined; file?: string | undefined };
  },
  d: PlanDefaults,
): Promise<PlannedCase[]> {
  const ds = p.dataset;
  const fromFile = typeof ds === 'string' ? { path: ds } : !Array.isArray(ds) && 'path' in ds && typeof ds.path === 'string' ? ds : undefined;
  const shown = fromFile ? join(dirname(p.display), fromFile.path) : p.display;
  const rows = fromFile ? readDatasetFile(resolve(dirname(p.file), fromFile.path), shown, fromFile.path) : iterableRows(ds as unknown[] | AsyncIterable<unknown>, p.display);
  const columns: DatasetColumns = fromFile ? { ...(fromFile.inputColumn ? { inputColumn: fromFile.inputColumn } : {}), ...(fromFile.idColumn ? { idColumn: fromFile.idColumn } : {}) } : {};
  const cases = await datasetCases(rows, { file: shown, columns, assertions: p.assertions, pick: d.pick ?? {} });
  // A row's image and file paths are relative to the dataset file (rows given in code: the eval file).
  const partsDir = dirname(fromFile ? resolve(dirname(p.file), fromFile.path) : p.file);
  // A row names no target of its own: every row runs against the same choices, worked out once.
  const choices = targetChoices(p.suite, {}, { ...p.where, case: null }, d.targetOverride, d.variants);
  const out: PlannedCase[] = [];
  for (const c of cases)
    for (const choice of choices) out.push(planned({ suite: p.suite, c, file: shown, dir: partsDir, line: c.line, choice, assertions: c.assertions, check: p.check, targetFile: p.display }, d));
  return out;
}

interface Settings {
  repeat?: RepeatSetting;
  passRate?: number;
  passAt?: ReducerSetting;
  passHat?: ReducerSetting;
  timeoutMs?: number;
  tags?: string[];
  judge?: ModelRef;
  onlyTools?: string[];
}
interface RawCase extends Settings {
  id: string;
  input?: string | InputPartSpec[];
  messages?: Array<{ role: MessageTurn['role']; content: string | InputPartSpec[] }>;
  turns?: TurnSpec[];
  simulatedUser?: SimulatedUser;
  toolResults?: ToolResultInjection[];
  reference?: string;
  draft?: boolean;
}

function planned(
  p: {
    suite: Settings & { suite: string };
    c: RawCase;
    file: string;
    dir?: string;
    line: number | null;
    choice: TargetChoice;
    assertions: TsAssertionSpec[];
    check: PlannedCase['check'];
    /** A dataset row's eval file, where its target is named. */
    targetFile?: string;
  },
  d: PlanDefaults,
): PlannedCase {
  const { suite, c, choice } = p;
  const target = choice.target;
  const dir = p.dir ?? '.';
  // A case of plain text (every row of a large dataset, most often) has no parts to read.
  const given = Array.isArray(c.input) || c.messages || c.turns ? resolvedParts(c, { dir, file: p.file, ...(p.line ? { line: p.line } : {}) }) : undefined;
  const input = given?.parts ? textOfParts(given.parts) : (c.input as string | undefined);
  const turns = given?.turns;
  const messages: MessageTurn[] = given?.messages ?? [{ role: 'user', content: input ?? turns?.[0]?.input ?? c.simulatedUser?.goal ?? '' }];
  const lastUser = messages.findLast((m) => m.role === 'user');
  // The message answered first is the input: a history's last user message lends it its parts.
  const parts = given?.parts ?? (input === undefined ? lastUser?.parts : undefined);
  const repeat = d.override?.repeat ?? c.repeat ?? suite.repeat ?? d.repeat;
  const adaptive = adaptiveRange(repeat);
  const reducer = caseReducer([c, suite, d.reducers ?? {}], p);
  return {
    index: 0,
    // A matrix case's key carries its value (`support/refunds/verify [target=claude-support]`).
    key: choice.matrix ? caseKey({ suite: suite.suite, id: c.id, matrix: choice.matrix }) : `${suite.suite}/${c.id}`,
    suite: suite.suite,
    id: c.id,
    file: p.file,
    line: p.line,
    tags: suite.tags?.length || c.tags?.length ? [...new Set([...(suite.tags ?? []), ...(c.tags ?? [])])] : [],
    target,
    targetName: typeof target === 'string' ? target : target.name || '(inline function)',
    // The one merge of a case's settings: the command line, the case, its file, the config.
    repeat: maxTrials(repeat),
    ...(adaptive ? { adaptive } : {}),
    passRate: c.passRate ?? suite.passRate ?? d.passRate,
    ...(reducer ? { reducer } : {}),
    timeoutMs: d.override?.timeoutMs ?? c.timeoutMs ?? suite.timeoutMs ?? d.timeoutMs,
    judge: c.judge ?? suite.judge,
    judgeDefaults: d.judgeDefaults,
    input: input ?? lastUser?.content ?? '',
    ...(parts ? { parts } : {}),
    partsDir: dir,
    messages,
    turns,
    ...(c.simulatedUser ? { simulatedUser: c.simulatedUser } : {}),
    ...(c.toolResults ? { toolResults: c.toolResults } : {}),
    reference: c.reference,
    assertions: withAllowlist(c.onlyTools ?? suite.onlyTools, p.assertions),
    check: p.check,
    ...(choice.matrix ? { matrix: choice.matrix } : {}),
    ...(choice.variant ? { variant: choice.variant } : {}),
    ...(choice.line ? { targetLine: choice.line } : {}),
    ...(p.targetFile !== undefined ? { targetFile: p.targetFile } : {}),
    ...(c.draft ? { draft: true as const } : {}),
  };
}

/**
 * A case's content parts read and checked where it gives them: its input, each user message of its
 * history, each turn (paths relative to the eval or dataset file; errors name the field).
 */
function resolvedParts(c: RawCase, where: PartsWhere): { parts?: InputPart[]; messages: MessageTurn[] | undefined; turns: Turn[] | undefined } {
  const at = (specs: InputPartSpec[], field: string) => resolveInputParts(specs, { ...where, field });
  return {
    ...(Array.isArray(c.input) ? { parts: at(c.input, 'input') } : {}),
    messages: c.messages?.map((m, k): MessageTurn => {
      if (typeof m.content === 'string') return { role: m.role, content: m.content };
      const parts = at(m.content, `messages.${k}.content`);
      return { role: m.role, content: textOfParts(parts), parts };
    }),
    turns: c.turns?.map((t, k): Turn => {
      if (typeof t.input === 'string') return { ...t, input: t.input };
      const parts = at(t.input, `turns.${k}.input`);
      return { ...t, input: textOfParts(parts), parts };
    }),
  };
}
