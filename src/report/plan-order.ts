import type { CaseResult } from '../core/results-schema.js';
import type { CaseView, Reporter } from './reporter.js';

/**
 * `reporter`, hearing case ends in plan order (`index` 0, 1, …) whatever order the cases end in: a
 * case that ends early waits for the ones before it. Every planned case ends once (skipped and not
 * run ones too); any still held when the run ends go out then, in order, before `onEnd`. The other
 * events pass through as they come.
 */
export function inPlanOrder(reporter: Reporter): Reporter {
  const held = new Map<number, [CaseResult, CaseView]>();
  let next = 0;
  // One delivery at a time: a reporter's awaited onCaseEnd of a case settles before the next case's starts.
  let delivered: Promise<void> = Promise.resolve();
  const deliver = (due: Array<[CaseResult, CaseView]>): Promise<void> => {
    delivered = delivered.then(async () => {
      for (const [result, c] of due) await reporter.onCaseEnd?.(result, c);
    });
    return delivered;
  };
  const take = (index: number): [CaseResult, CaseView] => {
    const entry = held.get(index)!;
    held.delete(index);
    return entry;
  };
  return {
    ...(reporter.name !== undefined ? { name: reporter.name } : {}),
    ...(reporter.written ? { written: () => reporter.written!() } : {}),
    ...(reporter.onBegin ? { onBegin: (info) => reporter.onBegin!(info) } : {}),
    ...(reporter.onTrialEnd ? { onTrialEnd: (c, trial) => reporter.onTrialEnd!(c, trial) } : {}),
    ...(reporter.onWarning ? { onWarning: (message) => reporter.onWarning!(message) } : {}),
    onCaseEnd(result, c) {
      held.set(c.index, [result, c]);
      const due: Array<[CaseResult, CaseView]> = [];
      while (held.has(next)) due.push(take(next++));
      return due.length > 0 ? deliver(due) : undefined;
    },
    async onEnd(info) {
      await deliver([...held.keys()].sort((a, b) => a - b).map(take));
      await reporter.onEnd?.(info);
    },
  };
}
