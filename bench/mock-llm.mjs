// A loopback mock LLM for benchmarks: Chat Completions and Messages, a fixed latency per request,
// deterministic replies, judge-shaped JSON when a request asks for structured output, realistic
// usage, and GET /stats. It listens on 127.0.0.1 only and exits by itself after MAX_LIFETIME_MS.
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';

/** A value that satisfies a (judge) JSON Schema: the best score, the first choice, empty lists. */
function fill(schema) {
  if (!schema || typeof schema !== 'object') return null;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  switch (schema.type) {
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, v]) => [k, fill(v)]));
    case 'array':
      return [];
    case 'number':
    case 'integer':
      return typeof schema.maximum === 'number' ? Math.round(schema.maximum * 0.9 * 100) / 100 : 0.9;
    case 'boolean':
      return true;
    default:
      return 'Meets the criterion: the reply answers the question directly.';
  }
}

function lastUserText(messages) {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role !== 'user') continue;
    if (typeof m.content === 'string') return m.content;
    if (Array.isArray(m.content)) return m.content.map((b) => b.text ?? '').join(' ');
  }
  return '';
}

/**
 * The mock's token count: a deterministic estimate, not a real tokenizer. Text is cut into pieces by
 * the pre-tokenisation pattern of OpenAI's cl100k tokenizers (a word with the character before it,
 * up to three digits, a run of punctuation, a run of white space), and a piece costs one token per
 * started six characters. English prose comes out near a real tokenizer's count; what matters here is
 * that the same text always counts the same and a longer or more fragmented text counts more.
 */
const PIECES = /'(?:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+/giu;
export function estimateTokens(text) {
  let tokens = 0;
  for (const [piece] of text.matchAll(PIECES)) tokens += Math.ceil(piece.length / 6);
  return tokens;
}

/** The text of a message's content: a string, or the text of its blocks (Chat Completions and Messages alike). */
function contentText(content) {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((b) => (typeof b?.text === 'string' ? b.text : b?.type === 'tool_result' ? contentText(b.content) : '')).join('');
  return '';
}

/**
 * Input tokens of a request, counted the way the providers bill them: every message's text plus a
 * fixed 3 tokens of framing per message and 3 for the reply (as OpenAI counts chat messages), the
 * system text (Anthropic's top-level `system`, a string or text blocks), and the response
 * contract the request carries (OpenAI `response_format`, Anthropic `tools`) as its JSON.
 * `messageChars` is the length of all message text, system included: the prompt a judge reads;
 * `userChars` that of the user messages alone.
 */
export function requestTokens(body) {
  const texts = (body.messages ?? []).map((m) => contentText(m.content));
  if (body.system !== undefined) texts.unshift(contentText(body.system));
  let tokens = 3;
  for (const t of texts) tokens += 3 + estimateTokens(t);
  if (body.response_format) tokens += estimateTokens(JSON.stringify(body.response_format));
  if (body.tools) tokens += estimateTokens(JSON.stringify(body.tools));
  const userChars = (body.messages ?? []).filter((m) => m.role === 'user').reduce((n, m) => n + contentText(m.content).length, 0);
  return { inputTokens: tokens, messageChars: texts.reduce((n, t) => n + t.length, 0), userChars };
}

function emptyStats() {
  return {
    requests: 0,
    inFlight: 0,
    maxInFlight: 0,
    openai: 0,
    anthropic: 0,
    judge: 0,
    // Totals over the judge requests (structured output asked for): what the usage of their answers says.
    judgeInputTokens: 0,
    judgeOutputTokens: 0,
    judgeRequestBytes: 0,
    judgeMessageChars: 0,
    judgeUserChars: 0,
    firstAt: undefined,
    lastAt: undefined,
  };
}

