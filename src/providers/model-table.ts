/**
 * The model families the project knows, one row each, with what each accepts (see capabilities.ts).
 * Every row names where its facts were read (in words) and when; the price of each family is in
 * price-table.ts. Exact families win over `prefix` rows; a prefix row gives an unknown id of a known
 * line (a future `gpt-6.x`, `claude-opus-…`) the line's newest, most conservative rules.
 */
import type { ModelCapabilities, ModelFamilyRow, Wire } from './capabilities.js';
import { OPENAI_PDF_1M } from './wires/openai/facts.js';
import { GEMINI_LINES, GEMINI_ROWS } from './wires/gemini/rows.js';

const READ = '2026-12-01';
/** The rows re-read for issue 43 (GPT-6 efforts, the Responses-only ids, the PDF limits). */
const REREAD = '2026-12-04';

interface RowExtra {
  prefix?: boolean;
  deprecated?: string;
  shutdown?: string;
  /** When this row's facts were read, if not READ. */
  asOf?: string;
}

function row(wire: Wire, family: string, capabilities: ModelCapabilities, source: string, { asOf = READ, ...extra }: RowExtra = {}): ModelFamilyRow {
  return { wire, family, ...extra, capabilities, source, asOf };
}

// ---------------------------------------------------------------------------------------------
// Anthropic. The SDK sends `anthropic-version: 2026-10-21`, under which temperature/top_p/top_k are
// a 400 on every model (Anthropic docs: Messages API reference and the model migration guides,
// "remove temperature, top_p and top_k"), so every row is `sampling: 'none'`.
// Structured output: `output_config` for every model that thinks by default or always (forced
// tool use is refused outright on Fable 5.1 / Mythos 5.1 / Opus 5.5 / Sonnet 5.5 and later, and a
// forced tool skips or conflicts with thinking on the others); `forced_tool` on models where
// thinking is off unless asked (the 4.x line and earlier), which the judges have always used.
// ---------------------------------------------------------------------------------------------

/** output_config.effort values, per the Anthropic docs' Effort page. */
const CLAUDE_EFFORTS_XHIGH = ['low', 'medium', 'high', 'xhigh', 'max'];
const CLAUDE_EFFORTS_MAX = ['low', 'medium', 'high', 'max'];
const CLAUDE_EFFORTS_BASIC = ['low', 'medium', 'high'];

function claude(
  family: string,
  thinking: ModelCapabilities['thinking'],
  rest: Omit<ModelCapabilities, 'sampling' | 'structuredOutput' | 'thinking' | 'tokenParam'>,
  source: string,
  extra: RowExtra = {},
): ModelFamilyRow {
  const structuredOutput = thinking === 'default-on' || thinking === 'always' ? 'output_config' : 'forced_tool';
  return row('anthropic', family, { sampling: 'none', structuredOutput, thinking, tokenParam: 'max_tokens', ...rest }, source, extra);
}

