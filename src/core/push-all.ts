/**
 * Appends `items` to `into` one by one. `into.push(...items)` passes every item as an argument on the
 * stack and throws "Maximum call stack size exceeded" past ~125,000 of them: use this wherever the
 * count grows with the input (cases, dataset rows, errors per case, spans, label rows).
 */
export function pushAll<T>(into: T[], items: Iterable<T>): T[] {
  for (const item of items) into.push(item);
  return into;
}
