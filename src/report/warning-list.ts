/**
 * A run's warnings as the terminal lists them: each distinct text once, in the order first heard,
 * with how often it came (`(3 times)`), so a warning every trial repeats is one line.
 */
export class WarningList {
  readonly #count = new Map<string, number>();

  add(message: string): void {
    this.#count.set(message, (this.#count.get(message) ?? 0) + 1);
  }

  /** Distinct warnings. */
  get size(): number {
    return this.#count.size;
  }

  /** `2 warnings` (distinct texts). */
  countText(): string {
    return `${this.size} warning${this.size === 1 ? '' : 's'}`;
  }

  lines(): string[] {
    return [...this.#count].map(([message, n]) => (n > 1 ? `${message} (${n} times)` : message));
  }
}
