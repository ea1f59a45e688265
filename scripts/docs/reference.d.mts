/** Every page of docs/reference/, keyed by its path from the repository root, rendered from `dist/` or `src/`. */
export function referencePages(base: 'dist' | 'src'): Promise<Record<string, string>>;
