#!/usr/bin/env node
// A command target in plain Node (any language works the same way): it reads the trial as JSON on
// stdin and prints an AgentRun as JSON on stdout.
let raw = '';
for await (const chunk of process.stdin) raw += chunk;
const trial = JSON.parse(raw);
const orderId = /\b([A-Z]\d{4})\b/.exec(trial.input)?.[1];
const known = { A1049: 'delivered', A1050: 'shipped' };
const status = orderId ? known[orderId] : undefined;
const steps = orderId ? [{ toolCalls: [{ name: 'orders_lookup', args: { orderId }, result: status ?? 'not found', isError: !status }] }] : [];
const reply = !orderId ? 'Which order do you mean?' : status ? `Order ${orderId} is ${status}.` : `I could not find order ${orderId}.`;
process.stdout.write(JSON.stringify({ reply, steps, stopReason: 'done' }));
