export function bigEvalChunks(cases: number, bad: boolean): Generator<string>;
export function bigEvalText(cases: number, bad: boolean): string;
export function badLine(cases: number): number;
export function casesForBytes(bytes: number): number;
