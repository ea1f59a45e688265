/**
 * What each adapter says when a function target hands it the wrong thing: the mix-ups a user makes
 * (a forgotten `await`, the graph's state instead of its messages, Mastra's stream output instead of
 * its full output), made with the real frameworks of the line against the fake OpenAI server. A
 * target's module is not type-checked when it loads, so these reach the adapter at run time; before,
 * they failed on a missing field (`Cannot read properties of undefined (reading 'map')`), and Mastra
 * read a forgotten `await` as an empty run that `notCalledTool` and `usedNoTools` pass.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAI as createOpenAIv5 } from '@ai-sdk/openai-v5';
import { ChatOpenAI } from '@langchain/openai';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { Mastra } from '@mastra/core';
import { Agent as MastraAgent } from '@mastra/core/agent';
import { Agent, OpenAIProvider, Runner } from '@openai/agents';
import { generateText, streamText, ToolLoopAgent } from 'ai';
import { fromAISDK } from '../../src/adapters/ai-sdk.js';
import { fromLangChain } from '../../src/adapters/langchain.js';
import { fromMastra } from '../../src/adapters/mastra.js';
import { fromOpenAIAgents } from '../../src/adapters/openai-agents.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider } from '../support/fake-server.js';
import { userOpenAI } from '../support/framework-line.js';

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function fakeUrl(): Promise<string> {
  fake = await startFakeOpenAI({ script: () => ({ text: 'Hello.', usage: { input: 10, output: 2 } }) });
  return fake.url;
}

/** The adapter called on what a target would hand it; the value is what TypeScript would have refused. */
function refusal(adapt: () => unknown): string {
  try {
    adapt();
  } catch (error) {
    expect(error).toBeInstanceOf(TypeError);
    return (error as Error).message;
  }
  throw new Error('the adapter took it');
}

describe('adapters handed the wrong thing', () => {
  it('fromAISDK: a generateText promise (no await) and its text are refused by name; a streamText result still converts', async () => {
    const model = createOpenAI({ baseURL: await fakeUrl(), apiKey: 'sk-test' }).chat('gpt-4.1-mini');
    const pending = generateText({ model, prompt: 'Hi' });
    expect(refusal(() => fromAISDK(pending as never))).toBe(
      "fromAISDK: expected a generateText result or a streamText result, got a Promise: await it before handing it over (`await generateText(…)`, or an agent's `await agent.generate(…)` / `await agent.stream(…)`; a streamText result is passed as it is)",
    );
    const result = await pending;
    expect(refusal(() => fromAISDK(result.text as never))).toBe('fromAISDK: expected a generateText result or a streamText result, got a string ("Hello.")');
    expect(refusal(() => fromAISDK(undefined as never))).toBe('fromAISDK: expected a generateText result or a streamText result, got undefined');
    await expect(fromAISDK(streamText({ model, prompt: 'Hi' }))).resolves.toMatchObject({ reply: 'Hello.' });
  });

  it("fromAISDK: a ToolLoopAgent's generate() and stream() results convert once awaited; stream() not awaited (unlike streamText) is refused", async () => {
    const agent = new ToolLoopAgent({ model: createOpenAI({ baseURL: await fakeUrl(), apiKey: 'sk-test' }).chat('gpt-4.1-mini'), instructions: 'Answer.' });
    expect(fromAISDK(await agent.generate({ prompt: 'Hi' }))).toMatchObject({ reply: 'Hello.', stopReason: 'stop' });
    await expect(fromAISDK(await agent.stream({ prompt: 'Hi' }))).resolves.toMatchObject({ reply: 'Hello.', stopReason: 'stop' });
    const pending = agent.stream({ prompt: 'Hi' });
    expect(refusal(() => fromAISDK(pending as never))).toMatch(/^fromAISDK: expected .*, got a Promise: await it before handing it over .*`await agent\.stream\(…\)`/);
    await (await pending).consumeStream();
  });

  it('fromOpenAIAgents: a run() promise (no await) and its finalOutput are refused by name', async () => {
    const UserOpenAI = await userOpenAI();
    const runner = new Runner({ modelProvider: new OpenAIProvider({ openAIClient: new UserOpenAI({ baseURL: await fakeUrl(), apiKey: 'sk-fake' }) }), tracingDisabled: true });
    const agent = new Agent({ name: 'a', instructions: 'Answer.', model: 'gpt-4.1-mini' });
    const pending = runner.run(agent, 'Hi');
    expect(refusal(() => fromOpenAIAgents(pending as never))).toBe('fromOpenAIAgents: expected the result of run(agent, input), got a Promise: `await run(agent, input)` before handing it over');
    const result = await pending;
    expect(refusal(() => fromOpenAIAgents(result.finalOutput as never))).toBe('fromOpenAIAgents: expected the result of run(agent, input), got a string ("Hello.")');
    expect(fromOpenAIAgents(result).reply).toBe('Hello.');
  });

  it('fromLangChain: the graph state names state.messages; an invoke promise asks for the await', async () => {
    const llm = new ChatOpenAI({ model: 'gpt-4.1-mini', apiKey: 'k', configuration: { baseURL: await fakeUrl() } });
    const graph = createReactAgent({ llm, tools: [] });
    const pending = graph.invoke({ messages: [{ role: 'user', content: 'Hi' }] });
    expect(refusal(() => fromLangChain(pending as never))).toBe(
      'fromLangChain: expected a list of messages (the state.messages of graph.invoke), got a Promise: `await graph.invoke(…)` and pass its messages',
    );
    const state = await pending;
    expect(refusal(() => fromLangChain(state as never))).toBe('fromLangChain: expected a list of messages, got an object with messages: pass its messages (`fromLangChain(state.messages)`)');
    expect(fromLangChain(state.messages).reply).toBe('Hello.');
  });

  it('fromMastra: a generate() promise is refused, not read as an empty run; a stream output asks for getFullOutput()', async () => {
    const model = createOpenAIv5({ baseURL: await fakeUrl(), apiKey: 'k' }).chat('gpt-4.1-mini');
    const support = new MastraAgent({ id: 'support', name: 'support', instructions: 'Help.', model });
    const agent = new Mastra({ agents: { support }, logger: false }).getAgent('support');
    const pending = agent.generate('Hi');
    expect(refusal(() => fromMastra(pending as never))).toBe('fromMastra: expected an agent.generate() result, got a Promise: `await agent.generate(…)` before handing it over');
    const result = await pending;
    expect(refusal(() => fromMastra(result.text as never))).toBe('fromMastra: expected an agent.generate() result, got a string ("Hello.")');
    expect(fromMastra(result).reply).toBe('Hello.');
    const output = await agent.stream('Hi');
    expect(refusal(() => fromMastra(output as never))).toMatch(/^fromMastra: expected an agent\.generate\(\) result, got a \w+.*: pass a stream's `await output\.getFullOutput\(\)`$/);
    expect(fromMastra(await output.getFullOutput()).reply).toBe('Hello.');
  });
});
