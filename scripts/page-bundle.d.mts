/** dist/report/page-scripts.json, the built page scripts by name (written by `npm run build`). */
export const GENERATED: string;
/** One page script per kind of page: its name, its entry file in page/, and what it is. */
export const PAGE_ENTRIES: { name: string; entry: string; about: string }[];
/** One page script: the entry (a file in page/, default main.ts) bundled into one IIFE for browsers. */
export function pageScript(entry?: string): Promise<string>;
/** Every page script, by its constant's name. */
export function pageScripts(): Promise<Record<string, string>>;
/** The generated file's text for the given scripts (by name): one JSON object. */
export function generatedFile(scripts: Record<string, string>): string;
