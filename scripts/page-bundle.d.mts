/** src/report/page/main.ts, the page script's entry. */
export const PAGE_ENTRY: string;
/** src/report/page-script.generated.ts, the committed generated module. */
export const GENERATED: string;
/** The page script: src/report/page/ bundled into one IIFE for browsers. */
export function pageScript(): Promise<string>;
/** The generated module's text for a given script. */
export function generatedModule(code: string): string;
