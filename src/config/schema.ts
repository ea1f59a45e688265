import { z } from 'zod';
import { BOUNDS, boundedNumber } from '../core/bounds.js';
import { repeatSetting } from '../core/repeat-setting.js';
import { reducerSetting } from '../core/reducer-setting.js';
import { ModelRefSchema } from '../judges/spec.js';
import { EmbeddingModelRefSchema } from '../assertions/similar-to.js';
import { TracePolicySchema, type Judge } from '../core/judge-port.js';
import { isJudgeInstance } from '../judges/resolve.js';
import { panelSchema } from '../judges/panel-spec.js';
import { PriceOverridesSchema } from '../providers/pricing.js';
import { ProxySettingSchema } from '../providers/proxy.js';
import { SeveritySchema } from '../core/severity.js';
import { TargetConfigSchema, type TargetConfig } from '../targets/config-schema.js';
import { McpServerNameSchema, McpServerSchema } from '../targets/mcp-server-schema.js';
import { REPORTERS } from '../report/registry.js';
import { reporterSpecProblem } from '../report/reporter-spec.js';
import { RedteamConfigSchema } from './redteam-config.js';
import { GenerateConfigSchema } from './generate-config.js';

/** A `reporters` entry: a registered reporter (registry.ts) or a module path. */
const ReporterSpecSchema = z.string().superRefine((spec, ctx) => {
  const problem = reporterSpecProblem(spec, REPORTERS);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

/**
 * A judge in the config: a judge object (`agentJudge(...)`, `promptJudge(...)`: kept as it is, typed a
 * Judge), a model, or the fake judge.
 */
const JudgeConfigSchema = z.union([z.custom<Judge>(isJudgeInstance), ModelRefSchema, z.literal('fake'), z.looseObject({ provider: z.literal('fake'), fixtures: z.string().optional() })]);

/** evals.config.ts, as `defineConfig` accepts it; every key is optional (defaults in defaults.ts). */
export const ConfigSchema = z
  .object({
    evals: z.union([z.string(), z.array(z.string()).min(1)]).optional(),
    /** Targets by name: what a case runs against (a function, a module, an HTTP endpoint, a model or a command). */
    targets: z.record(z.string(), TargetConfigSchema).optional(),
    /** MCP servers by name (`{ command, args, env }` or `{ url, headers }`), for a model-agent target's `mcpServers: { memory: 'memory' }` (one server per run, however many targets use it) or an MCP server target's `mcp: 'memory'`. */
    mcpServers: z.record(McpServerNameSchema, McpServerSchema).optional(),
    /** The judge of judged assertions that name none: a `provider:model` spec, a judge object, `fake`, or a panel of them (`{ panel, aggregate }`). */
    judge: z.union([JudgeConfigSchema, panelSchema(JudgeConfigSchema)]).optional(),
    /** Judges by name, for `judge: <name>` in eval files (e.g. an agentJudge with evidence tools). */
    judges: z.record(z.string().regex(/^[A-Za-z][\w.-]*$/, 'a judge name is letters, digits, ".", "_" or "-", without ":"'), JudgeConfigSchema).optional(),
    concurrency: boundedNumber(BOUNDS.concurrency).optional(),
    repeat: repeatSetting().optional(),
    /** The most trials a run may plan (cases × repeat, each matrix value counted); above it the run is exit 2 before it starts (default 1,000,000). */
    maxTrials: boundedNumber(BOUNDS.maxTrials).optional(),
    passRate: boundedNumber(BOUNDS.fraction).optional(),
    /** Every case's `passAt` (pass@k verdict, docs/guide/assertions.md) unless its suite or it sets `passAt` or `passHat`. */
    passAt: reducerSetting('passAt').optional(),
    /** Every case's `passHat` (pass^k verdict) unless its suite or it sets `passAt` or `passHat`. */
    passHat: reducerSetting('passHat').optional(),
    timeoutMs: boundedNumber(BOUNDS.timeoutMs).optional(),
    /** How long importing a `*.eval.ts` file may take (the config file's own limit is --load-timeout). */
    loadTimeoutMs: boundedNumber(BOUNDS.timeoutMs).optional(),
    outputDir: z.string().optional(),
    /** `name`, `name=path`, or a reporter module `./my-reporter.mjs[=path]` (from the config's folder); names from the reporter registry. */
    reporters: z.array(ReporterSpecSchema).optional(),
    /** How long each hook of a reporter module (and its `create()`), or of a reporter given to `evaluate()`, may take before that reporter is dropped with a message (default 30,000). */
    reporterTimeoutMs: boundedNumber(BOUNDS.timeoutMs).optional(),
    /** Every `run` leaves its results document and run folder under outputDir, for --resume, --last-failed and --retry-errors (default true; `--no-results` for one run). */
    results: z.boolean().optional(),
    /** Modules of user assertions, relative to the config file; each default-exports `{ apiVersion: 1, name, schema?, evaluate }` (docs/guide/custom-assertions.md). */
    assertions: z.array(z.string().min(1)).optional(),
    trace: TracePolicySchema.optional(),
    skipJudgesOnGateFailure: z.boolean().optional(),
    /** Ask judges about empty replies too (default false: an empty reply fails its judged assertions unasked). */
    judgeEmptyReplies: z.boolean().optional(),
    /** The embedding model of `similarTo` assertions that name none: an OpenAI (or OpenAI-compatible) `provider:model`, or `fake` (offline). */
    embeddingModel: EmbeddingModelRefSchema.optional(),
    /** Warn when a judge grades its own model's or its own model family's answers (default true). */
    selfJudgingWarning: z.boolean().optional(),
    earlyStop: z.boolean().optional(),
    cache: z.boolean().optional(),
    /** Like `--judge-batch`: inference judges go through the providers' batch APIs at the batch price. */
    judgeBatch: z.boolean().optional(),
    cacheMaxEntries: boundedNumber(BOUNDS.count).optional(),
    /** Spending limit of a run in USD (targets and judges); once reached, no new trial starts. */
    maxCostUsd: boundedNumber(BOUNDS.usd).optional(),
    /** Like `--strict`: a case that ended `scored` fails the run. */
    strict: z.boolean().optional(),
    /** Like `--fail-on-flaky`: a case with both passing and failing trials fails the run. */
    failOnFlaky: z.boolean().optional(),
    /** Severity of a judged assertion that sets none (a judge error is always a gate). */
    judgeSeverity: SeveritySchema.optional(),
    /** Threshold of a judged assertion that sets none (`threshold`, `min`); pairwise keeps 1. */
    judgeThreshold: boundedNumber(BOUNDS.fraction).optional(),
    /** Longest output a judge is given to grade (characters, default 100,000); the rest is cut with a marker. */
    judgeMaxOutputChars: boundedNumber(BOUNDS.count).optional(),
    /** Run folders (`<outputDir>/runs/<id>/`) kept, each with its run's results document: a run removes the oldest beyond this many (default 50; 0 keeps none). `report --history` and `--estimate` read them. */
    keepRuns: boundedNumber(BOUNDS.countOrZero).optional(),
    /** USD per 1M tokens, keyed `provider:model`; extends and overrides the bundled table. */
    pricing: PriceOverridesSchema.optional(),
    /**
     * The HTTP proxy of every model call and HTTP target (an http or https URL of host and port, with `user:pass@` for credentials), or
     * `false` to connect directly; a model spec or an HTTP target may set its own. Unset: HTTPS_PROXY /
     * HTTP_PROXY / NO_PROXY from the environment (docs/guide/configuration.md, "Behind a proxy").
     */
    proxy: ProxySettingSchema.optional(),
    /** `agent-evals redteam`: the attacker model, destructive and allowed tools, plugins, attempts and the harmful-content policy (docs/guide/red-team.md). */
    redteam: RedteamConfigSchema.optional(),
    /** `agent-evals generate`: the model that drafts cases (docs/guide/generating-cases.md). */
    generate: GenerateConfigSchema.optional(),
  })
  .strict();

/** The config as the schema reads it (`defineConfig`'s public `UserConfig` types its function targets). */
export type ConfigInput = z.input<typeof ConfigSchema>;
export type { TargetConfig };
