/**
 * At most `count` items, and of each intent at most ceil(count / intents): its share, so one intent
 * the generator favoured does not crowd out the others. Within an intent the first written are kept;
 * when the shares together exceed `count`, the largest intents give up their last items first (the
 * later intent first on a tie). Returns the kept indices in their order and how many were dropped.
 */
export function balanceIntents<T extends { intent: string }>(items: readonly T[], count: number, intents?: readonly string[]): { kept: number[]; overShare: number } {
  const order = intents?.length ? [...intents] : [...new Set(items.map((i) => i.intent))];
  if (order.length === 0) return { kept: [], overShare: 0 };
  const share = Math.ceil(count / order.length);
  const byIntent = new Map<string, number[]>(order.map((i) => [i, []]));
  items.forEach((item, index) => {
    const list = byIntent.get(item.intent);
    if (list && list.length < share) list.push(index);
  });
  let total = [...byIntent.values()].reduce((n, l) => n + l.length, 0);
  while (total > count) {
    // The largest intent, the later one on a tie: it gives up its last item.
    let largest = order[0]!;
    for (const i of order) if (byIntent.get(i)!.length >= byIntent.get(largest)!.length) largest = i;
    byIntent.get(largest)!.pop();
    total--;
  }
  const kept = [...byIntent.values()].flat().sort((a, b) => a - b);
  return { kept, overShare: items.length - kept.length };
}
