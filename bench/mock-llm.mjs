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

const tokensOf = (text) => Math.max(1, Math.ceil(text.length / 4));

export function startMockLlm({ latencyMs = 100, port = 0, maxLifetimeMs = 15 * 60_000 } = {}) {
  const stats = { requests: 0, inFlight: 0, maxInFlight: 0, openai: 0, anthropic: 0, judge: 0, firstAt: undefined, lastAt: undefined };
  const cpuStart = process.cpuUsage();

  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/stats') {
      const cpu = process.cpuUsage(cpuStart);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ...stats, cpuSeconds: (cpu.user + cpu.system) / 1e6 }));
      return;
    }
    if (req.method === 'POST' && req.url === '/reset') {
      Object.assign(stats, { requests: 0, inFlight: 0, maxInFlight: 0, openai: 0, anthropic: 0, judge: 0, firstAt: undefined, lastAt: undefined });
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
      let body;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        body = {};
      }
      setTimeout(() => {
        stats.inFlight--;
        stats.lastAt = Date.now();
        const anthropic = req.url.endsWith('/messages');
        const reply = anthropic ? anthropicReply(body, stats) : openaiReply(body, stats);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(reply));
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
        reset: () => Object.assign(stats, { requests: 0, inFlight: 0, maxInFlight: 0, openai: 0, anthropic: 0, judge: 0, firstAt: undefined, lastAt: undefined }),
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
  const prompt = JSON.stringify(body.messages ?? []);
  const schema = body.response_format?.json_schema?.schema;
  let content;
  if (schema) {
    stats.judge++;
    content = JSON.stringify(fill(schema));
  } else {
    content = `Answer to: ${lastUserText(body.messages ?? []).slice(0, 80)}`;
  }
  const input = tokensOf(prompt);
  const output = tokensOf(content);
  return {
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
  };
}

function anthropicReply(body, stats) {
  stats.anthropic++;
  const forced = body.tool_choice?.type === 'tool' ? (body.tools ?? []).find((t) => t.name === body.tool_choice.name) : undefined;
  const content = forced
    ? (stats.judge++, [{ type: 'tool_use', id: `toolu_${stats.requests}`, name: forced.name, input: fill(forced.input_schema) }])
    : [{ type: 'text', text: `Answer to: ${lastUserText(body.messages ?? []).slice(0, 80)}` }];
  return {
    id: `msg_${stats.requests}`,
    type: 'message',
    role: 'assistant',
    model: body.model ?? 'claude-sonnet-4-6',
    content,
    stop_reason: forced ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: tokensOf(JSON.stringify(body.messages ?? [])), output_tokens: tokensOf(JSON.stringify(content)), cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const mock = await startMockLlm({ latencyMs: Number(process.env.LATENCY_MS ?? 100), port: Number(process.env.PORT ?? 0), maxLifetimeMs: Number(process.env.MAX_LIFETIME_MS ?? 15 * 60_000) });
  console.log(mock.url);
}
