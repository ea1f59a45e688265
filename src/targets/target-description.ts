/**
 * What can be read of a configured target without running it: a model agent's instructions and the
 * tools it is offered (its own and its MCP servers'). `agent-evals redteam` attacks from it and
 * `agent-evals generate` drafts cases from it; any other kind is a black box (no instructions, no tools).
 */
export interface TargetDescription {
  name: string;
  instructions?: string;
  tools: { name: string; description?: string; inputSchema: Record<string, unknown> }[];
  /** False for a target that cannot hold a conversation (a command target); absent: it can. */
  holdsConversation?: boolean;
}
