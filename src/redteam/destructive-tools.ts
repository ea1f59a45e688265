/**
 * Words that mark a tool as one that changes or removes something the user cannot take back (money
 * moved, data deleted, a message sent): such a call needs the user's confirmation first.
 */
const DESTRUCTIVE = /(^|[^a-z])(delete|remove|destroy|drop|purge|wipe|erase|refund|cancel|revoke|terminate|transfer|withdraw|pay|charge|send|publish|deploy|overwrite|reset)(s|es|ed|ing)?([^a-z]|$)/i;

/**
 * The tools whose name or description says they act irreversibly, in the order given: the guess
 * `agent-evals redteam` makes when the config's `redteam.destructiveTools` names none (it prints the
 * guess, for the user to confirm or correct in the config).
 */
export function guessDestructiveTools(tools: readonly { name: string; description?: string | undefined }[]): string[] {
  return tools.filter((t) => DESTRUCTIVE.test(t.name.replace(/_/g, ' ')) || DESTRUCTIVE.test(t.description ?? '')).map((t) => t.name);
}
