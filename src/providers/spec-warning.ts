const said = new Set<string>();

/**
 * Writes a warning about a model spec the first time this process sees it: a setting of the spec
 * that its wire leaves off is said once, not for every provider a run builds from that spec.
 */
export function warnOncePerSpec(message: string | undefined, write: (line: string) => void = (l) => void process.stderr.write(l)): void {
  if (message === undefined || said.has(message)) return;
  said.add(message);
  write(`agent-evals: warning: ${message}\n`);
}
