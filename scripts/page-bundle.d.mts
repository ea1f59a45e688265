/** src/report/page-script.generated.ts, the committed generated module. */
export const GENERATED: string;
/** One entry per kind of page: the generated constant's name, its entry file in src/report/page/, and what it is. */
export const PAGE_ENTRIES: { name: string; entry: string; about: string }[];
/** One page script: the entry (a file in src/report/page/, default main.ts) bundled into one IIFE for browsers. */
export function pageScript(entry?: string): Promise<string>;
/** Every page script, by its constant's name. */
export function pageScripts(): Promise<Record<string, string>>;
/** The generated module's text for the given scripts (by constant name). */
export function generatedModule(scripts: Record<string, string>): string;