const ANTHROPIC_ROWS: ModelFamilyRow[] = [
  // Lines: an unknown id continuing a line gets its newest model's rules.
  claude('claude-fable', 'always', { reasoningEfforts: CLAUDE_EFFORTS_XHIGH, maxOutputTokens: 128_000 }, "Anthropic docs: What's new in Claude Fable 5.2 (line rule: newest Fable)", {
    prefix: true,
  }),
  claude('claude-mythos', 'always', { reasoningEfforts: CLAUDE_EFFORTS_XHIGH, maxOutputTokens: 128_000 }, "Anthropic docs: What's new in Claude Fable 5.2 (line rule: newest Mythos)", {
    prefix: true,
  }),
  claude('claude-opus', 'always', { reasoningEfforts: CLAUDE_EFFORTS_XHIGH, maxOutputTokens: 128_000 }, "Anthropic docs: What's new in Claude Opus 5.5 (line rule: newest Opus)", {
    prefix: true,
  }),
  claude('claude-sonnet', 'default-on', { reasoningEfforts: CLAUDE_EFFORTS_XHIGH, maxOutputTokens: 128_000 }, "Anthropic docs: What's new in Claude Sonnet 5.5 (line rule: newest Sonnet)", {
    prefix: true,
  }),
  claude('claude-haiku', 'default-on', { reasoningEfforts: CLAUDE_EFFORTS_XHIGH, maxOutputTokens: 128_000 }, 'Anthropic docs: Claude Haiku 5.5 model page (line rule: newest Haiku)', {
    prefix: true,
  }),

  // Claude 5.x: "Adaptive (always on)" rows cannot turn thinking off; "Adaptive" rows think by default.
  claude(
    'claude-fable-5-2',
    'always',
    { reasoningEfforts: CLAUDE_EFFORTS_XHIGH, maxOutputTokens: 128_000 },
    "Anthropic docs: What's new in Claude Fable 5.2 (adaptive thinking always on; forced tool use unsupported since 5.1)",
  ),
  claude('claude-mythos-5-2', 'always', { reasoningEfforts: CLAUDE_EFFORTS_XHIGH, maxOutputTokens: 128_000 }, "Anthropic docs: What's new in Claude Fable 5.2 (Mythos 5.2 shares Fable 5.2's specs)"),
  claude(
    'claude-fable-5-1',
    'always',
    { reasoningEfforts: CLAUDE_EFFORTS_XHIGH, maxOutputTokens: 128_000 },
    "Anthropic docs: What's new in Claude Fable 5.1 and the Fable 5.1 migration guide (tool_choice any/tool is a 400)",
  ),
  claude('claude-mythos-5-1', 'always', { reasoningEfforts: CLAUDE_EFFORTS_XHIGH, maxOutputTokens: 128_000 }, "Anthropic docs: What's new in Claude Fable 5.1 (Mythos 5.1 shares Fable 5.1's specs)"),
  claude(
    'claude-opus-5-5',
    'always',
    { reasoningEfforts: CLAUDE_EFFORTS_XHIGH, maxOutputTokens: 128_000 },
    "Anthropic docs: Claude Opus 5.5 model page and What's new in Claude Opus 5.5 (thinking can't be disabled; forced tool use returns an error)",
  ),
  claude(
    'claude-sonnet-5-5',
    'default-on',
    { reasoningEfforts: CLAUDE_EFFORTS_XHIGH, maxOutputTokens: 128_000 },
    "Anthropic docs: What's new in Claude Sonnet 5.5 (adaptive thinking on by default; forced tool use returns an error)",
  ),
  claude(
    'claude-haiku-5-5',
    'default-on',
    { reasoningEfforts: CLAUDE_EFFORTS_XHIGH, maxOutputTokens: 128_000 },
    'Anthropic docs: Claude Haiku 5.5 model page and migration guide (adaptive thinking on by default, default effort medium)',
  ),
  claude(
    'claude-fable-5',
    'always',
    { reasoningEfforts: CLAUDE_EFFORTS_XHIGH, maxOutputTokens: 128_000, promptCacheMinTokens: 512 },
    'Anthropic docs: Claude Fable 5 migration guide (thinking disabled is a 400) and Effort page',
  ),
  claude(
    'claude-mythos-5',
    'always',
    { reasoningEfforts: CLAUDE_EFFORTS_XHIGH, maxOutputTokens: 128_000, promptCacheMinTokens: 512 },
    "Anthropic docs: Claude Fable 5 migration guide (Mythos 5 shares Fable 5's settings) and Effort page",
  ),
  claude(
    'claude-opus-5',
    'default-on',
    { reasoningEfforts: CLAUDE_EFFORTS_XHIGH, maxOutputTokens: 128_000, promptCacheMinTokens: 512 },
    "Anthropic docs: What's new in Claude Opus 5 (thinking on by default; disabled only at effort high or below)",
  ),
  claude(
    'claude-sonnet-5',
    'default-on',
    { reasoningEfforts: CLAUDE_EFFORTS_XHIGH, maxOutputTokens: 128_000, promptCacheMinTokens: 1024 },
    'Anthropic docs: Claude Opus 5 model page comparison table (Sonnet 5: Adaptive, 128K) and Effort page',
  ),
  claude(
    'claude-mythos-preview',
    'default-on',
    { reasoningEfforts: CLAUDE_EFFORTS_MAX },
    'Anthropic docs: Adaptive thinking page (adaptive only) and Effort page (max, no xhigh); Fable 5 migration guide (Mythos 5 succeeds it); deprecated 2026-06-09, retired 2026-06-30 per a third-party model index',
    { deprecated: '2026-06-09', shutdown: '2026-06-30' },
  ),

  // Claude 4.x: thinking off unless the request turns it on; forced tool use accepted then.
  claude(
    'claude-opus-4-8',
    'optional',
    { reasoningEfforts: CLAUDE_EFFORTS_XHIGH, maxOutputTokens: 128_000, promptCacheMinTokens: 1024 },
    "Anthropic docs: What's new in Claude Opus 4.8 (1,024-token cache minimum) and Claude Opus 5 migration guide (4.8 runs without thinking unless asked)",
  ),
  claude(
    'claude-opus-4-7',
    'optional',
    { reasoningEfforts: CLAUDE_EFFORTS_XHIGH, maxOutputTokens: 128_000, promptCacheMinTokens: 2048 },
    'Anthropic docs: Adaptive thinking page (Opus 4.7: adaptive only) and Effort page',
  ),
  claude('claude-opus-4-6', 'optional', { reasoningEfforts: CLAUDE_EFFORTS_MAX, promptCacheMinTokens: 4096 }, 'Anthropic docs: Adaptive thinking, Effort and Prompt caching pages'),
  claude(
    'claude-sonnet-4-6',
    'optional',
    { reasoningEfforts: CLAUDE_EFFORTS_MAX, maxOutputTokens: 64_000, promptCacheMinTokens: 2048 },
    'Anthropic docs: Adaptive thinking, Effort and Prompt caching pages',
  ),
  claude(
    'claude-opus-4-5',
    'optional',
    { reasoningEfforts: CLAUDE_EFFORTS_BASIC, promptCacheMinTokens: 4096 },
    'Anthropic docs: Model deprecations (deprecated 2026-11-23, retires 2027-01-22), Effort and Prompt caching pages',
    {
      deprecated: '2026-11-23',
      shutdown: '2027-01-22',
    },
  ),
  claude('claude-haiku-4-5', 'optional', { maxOutputTokens: 64_000, promptCacheMinTokens: 4096 }, 'Anthropic docs: Claude Haiku 4.5 model page, Structured outputs and Prompt caching pages'),
  claude('claude-sonnet-4-5', 'optional', { maxOutputTokens: 64_000, promptCacheMinTokens: 1024 }, 'Anthropic docs: Claude Sonnet 4.5 model page (deprecated, retires 2026-11-30)', {
    shutdown: '2026-11-30',
  }),
  // Retired families, kept so a config naming them gets their rules and its retirement is visible.
  claude('claude-opus-4-1', 'optional', { promptCacheMinTokens: 1024 }, 'Anthropic docs: Model deprecations and release notes (retired 2026-08-05)', { shutdown: '2026-08-05' }),
  claude('claude-opus-4', 'optional', { promptCacheMinTokens: 1024 }, 'Anthropic docs: release notes (Claude Opus 4 retired 2026-06-15)', { shutdown: '2026-06-15' }),
  claude('claude-sonnet-4', 'optional', { promptCacheMinTokens: 1024 }, 'Anthropic docs: release notes (Claude Sonnet 4 retired 2026-06-15)', { shutdown: '2026-06-15' }),
  claude('claude-3-7-sonnet', 'optional', { promptCacheMinTokens: 1024 }, 'Anthropic docs: Prompt caching page (Sonnet 3.7 listed as deprecated)'),
  claude('claude-3-5-sonnet', 'off', { promptCacheMinTokens: 1024 }, 'Anthropic docs: Prompt caching page'),
  claude('claude-3-opus', 'off', { promptCacheMinTokens: 1024 }, 'Anthropic docs: Model deprecations (claude-3-opus retired 2026-01-05)', { shutdown: '2026-01-05' }),
  claude('claude-3-5-haiku', 'off', { promptCacheMinTokens: 2048 }, 'Anthropic docs: Prompt caching page; Haiku 4.5 migration guide (Claude 3.5 Haiku retired 2026-02-19)', { shutdown: '2026-02-19' }),
  claude('claude-3-haiku', 'off', { promptCacheMinTokens: 2048 }, 'Anthropic docs: Prompt caching page'),
];

