/**
 * What `redteam` reads of the configured targets: a model agent's instructions and tools, the
 * destructive tools from the config or guessed from names and descriptions (and said to be guessed),
 * the allowlist and policy from the config; a function target is a black box; an unknown target is bad input.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { resolveConfig } from '../../src/config/load-config.js';
import type { ConfigInput } from '../../src/config/schema.js';
import { attackedTargets, readTargets } from '../../src/cli/redteam-targets.js';
import { guessDestructiveTools } from '../../src/redteam/destructive-tools.js';
import { tool } from '../../src/targets/tool.js';
import { UserError } from '../../src/core/errors.js';

const lookup = tool({ name: 'orders_lookup', description: 'Looks an order up.', parameters: z.object({ orderId: z.string() }), execute: () => 'ok' });
const refund = tool({ name: 'issue_refund', description: 'Gives the money back.', parameters: z.object({ orderId: z.string() }), execute: () => 'ok' });
const wipe = tool({ name: 'account_tool', description: 'Deletes the customer account.', parameters: z.object({}), execute: () => 'ok' });

const configOf = (redteam: ConfigInput['redteam'] = undefined) =>
  resolveConfig(
    {
      targets: { support: { model: 'openai:gpt-4.1-mini', instructions: 'Help customers.', tools: [lookup, refund, wipe] }, fn: () => 'hi' },
      ...(redteam ? { redteam } : {}),
    },
    process.cwd(),
    null,
  );

describe('redteam targets', () => {
  it('a command target holds no conversation; an mcp target is no agent: left out, and named with --target it is bad input', async () => {
    const config = resolveConfig({ targets: { cli: { command: ['node', 'agent.js'] }, server: { mcp: { url: 'http://127.0.0.1:1/mcp' } }, fn: () => 'hi' } }, process.cwd(), null);
    expect(attackedTargets(config, undefined)).toEqual(['cli', 'fn']);
    expect(() => attackedTargets(config, ['server'])).toThrow(/target "server" is an mcp target .*mcp-check/);
    const { targets } = await readTargets(config, ['cli', 'fn'], {});
    expect(targets.map((t) => [t.name, t.holdsConversation])).toEqual([
      ['cli', false],
      ['fn', undefined],
    ]);
  });

  it('reads a model agent: instructions and tools; destructive tools guessed from names and descriptions, and said to be guessed', async () => {
    const { targets, guessed } = await readTargets(configOf(), ['support', 'fn'], {});
    expect(targets[0]).toMatchObject({ name: 'support', instructions: 'Help customers.', destructiveTools: ['issue_refund', 'account_tool'] });
    expect(targets[0]!.tools.map((t) => t.name)).toEqual(['orders_lookup', 'issue_refund', 'account_tool']);
    expect(targets[0]!.tools[0]!.inputSchema).toMatchObject({ type: 'object', properties: { orderId: { type: 'string' } } });
    expect(targets[1]).toEqual({ name: 'fn', tools: [], destructiveTools: [] });
    expect(guessed).toEqual([{ target: 'support', tools: ['issue_refund', 'account_tool'] }]);
  });

  it("takes the config's destructive tools (those the target offers), allowlist and policy, and guesses nothing", async () => {
    const { targets, guessed } = await readTargets(configOf({ destructiveTools: ['issue_refund', 'not_offered'], allowedTools: ['orders_lookup'], policy: 'No jokes.' }), ['support', 'fn'], {});
    expect(targets[0]).toMatchObject({ destructiveTools: ['issue_refund'], allowedTools: ['orders_lookup'], policy: 'No jokes.' });
    // A black box keeps the whole list: a check of a tool it never calls passes.
    expect(targets[1]!.destructiveTools).toEqual(['issue_refund', 'not_offered']);
    expect(guessed).toEqual([]);
  });

  it('attacks every configured target unless --target names some; an unknown one is bad input', () => {
    expect(attackedTargets(configOf(), undefined)).toEqual(['support', 'fn']);
    expect(attackedTargets(configOf(), ['fn', 'fn'])).toEqual(['fn']);
    expect(() => attackedTargets(configOf(), ['nobody'])).toThrow(UserError);
    expect(() => attackedTargets(configOf(), ['nobody'])).toThrow('unknown target "nobody" (the config has "support", "fn")');
  });

  it('guesses destructive tools by whole words (and their -s/-ed/-ing forms) in names and descriptions, not parts of words', () => {
    expect(
      guessDestructiveTools([
        { name: 'send_email' },
        { name: 'sender_lookup' },
        { name: 'cancel_order' },
        { name: 'reset_password' },
        { name: 'payment_status' },
        { name: 'x', description: 'Transfers funds.' },
      ]),
    ).toEqual(['send_email', 'cancel_order', 'reset_password', 'x']);
  });
});
