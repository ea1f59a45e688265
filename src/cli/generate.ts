import { basename, relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { AgentEvalsError, ProviderConfigError, UserError, errorMessage } from '../core/errors.js';
import type { ResolvedConfig } from '../config/load-config.js';
import { DEFAULT_DEDUPE, draftEvalText, generateDrafts, type GeneratedDrafts } from '../generate/index.js';
import { judgeCacheFor } from '../judges/cache.js';
import { ProviderLimiters } from '../providers/adaptive-limit.js';
import { createEmbedder, createProvider, providerSettings } from '../providers/create.js';
import { fakeEmbedder, type Embedder } from '../providers/embeddings.js';
import { embeddingModelProblem } from '../providers/embedding-models.js';
import { ModelSpecInputSchema, formatModelSpec, parseModelSpec, type ModelSpecInput } from '../providers/model-spec.js';
import { providerList } from '../providers/registry.js';
import { warningPricing } from '../providers/run-usage.js';
import type { Provider } from '../providers/types.js';
import { formatCost, formatTokens } from '../report/format.js';
import { terminalSafe } from '../report/sanitize.js';
import { targetKindOf } from '../targets/config-schema.js';
import { bounded, concurrency, fraction, timeoutMs } from './parse-number.js';
import { loadConfigFromFlags } from './prepare.js';
import { checkOutputs } from './output-check.js';
import { readGenerateSources } from './generate-examples.js';
import { configRedactor, describeTargets } from './target-descriptions.js';
import { checkNewEvalFile, writeNewEvalFile } from './written-eval-file.js';

/** Cases drafted when `--count` does not say. */
export const DEFAULT_COUNT = 20;
const count = bounded({ min: 1, max: 500, integer: true, why: 'each case is one to review by hand' });
const seed = bounded({ min: 0, max: 2 ** 31 - 1, integer: true });
const MAX_INTENT = 80;

interface GenerateFlags {
  config?: string;
  loadTimeout?: number;
  target: string;
  from?: string[];
  count?: number;
  intents?: string;
  out?: string;
  model?: string;
  embeddingModel?: string;
  dedupe?: number;
  seed?: number;
  concurrency?: number;
}

export function registerGenerate(program: Command): void {
  program
    .command('generate')
    .description(
      'draft eval cases for a target from its instructions and tools (and, with --from, recorded traces or an existing eval file): a generator model writes inputs across intents, edge cases and adversarial phrasings, each with calledTool / notCalledTool assertions; near-duplicates are dropped by embedding similarity and each intent keeps its share. Every case is written `draft: true`, for `agent-evals review` (exit 0 written, 1 nothing left to write, 2 bad input)',
    )
    .requiredOption('--target <name>', 'the configured target to draft cases for')
    .option('--from <files...>', 'inputs the agent has seen: recorded traces (JSONL, an OTLP export, a results file) as examples, or eval files whose cases are examples and are not drafted again')
    .option('-n, --count <n>', `draft cases to write (default ${DEFAULT_COUNT}); the generator is asked for half as many again, as some are dropped`, count)
    .option('--intents <list>', 'the intents to cover, comma-separated (default: the generator proposes them from the instructions and tools)')
    .option('-o, --out <file>', 'the eval file to write (*.eval.yaml or *.eval.yml); an existing file is never replaced (default: evals/<target>.generated.eval.yaml)')
    .option('--model <provider:model>', `the generator model (default: config \`generate.model\`, else the judge model; provider: ${providerList()})`)
    .option('--embedding-model <provider:model>', 'the embedding model near-duplicates are found with (default: config `embeddingModel`, else `fake`, the offline one)')
    .option('--dedupe <0..1>', `cosine similarity from which an input repeats another and is dropped (default ${DEFAULT_DEDUPE})`, fraction)
    .option('--seed <n>', 'picks the examples shown when there are many, and asks for another variation of the set', seed)
    .option('-c, --config <path>', 'config file (default: evals.config.ts and the like, found from here)')
    .option('-j, --concurrency <n>', 'embedding calls in flight at once (default: config `concurrency`)', concurrency)
    .option('--load-timeout <ms>', 'how long importing the config (or a --from eval .ts) may take, in ms', timeoutMs)
    .action(async (flags: GenerateFlags) => {
      process.exitCode = await generate(flags, process.cwd());
    });
}

async function generate(flags: GenerateFlags, cwd: string): Promise<number> {
  const config = await loadConfigFromFlags(flags, cwd);
  const target = draftedTarget(config, flags.target);
  const intents = flags.intents !== undefined ? intentList(flags.intents) : undefined;
  const wanted = flags.count ?? DEFAULT_COUNT;
  // Bad input is found before the generator is paid: the file to write, the models, the --from files.
  const out = resolve(cwd, flags.out ?? `evals/${target.replace(/[^A-Za-z0-9._-]+/g, '-')}.generated.eval.yaml`);
  const outShown = relative(cwd, out) || out;
  // Drafts written under a name `run` does not load would never run.
  await checkNewEvalFile(out, outShown, '--out', 'drafts');
  await checkOutputs([{ path: out, kind: 'file', field: '--out' }], config.file);
  const model = generatorModel(config, flags.model);
  const embeddingRef = embeddingModel(config, flags.embeddingModel);
  const limiters = new ProviderLimiters(config.concurrency, { proxy: config.proxy });
  const generator = generatorProvider(model.input, limiters);
  const embedder = embeddingRef === 'fake' ? fakeEmbedder : embedderFor(embeddingRef, limiters);
  const read = await readGenerateSources(flags.from ?? [], config, cwd, flags.seed ?? 0);
  // What is read of the target and the recorded inputs go to the generator and the file it writes:
  // secrets of the environment and config never do (one redactor for all of it).
  const redactor = configRedactor(config, process.env);
  const [described] = await describeTargets(config, [target], process.env, redactor);
  const sources = { ...read, examples: read.examples.map((e) => ({ ...e, input: redactor.redact(e.input) })), existingInputs: read.existingInputs.map((i) => redactor.redact(i)) };

  const warn = (message: string) => process.stderr.write(`agent-evals: ${message}\n`);
  const pricing = warningPricing(config.pricing, warn);
  const cache = judgeCacheFor(config);
  let drafts: GeneratedDrafts;
  try {
    drafts = await generateDrafts({
      target: described!,
      generator,
      pricing,
      count: wanted,
      ...(intents ? { intents } : {}),
      examples: sources.examples,
      existingInputs: sources.existingInputs,
      embedder,
      embedding: { cache, pricing },
      dedupe: flags.dedupe ?? DEFAULT_DEDUPE,
      ...(flags.seed !== undefined ? { seed: flags.seed } : {}),
      concurrency: flags.concurrency ?? config.concurrency,
      signal: new AbortController().signal,
    });
  } catch (err) {
    // Nothing was written: the generator's (or the embedder's) failure ends the command as bad input, naming the model.
    if (err instanceof UserError || err instanceof ProviderConfigError || !(err instanceof AgentEvalsError)) throw err;
    throw new UserError(errorMessage(err));
  } finally {
    await cache?.close();
  }
  if (sources.traces || sources.cases)
    warn(`examples: ${[sources.cases ? plural(sources.cases, 'existing case') : '', sources.traces ? plural(sources.traces, 'recorded trace') : ''].filter(Boolean).join(' and ')} read`);
  warn(spendLine(model.name, drafts, embeddingRef));
  if (drafts.cases.length === 0) {
    warn(`nothing written: of the ${drafts.generated} inputs the generator wrote, none is left (${dropNotes(drafts).join(', ') || 'none kept'})`);
    return 1;
  }
  const text = await draftEvalText(drafts.cases, { suite: suiteOfFile(out, target), target, generator: model.name, shown: outShown });
  await writeNewEvalFile(out, outShown, '--out', redactor.redact(text), 'the cases were drafted');
  const intentsLine = drafts.byIntent.map((i) => `${terminalSafe(i.intent)} ${i.cases}`).join(', ');
  process.stdout.write(
    `wrote ${terminalSafe(outShown)}: ${plural(drafts.cases.length, 'draft case')} (${dropNotes(drafts, true).join(', ')}); review them with \`agent-evals review ${terminalSafe(outShown)}\`, then \`agent-evals run\`\n` +
      `  intents: ${intentsLine}\n`,
  );
  return 0;
}

/**
 * The suite is named after the file written (`support.generated.eval.yaml` → `support-generated`), so a
 * second file drafted for the same target (`--out`) is a suite of its own: ids are a hash of the input,
 * and the same input drafted into two files of one suite made `list` and `run` refuse both as duplicates.
 */
function suiteOfFile(path: string, target: string): string {
  const name = basename(path)
    .replace(/\.eval\.ya?ml$/, '')
    .replace(/[^A-Za-z0-9_-]+/g, '-');
  return name.replace(/^-+|-+$/g, '') || `${target}-generated`.replace(/[^A-Za-z0-9_-]+/g, '-');
}

/** The target named by --target: one the config has and with an agent to ask (an mcp target is a server alone). */
function draftedTarget(config: ResolvedConfig, name: string): string {
  const known = Object.keys(config.targets);
  if (!known.includes(name))
    throw new UserError(`unknown target "${name}" (the config has ${known.map((k) => `"${k}"`).join(', ') || 'none'}${config.file ? `, in ${config.file}` : ''})`, { field: '--target' });
  if (targetKindOf(config.targets[name]) === 'mcp')
    throw new UserError(`target "${name}" is an mcp target (an MCP server without a model): its cases name tool calls, not a user's input; use agent-evals mcp-check to test the server`, {
      field: '--target',
    });
  return name;
}

function intentList(text: string): string[] {
  const intents = [
    ...new Set(
      text
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
  if (!intents.length) throw new UserError('--intents needs at least one intent', { field: '--intents' });
  const long = intents.find((i) => i.length > MAX_INTENT);
  if (long) throw new UserError(`an intent is at most ${MAX_INTENT} characters: "${terminalSafe(long.slice(0, 40))}…"`, { field: '--intents' });
  return intents;
}

/** The generator: `--model`, else the config's `generate.model`, else the judge model; none is bad input. */
function generatorModel(config: ResolvedConfig, flag: string | undefined): { input: ModelSpecInput; name: string } {
  const field = flag !== undefined ? '--model' : 'generate.model';
  const judge = ModelSpecInputSchema.safeParse(config.judge);
  const input: ModelSpecInput | undefined = flag ?? config.generate.model ?? (judge.success ? judge.data : undefined);
  if (input === undefined) throw new UserError('no generator model: give --model provider:model, or set generate.model (or a judge model) in the config', { field });
  try {
    return { input, name: formatModelSpec(parseModelSpec(input)) };
  } catch (err) {
    throw new UserError(`generator: ${errorMessage(err)}`, { field });
  }
}

/** The embedding model: `--embedding-model`, else the config's `embeddingModel` (`similarTo`'s), else the offline one. */
function embeddingModel(config: ResolvedConfig, flag: string | undefined): string {
  const ref = flag ?? config.embeddingModel ?? 'fake';
  const problem = embeddingModelProblem(ref);
  if (problem) throw new UserError(problem, { field: flag !== undefined ? '--embedding-model' : 'embeddingModel' });
  return ref;
}

/** The generator's client, made now: a missing API key is bad input before anything is asked. */
function generatorProvider(input: ModelSpecInput, limiters: ProviderLimiters): Provider {
  try {
    return createProvider(input, process.env, { limiters });
  } catch (err) {
    if (err instanceof ProviderConfigError) throw new ProviderConfigError(`generator: ${err.message}`);
    throw err;
  }
}

function embedderFor(ref: string, limiters: ProviderLimiters): Embedder {
  try {
    return createEmbedder(providerSettings(ref, process.env, { limiters }));
  } catch (err) {
    if (err instanceof ProviderConfigError) throw new ProviderConfigError(`embedding model: ${err.message}`);
    throw err;
  }
}

/** `3 near-duplicates dropped, 1 over an intent's share, 0 unknown tools dropped` (`all`: the zeros too). */
function dropNotes(d: GeneratedDrafts, all = false): string[] {
  return [
    [d.nearDuplicates, `${plural(d.nearDuplicates, 'near-duplicate')} dropped`],
    [d.overShare, `${d.overShare} over an intent's share`],
    [d.unknownTools, `${plural(d.unknownTools, 'unknown tool')} dropped`],
  ]
    .filter(([n]) => all || (n as number) > 0)
    .map(([, text]) => text as string);
}

/** What the generator and the embeddings cost. */
function spendLine(generator: string, d: GeneratedDrafts, embedding: string): string {
  const g = d.generatorUsage;
  const e = d.embedding;
  const gen = `generator ${generator}: ${plural(g.calls, 'call')}, ${formatTokens(g.inputTokens)} tokens in, ${formatTokens(g.outputTokens)} out, ${formatCost(g.costUsd)}`;
  const texts = e.usage.calls + e.cached;
  const emb =
    embedding === 'fake'
      ? `embeddings fake (offline): ${plural(texts, 'input')}`
      : `embeddings ${embedding}: ${plural(e.usage.calls, 'call')}${e.cached ? ` (${e.cached} cached)` : ''}, ${formatTokens(e.usage.inputTokens)} tokens, ${formatCost(e.usage.costUsd)}`;
  return `${gen}; ${emb}`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