// ---------------------------------------------------------------------------------------------
// OpenAI. Every family takes `max_completion_tokens` (reasoning models refuse `max_tokens`) and
// strict `json_schema`. Sampling: non-reasoning families `any`; families whose reasoning_effort
// accepts `none` take temperature/top_p only at effort `none` (`reasoning-off`, OpenAI docs: Using
// GPT-5.x / GPT-6 guides, "parameter compatibility"); families that always reason `none`.
// ---------------------------------------------------------------------------------------------

const O_SERIES_EFFORTS = ['low', 'medium', 'high'];
const GPT5_EFFORTS = ['minimal', 'low', 'medium', 'high'];
const GPT51_EFFORTS = ['none', 'low', 'medium', 'high'];
const GPT52_EFFORTS = ['none', 'low', 'medium', 'high', 'xhigh'];
const GPT56_EFFORTS = ['none', 'low', 'medium', 'high', 'xhigh', 'max'];
/** What every GPT-6 model accepts (GPT-6 Astra, GPT-6.1 Sol and GPT-6.2 refuse `none`; 6.1 Sol and 6.2 refuse `minimal`). */
const GPT6_COMMON_EFFORTS = ['low', 'medium', 'high', 'xhigh'];
/** GPT-6 Astra and GPT-6.1 Sol: low..max (OpenAI docs: Models overview, read 2026-12-04 in its Korean and Chinese copies). */
const GPT6_MAX_EFFORTS = [...GPT6_COMMON_EFFORTS, 'max'];

