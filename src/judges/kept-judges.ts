import { isPanelRef } from './panel-spec.js';
import { isJudgeInstance, resolveJudge, type JudgeOrigin, type JudgeLevels, type JudgeRef } from './resolve.js';

/**
 * Whether an assertion keeps its own judge under `--judge`. `own` is the first judge below the
 * config's default that applies to it (assertion, `t.useJudge`, case, suite). One named from the
 * config's `judges`, or a judge object such as an agent judge, is a deliberate choice that a model
 * given on the command line cannot stand in for, so it is kept, unless `--judge` itself names a
 * configured judge (then the user asked for that judge everywhere).
 */
export function keepsOwnJudge(own: JudgeRef | undefined, override: JudgeRef | undefined, configured: Record<string, unknown>): boolean {
  if (override === undefined || own === undefined) return false;
  const isNamed = (ref: JudgeRef) => typeof ref === 'string' && Object.hasOwn(configured, ref);
  if (isNamed(override)) return false;
  return isNamed(own) || isJudgeInstance(own) || isPanelRef(own);
}

/**
 * An assertion's judge under the kept-judge rule: the one resolution the judge service and the
 * pre-run key check share. `keptOwn` is the assertion's own judge when `--judge` left it that one.
 */
export function resolveAssertionJudge(levels: JudgeLevels, configured: Record<string, unknown>): { ref: JudgeRef; origin: JudgeOrigin; keptOwn?: JudgeRef } | undefined {
  const own = levels.assertion ?? levels.checkApi ?? levels.caseOrSuite;
  const { override, ...below } = levels;
  if (!keepsOwnJudge(own, override, configured)) return resolveJudge(levels);
  const resolved = resolveJudge(below);
  return resolved && { ...resolved, keptOwn: own! };
}

/** How a kept judge is named in the notice. */
export function keptJudgeLabel(own: JudgeRef): string {
  if (typeof own === 'string') return own;
  if (isPanelRef(own)) return `a panel of ${own.panel.length} judges`;
  return isJudgeInstance(own) ? 'its own judge object' : `${own.provider}:${(own as { model?: string }).model ?? ''}`;
}

/**
 * The notice that `--judge` left some assertions their own judge: every statically known one in a
 * single warning before the run, then any found only while running (TS checks) once each.
 */
export class KeptJudgeNotice {
  private readonly seen = new Set<string>();

  constructor(
    private readonly override: string,
    private readonly warn: (message: string) => void,
  ) {}

  /** The assertions known before the run, as `[key, label]`. */
  announce(kept: Array<[key: string, label: string]>): void {
    const fresh = kept.filter(([key]) => !this.seen.has(key) && this.seen.add(key));
    if (fresh.length === 0) return;
    const MAX = 10;
    const listed = fresh.slice(0, MAX).map(([key, label]) => `${key} (${label})`);
    if (fresh.length > MAX) listed.push(`and ${fresh.length - MAX} more`);
    const n = fresh.length;
    this.warn(
      `--judge ${this.override} does not replace a judge named from the config's judges or given as a judge object: ${n} assertion${n > 1 ? 's' : ''} kept ${n > 1 ? 'their' : 'its'} own judge: ${listed.join(', ')}. Give --judge the name of a configured judge to replace ${n > 1 ? 'them' : 'it'} too.`,
    );
  }
}