export function startMockLlm({ latencyMs = 100, port = 0, maxLifetimeMs = 15 * 60_000 } = {}) {
  const stats = emptyStats();
  let lastJudgeRequest;
  const cpuStart = process.cpuUsage();

  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/stats') {
      const cpu = process.cpuUsage(cpuStart);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ...stats, cpuSeconds: (cpu.user + cpu.system) / 1e6 }));
      return;
    }
    if (req.method === 'POST' && req.url === '/reset') {
      Object.assign(stats, emptyStats());
      res.end('{}');
      return;
    }
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      stats.requests++;
      stats.firstAt ??= Date.now();
      stats.inFlight++;
      stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
      const raw = Buffer.concat(chunks);
      let body;
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        body = {};
      }
      setTimeout(() => {
        stats.inFlight--;
        stats.lastAt = Date.now();
        const anthropic = req.url.endsWith('/messages');
        const reply = anthropic ? anthropicReply(body, stats) : openaiReply(body, stats);
        if (reply.judge) {
          stats.judgeRequestBytes += raw.length;
          stats.judgeMessageChars += reply.judge.messageChars;
          stats.judgeUserChars += reply.judge.userChars;
          stats.judgeInputTokens += reply.judge.inputTokens;
          stats.judgeOutputTokens += reply.judge.outputTokens;
          lastJudgeRequest = raw.toString('utf8');
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(reply.body));
      }, latencyMs);
    });
  });

  const lifetime = setTimeout(() => server.close(), maxLifetimeMs);
  lifetime.unref();
  return new Promise((resolve) => {
    server.listen(port, '127.0.0.1', () => {
      const { port: actual } = server.address();
      resolve({
        url: `http://127.0.0.1:${actual}`,
        stats: () => ({
          ...stats,
          cpuSeconds: (() => {
            const c = process.cpuUsage(cpuStart);
            return (c.user + c.system) / 1e6;
          })(),
        }),
        reset: () => {
          Object.assign(stats, emptyStats());
          lastJudgeRequest = undefined;
        },
        /** The raw body of the last judge request, to look at what a judge was sent. */
        lastJudgeRequest: () => lastJudgeRequest,
        close: () =>
          new Promise((r) => {
            clearTimeout(lifetime);
            server.closeAllConnections?.();
            server.close(() => r());
          }),
      });
    });
  });
}

function openaiReply(body, stats) {
  stats.openai++;
  const schema = body.response_format?.json_schema?.schema;
  let content;
  if (schema) {
    stats.judge++;
    content = JSON.stringify(fill(schema));
  } else {
    content = `Answer to: ${lastUserText(body.messages ?? []).slice(0, 80)}`;
  }
  const { inputTokens: input, messageChars, userChars } = requestTokens(body);
  const output = estimateTokens(content);
  return {
    judge: schema ? { inputTokens: input, outputTokens: output, messageChars, userChars } : undefined,
    body: {
      id: `chatcmpl-${stats.requests}`,
      object: 'chat.completion',
      created: 1_700_000_000,
      model: body.model ?? 'gpt-4.1-mini',
      choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, logprobs: null, finish_reason: 'stop' }],
      usage: {
        prompt_tokens: input,
        completion_tokens: output,
        total_tokens: input + output,
        prompt_tokens_details: { cached_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 0 },
      },
    },
  };
}

function anthropicReply(body, stats) {
  stats.anthropic++;
  const forced = body.tool_choice?.type === 'tool' ? (body.tools ?? []).find((t) => t.name === body.tool_choice.name) : undefined;
  if (forced) stats.judge++;
  const content = forced
    ? [{ type: 'tool_use', id: `toolu_${stats.requests}`, name: forced.name, input: fill(forced.input_schema) }]
    : [{ type: 'text', text: `Answer to: ${lastUserText(body.messages ?? []).slice(0, 80)}` }];
  const { inputTokens: input, messageChars, userChars } = requestTokens(body);
  // What the model wrote: the tool call's input as JSON, or the text.
  const output = estimateTokens(forced ? JSON.stringify(content[0].input) : content[0].text);
  return {
    judge: forced ? { inputTokens: input, outputTokens: output, messageChars, userChars } : undefined,
    body: {
      id: `msg_${stats.requests}`,
      type: 'message',
      role: 'assistant',
      model: body.model ?? 'claude-sonnet-4-6',
      content,
      stop_reason: forced ? 'tool_use' : 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: input, output_tokens: output, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
    },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const mock = await startMockLlm({ latencyMs: Number(process.env.LATENCY_MS ?? 100), port: Number(process.env.PORT ?? 0), maxLifetimeMs: Number(process.env.MAX_LIFETIME_MS ?? 15 * 60_000) });
  console.log(mock.url);
}