/**
 * Families with a 1M-token context window (their model pages: 1,050,000; GPT-5.5 and GPT-5.4 by the
 * >272K long-context price rule of the 1M-window models): 600 PDF pages per request, the rest 100.
 */
const ONE_MILLION_CONTEXT = new Set([
  'gpt-6',
  'gpt-6-cyber',
  'gpt-6-rosalind',
  'gpt-6.2-astra-law',
  'gpt-5.6-cyber',
  'gpt-6.2-astra',
  'gpt-6.2-sol',
  'gpt-6-astra',
  'gpt-6.1-sol',
  'gpt-6.1-terra',
  'gpt-6-sol',
  'gpt-6-luna',
  'gpt-5.6',
  'gpt-5.5',
  'gpt-5.4',
]);

function openai(family: string, capabilities: Omit<ModelCapabilities, 'structuredOutput' | 'tokenParam'>, source: string, extra: RowExtra = {}): ModelFamilyRow {
  const r = row('openai', family, { structuredOutput: 'json_schema', tokenParam: 'max_completion_tokens', ...capabilities }, source, extra);
  return ONE_MILLION_CONTEXT.has(family) ? { ...r, pdfLimits: OPENAI_PDF_1M } : r;
}

const NON_REASONING = { sampling: 'any', thinking: 'off' } as const;
const GPT4_SHUTDOWN = { deprecated: '2026-10-14', shutdown: '2027-01-14' };
const GPT5_SHUTDOWN = { deprecated: '2026-06-11', shutdown: '2026-12-11' };

