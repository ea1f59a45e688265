import { UserError } from '../../core/errors.js';
import type { CaseResult, Results, ShardInfo, Summary } from '../../core/results-schema.js';
import { BUDGET_FAILURE, exitCodeFor, runGateFailures, runIdAt, SummaryBuilder } from '../loop/index.js';
import { largest } from '../../core/extremes.js';

/** One shard's results document, with the name it is reported by. */
export interface ShardFile {
  name: string;
  results: Results;
}

const part = (s: ShardInfo) => `${s.index}/${s.total}`;

/**
 * Checks that the files are every shard of one run, once each: same plan, same settings, no shard
 * twice, none missing. Each refusal names the files.
 */
function checkShards(files: ShardFile[]): ShardInfo[] {
  const shards = files.map((f) => {
    if (!f.results.run.shard) throw new UserError(`${f.name} is not a shard's results (run with --shard k/n): nothing to merge`);
    return f.results.run.shard;
  });
  const [first, ...rest] = shards;
  const firstName = files[0]!.name;
  rest.forEach((s, i) => {
    const name = files[i + 1]!.name;
    if (s.total !== first!.total) throw new UserError(`${firstName} is shard ${part(first!)} but ${name} is shard ${part(s)}: shards of different splits`);
    if (s.plan.hash !== first!.plan.hash || s.plan.cases !== first!.plan.cases) {
      throw new UserError(`${firstName} and ${name} planned different cases (${first!.plan.cases} vs ${s.plan.cases}, plan ${first!.plan.hash} vs ${s.plan.hash}): shards of different runs`);
    }
    if (s.config !== first!.config) throw new UserError(`${firstName} and ${name} ran with different settings (config fingerprint ${first!.config} vs ${s.config}): shards of different runs`);
  });
  const byIndex = new Map<number, string>();
  shards.forEach((s, i) => {
    const other = byIndex.get(s.index);
    if (other !== undefined) throw new UserError(`shard ${part(s)} appears twice: ${other} and ${files[i]!.name} (overlapping shards)`);
    byIndex.set(s.index, files[i]!.name);
  });
  const missing = Array.from({ length: first!.total }, (_, i) => i + 1).filter((k) => !byIndex.has(k));
  if (missing.length) {
    const got = [...byIndex].map(([k, name]) => `${k}/${first!.total} from ${name}`).join(', ');
    throw new UserError(`missing shard${missing.length === 1 ? '' : 's'} ${missing.map((k) => `${k}/${first!.total}`).join(', ')} (got ${got})`);
  }
  files.forEach((f, i) => {
    if (f.results.cases.length !== shards[i]!.positions.length) throw new UserError(`${f.name}: ${f.results.cases.length} cases but run.shard.positions lists ${shards[i]!.positions.length}`);
  });
  return shards;
}

/**
 * The shards of one run as one results document, as the unsharded run would have written it: cases in
 * plan order; summary, usage, cost, run gates and exit code recomputed from the cases. A shard's
 * budget stop is kept (named by its shard), and the warnings of every shard, each once.
 */
export function mergeShards(files: ShardFile[], meta: { argv: string[]; version: string }): { results: Results; exitCode: number } {
  if (files.length === 0) throw new UserError('merge needs the shard results files');
  const shards = checkShards(files);
  const plan = shards[0]!.plan;
  const slots = new Array<CaseResult | undefined>(plan.cases);
  files.forEach((f, i) => {
    shards[i]!.positions.forEach((p, j) => {
      if (p >= plan.cases || slots[p]) throw new UserError(`${f.name}: run.shard.positions names position ${p} twice or outside the plan of ${plan.cases} cases`);
      slots[p] = f.results.cases[j];
    });
  });
  const cases = slots.filter((c): c is CaseResult => c !== undefined);
  if (cases.length !== plan.cases) throw new UserError(`the shards hold ${cases.length} of the plan's ${plan.cases} cases`);

  const builder = new SummaryBuilder(cases);
  for (const c of cases) builder.addCase(c);
  const built = builder.result();
  const { exit } = shards[0]!;
  const interrupted = files.some((f) => f.results.run.interrupted);
  const summary: Summary = {
    ...built,
    // A budget is spent per machine: a part that stopped on its own fails the whole, as one machine would have.
    failures: [
      ...files.flatMap((f, i) => f.results.summary.failures.filter((t) => t.startsWith(BUDGET_FAILURE)).map((t) => `shard ${part(shards[i]!)}: ${t}`)),
      ...built.failures,
      ...runGateFailures(built, exit),
    ],
    warnings: [...new Set(files.flatMap((f) => f.results.summary.warnings))],
  };
  // A batch a shard left uncollected stays findable in the merged file.
  const uncollected = files.flatMap((f) => f.results.summary.uncollectedBatches ?? []);
  if (uncollected.length) summary.uncollectedBatches = uncollected;
  // Drafts are skipped before the plan is cut: each shard counts the whole plan's, so the count is kept once, not summed.
  const drafts = largest(files.map((f) => f.results.summary.draftsSkipped ?? 0));
  if (drafts > 0) summary.draftsSkipped = drafts;
  const runs = files.map((f) => f.results.run);
  const startedAt = runs.map((r) => r.startedAt).sort()[0]!;
  const results: Results = {
    schemaVersion: files[0]!.results.schemaVersion,
    tool: { name: 'agent-evals', version: meta.version },
    run: {
      id: runIdAt(startedAt),
      startedAt,
      // The shards ran side by side: the merged run took as long as the longest.
      durationMs: largest(runs.map((r) => r.durationMs)),
      gitSha: runs[0]!.gitSha,
      argv: meta.argv,
      config: runs[0]!.config,
      interrupted,
      // Shards of one run share its settings, the trace policy among them; each file is already under it.
      ...(runs[0]!.trace ? { trace: runs[0]!.trace } : {}),
      // Each shard started the servers its cases needed: the merged run listed them all.
      ...(runs.some((r) => r.mcpTools) ? { mcpTools: Object.fromEntries(runs.flatMap((r) => Object.entries(r.mcpTools ?? {}))) } : {}),
    },
    summary,
    cases,
  };
  return { results, exitCode: exitCodeFor(summary, { strict: exit.strict, interrupted }) };
}