// chatTools (function tools on Chat Completions), read 2026-12-01: OpenAI docs, deployment checklist
// (GPT-6 Astra and GPT-6.1 Sol take tools only on Responses; GPT-6 Sol and GPT-6 Luna on Chat
// Completions only at reasoning_effort none), GPT-6.1 Terra model page (tool calling needs the
// Responses API), GPT-6 Luna model page; the API's error for gpt-5.6-luna ("Function tools with
// reasoning_effort are not supported ... set reasoning_effort to 'none'"). GPT-6.2 and unknown GPT-6
// ids are taken as Responses-only, GPT-5.6 as Luna.
const OPENAI_ROWS: ModelFamilyRow[] = [
  // GPT-6: reasoning models; the prefix row is what an unknown gpt-6.x id gets.
  openai(
    'gpt-6',
    { sampling: 'none', thinking: 'always', reasoningEfforts: GPT6_COMMON_EFFORTS, chatTools: 'none', maxOutputTokens: 128_000 },
    'OpenAI docs: Using GPT-6 guide (family rule: efforts every GPT-6 model accepts, no sampling parameters)',
    {
      prefix: true,
    },
  ),
  openai(
    'gpt-6.2-astra',
    { sampling: 'none', thinking: 'always', reasoningEfforts: GPT6_COMMON_EFFORTS, chatTools: 'none', maxOutputTokens: 128_000 },
    'OpenAI docs: GPT-6.2 Astra model page (reasoning effort none and minimal refused)',
  ),
  openai(
    'gpt-6.2-sol',
    { sampling: 'none', thinking: 'always', reasoningEfforts: GPT6_COMMON_EFFORTS, chatTools: 'none', maxOutputTokens: 128_000 },
    'OpenAI docs: GPT-6.2 Sol model page (reasoning effort none and minimal refused)',
  ),
  // Efforts re-read 2026-12-04: the Models overview lists low, medium, high, xhigh and max for both
  // (the row took max away before: a value the page lists was refused at plan time).
  openai(
    'gpt-6-astra',
    { sampling: 'none', thinking: 'always', reasoningEfforts: GPT6_MAX_EFFORTS, chatTools: 'none', maxOutputTokens: 128_000 },
    'OpenAI docs: GPT-6 Astra model page, Using GPT-6 guide and Models overview (effort low..max; none refused, and minimal, which every GPT-6 model refuses)',
    { asOf: REREAD },
  ),
  openai(
    'gpt-6.1-sol',
    { sampling: 'none', thinking: 'always', reasoningEfforts: GPT6_MAX_EFFORTS, chatTools: 'none', maxOutputTokens: 128_000 },
    'OpenAI docs: GPT-6.1 Sol model page, Using GPT-6 guide and Models overview (effort low..max; none and minimal refused)',
    { asOf: REREAD },
  ),
  openai(
    'gpt-6.1-terra',
    { sampling: 'reasoning-off', thinking: 'default-on', reasoningEfforts: GPT56_EFFORTS, chatTools: 'none', maxOutputTokens: 128_000 },
    'OpenAI docs: GPT-6.1 Terra model page (reasoning.effort none..max, default medium; temperature/top_p only at none)',
  ),
  openai(
    'gpt-6-sol',
    { sampling: 'reasoning-off', thinking: 'default-on', reasoningEfforts: GPT56_EFFORTS, chatTools: 'reasoning-off', maxOutputTokens: 128_000 },
    'OpenAI docs: GPT-6 Sol model page (legacy; reasoning effort none..max, default medium)',
  ),
  openai(
    'gpt-6-luna',
    { sampling: 'reasoning-off', thinking: 'default-on', reasoningEfforts: GPT56_EFFORTS, chatTools: 'reasoning-off', maxOutputTokens: 128_000 },
    'OpenAI docs: GPT-6 Luna model page (reasoning.effort none..max, default medium; Chat Completions function calling only at none)',
  ),

  // Responses-only ids (issue 43's reading of OpenAI's docs: function tools only on the Responses
  // API). Their own model pages are not among the stored copies of OpenAI's docs searched on
  // 2026-12-04 (the Models overview lists GPT-6 Astra, Sol, Terra and Luna and a "life sciences"
  // entry; third-party tables list a gpt-6-astra-law, not gpt-6.2-astra-law), so their efforts and
  // limits are their line's most conservative rules, and the rows exist to say chatTools 'none'.
  openai(
    'gpt-6-cyber',
    { sampling: 'none', thinking: 'always', reasoningEfforts: GPT6_COMMON_EFFORTS, chatTools: 'none', maxOutputTokens: 128_000 },
    'Issue 43 (OpenAI docs: Responses-only, tools not on Chat Completions); own model page not found 2026-12-04: GPT-6 family rules',
    { asOf: REREAD },
  ),
  openai(
    'gpt-6-rosalind',
    { sampling: 'none', thinking: 'always', reasoningEfforts: GPT6_COMMON_EFFORTS, chatTools: 'none', maxOutputTokens: 128_000 },
    'Issue 43 (OpenAI docs: Responses-only); OpenAI Models overview lists a life-sciences model (trusted access); own page not found 2026-12-04: GPT-6 family rules',
    { asOf: REREAD },
  ),
  openai(
    'gpt-6.2-astra-law',
    { sampling: 'none', thinking: 'always', reasoningEfforts: GPT6_COMMON_EFFORTS, chatTools: 'none', maxOutputTokens: 128_000 },
    'Issue 43 (OpenAI docs: Responses-only); own page not found 2026-12-04: GPT-6.2 Astra rules (none and minimal refused)',
    { asOf: REREAD },
  ),
  openai(
    'gpt-5.6-cyber',
    { sampling: 'reasoning-off', thinking: 'default-on', reasoningEfforts: GPT56_EFFORTS, chatTools: 'none', maxOutputTokens: 128_000 },
    'Issue 43 (OpenAI docs: Responses-only, so no tools on Chat Completions at any effort); own page not found 2026-12-04: GPT-5.6 family efforts',
    { asOf: REREAD },
  ),

  // GPT-5.x.
  openai(
    'gpt-5',
    { sampling: 'none', thinking: 'always', reasoningEfforts: ['low', 'medium', 'high'], maxOutputTokens: 128_000 },
    'OpenAI docs: Reasoning guide and Deprecations page (gpt-5 shuts down 2026-12-11; as the family rule for other GPT-5 ids, the efforts every GPT-5 model accepts)',
    {
      prefix: true,
      ...GPT5_SHUTDOWN,
    },
  ),
  openai(
    'gpt-5.6',
    { sampling: 'reasoning-off', thinking: 'default-on', reasoningEfforts: GPT56_EFFORTS, chatTools: 'reasoning-off', maxOutputTokens: 128_000 },
    'OpenAI docs: GPT-5.6 Sol / Terra / Luna model pages (reasoning.effort none..max, default medium; gpt-5.6 is an alias of gpt-5.6-sol)',
    {
      prefix: true,
    },
  ),
  openai(
    'gpt-5.5',
    { sampling: 'reasoning-off', thinking: 'default-on', reasoningEfforts: GPT52_EFFORTS, maxOutputTokens: 128_000 },
    'OpenAI docs: GPT-5.5 model page and Reasoning guide (effort none..xhigh, default medium)',
    {
      prefix: true,
    },
  ),
  openai(
    'gpt-5.4',
    { sampling: 'reasoning-off', thinking: 'default-on', reasoningEfforts: GPT52_EFFORTS, maxOutputTokens: 128_000 },
    'OpenAI docs: Using GPT-5.4 guide, parameter compatibility (temperature only with effort none)',
    {
      prefix: true,
    },
  ),
  openai(
    'gpt-5.4-nano',
    { sampling: 'reasoning-off', thinking: 'default-on', reasoningEfforts: GPT52_EFFORTS, maxOutputTokens: 128_000 },
    'OpenAI docs: Deprecations page (gpt-5.4-nano shuts down 2027-04-01)',
    {
      shutdown: '2027-04-01',
    },
  ),
  openai(
    'gpt-5.2',
    { sampling: 'reasoning-off', thinking: 'optional', reasoningEfforts: GPT52_EFFORTS, maxOutputTokens: 128_000 },
    'OpenAI docs: Reasoning effort reference (gpt-5.2: none (default), low, medium, high, xhigh)',
    {
      prefix: true,
    },
  ),
  openai(
    'gpt-5.1',
    { sampling: 'reasoning-off', thinking: 'optional', reasoningEfforts: GPT51_EFFORTS, maxOutputTokens: 128_000 },
    'OpenAI docs: Reasoning effort reference (gpt-5.1 defaults to none) and Deprecations page (shuts down 2027-04-01)',
    {
      prefix: true,
      shutdown: '2027-04-01',
    },
  ),
  openai('gpt-5.3-codex', { sampling: 'none', thinking: 'always', reasoningEfforts: ['low', 'medium', 'high', 'xhigh'] }, 'OpenAI docs: Deprecations page (gpt-5.3-codex shuts down 2027-04-01)', {
    shutdown: '2027-04-01',
  }),
  openai(
    'gpt-5-mini',
    { sampling: 'none', thinking: 'always', reasoningEfforts: GPT5_EFFORTS, maxOutputTokens: 128_000 },
    'OpenAI docs: Deprecations page (gpt-5-mini shuts down 2026-12-11)',
    GPT5_SHUTDOWN,
  ),
  openai(
    'gpt-5-nano',
    { sampling: 'none', thinking: 'always', reasoningEfforts: GPT5_EFFORTS, maxOutputTokens: 128_000 },
    'OpenAI docs: Deprecations page (gpt-5-nano shuts down 2026-12-11)',
    GPT5_SHUTDOWN,
  ),
  openai('gpt-5-pro', { sampling: 'none', thinking: 'always', reasoningEfforts: ['high'] }, 'OpenAI docs: Reasoning effort reference (gpt-5-pro only high) and Deprecations page', GPT5_SHUTDOWN),
  // Chat variants: gpt-5-chat does not reason and takes temperature; the later ones are not documented to.
  openai('gpt-5-chat', NON_REASONING, 'OpenAI docs: GPT-5 for developers (gpt-5-chat-latest takes temperature, no reasoning_effort)'),
  openai('gpt-5.1-chat', { sampling: 'none', thinking: 'default-on' }, 'OpenAI docs: Deprecations page (chat variants, 3-month notice); sampling not documented: none sent'),
  openai('gpt-5.2-chat', { sampling: 'none', thinking: 'default-on' }, 'OpenAI docs: Deprecations page (chat variants); sampling not documented: none sent'),
  openai('gpt-5.3-chat', { sampling: 'none', thinking: 'default-on' }, 'OpenAI docs: Deprecations page (chat variants); sampling not documented: none sent'),

  // o-series: always reason, no sampling parameters.
  openai('o4-mini', { sampling: 'none', thinking: 'always', reasoningEfforts: O_SERIES_EFFORTS, maxOutputTokens: 100_000 }, 'OpenAI docs: Deprecations page (o4-mini shut down 2026-10-23)', {
    prefix: true,
    shutdown: '2026-10-23',
  }),
  openai('o3', { sampling: 'none', thinking: 'always', reasoningEfforts: O_SERIES_EFFORTS, maxOutputTokens: 100_000 }, 'OpenAI docs: Deprecations page (o3 and o3-pro shut down 2026-12-11)', {
    prefix: true,
    ...GPT5_SHUTDOWN,
  }),
  openai('o3-mini', { sampling: 'none', thinking: 'always', reasoningEfforts: O_SERIES_EFFORTS, maxOutputTokens: 100_000 }, 'OpenAI docs: Deprecations page (o3-mini shut down 2026-10-23)', {
    shutdown: '2026-10-23',
  }),
  openai('o1', { sampling: 'none', thinking: 'always', reasoningEfforts: O_SERIES_EFFORTS, maxOutputTokens: 100_000 }, 'OpenAI docs: Deprecations page (o1 and o1-pro shut down 2026-10-23)', {
    prefix: true,
    shutdown: '2026-10-23',
  }),

  // GPT-4.1 and GPT-4o: no reasoning, sampling accepted.
  openai('gpt-4.1', NON_REASONING, 'OpenAI docs: GPT-4.1 model page and Deprecations page (gpt-4.1 and gpt-4.1-mini shut down 2027-01-14)', { prefix: true, ...GPT4_SHUTDOWN }),
  openai('gpt-4.1-mini', NON_REASONING, 'OpenAI docs: Deprecations page (gpt-4.1-mini shuts down 2027-01-14, replacement gpt-6-luna)', GPT4_SHUTDOWN),
  openai('gpt-4.1-nano', NON_REASONING, 'OpenAI docs: Deprecations page (gpt-4.1-nano shut down 2026-10-23)', { shutdown: '2026-10-23' }),
  openai('gpt-4o', NON_REASONING, 'OpenAI docs: GPT-4o model page and Deprecations page (gpt-4o and gpt-4o-mini shut down 2027-01-14)', { prefix: true, ...GPT4_SHUTDOWN }),
  openai('gpt-4o-mini', NON_REASONING, 'OpenAI docs: Deprecations page (gpt-4o-mini shuts down 2027-01-14, replacement gpt-6-luna)', GPT4_SHUTDOWN),
  openai('chatgpt-4o', NON_REASONING, 'OpenAI docs: GPT-4o model page (chatgpt-4o-latest)'),
];

export const MODEL_TABLE: readonly ModelFamilyRow[] = [...ANTHROPIC_ROWS, ...OPENAI_ROWS, ...GEMINI_ROWS];

/**
 * The line rows, `wire:family`: no model has these ids; they only give an unknown id of a line its
 * rules. They have no price (an unknown model's cost stays unknown); every other row has one.
 */
export const MODEL_LINES: ReadonlySet<string> = new Set([
  'anthropic:claude-fable',
  'anthropic:claude-mythos',
  'anthropic:claude-opus',
  'anthropic:claude-sonnet',
  'anthropic:claude-haiku',
  'openai:gpt-6',
  ...GEMINI_LINES,
]);
