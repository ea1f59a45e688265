/**
 * The HTML report's page script is written in page/ (typed browser code) and bundled by
 * scripts/page-bundle.mjs into dist/report/page-scripts.json at `npm run build` (nothing generated is
 * committed), which the report writers read (src/report/page-scripts.ts). A built file that differs
 * from what the bundler renders from page/ today is stale; this test names the command
 * that rewrites it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GENERATED, PAGE_ENTRIES, generatedFile, pageScripts } from '../../scripts/page-bundle.mjs';
import { PAGE_SCRIPTS_FILE, pageScript, type PageScriptName } from '../../src/report/page-scripts.js';

const scripts = await pageScripts();
const script = scripts.PAGE_SCRIPT!;

describe('the page script is generated from page/', () => {
  it('dist/report/page-scripts.json is up to date, and is what the report writers read', () => {
    expect(PAGE_SCRIPTS_FILE).toBe(GENERATED);
    expect(readFileSync(GENERATED, 'utf8'), 'dist/report/page-scripts.json is stale (page/ changed): run `npm run build`').toBe(generatedFile(scripts));
    for (const { name } of PAGE_ENTRIES) expect(pageScript(name as PageScriptName), name).toBe(scripts[name]);
  });

  it.each(Object.keys(scripts))('%s is one strict IIFE that builds nodes by textContent only: no HTML parsing, no eval, no imports, no network', (name) => {
    const code = scripts[name]!;
    expect(code.startsWith('"use strict";')).toBe(true);
    expect(code.trimEnd().endsWith('})();')).toBe(true);
    expect(code).toContain('textContent');
    for (const sink of ['innerHTML', 'outerHTML', 'insertAdjacentHTML', 'document.write', 'eval(', 'new Function', 'import(', 'require(', 'fetch(', 'XMLHttpRequest']) {
      if (sink === 'fetch(' && (name === 'REVIEW_SCRIPT' || name === 'DRAFTS_SCRIPT')) continue;
      expect(code, `${name} uses ${sink}`).not.toContain(sink);
    }
  });

  // The one exception: the review page (`agent-evals review`) saves each label by posting it to the
  // server it came from. Its every fetch is that relative `label` post (its CSP: connect-src 'self').
  it('REVIEW_SCRIPT fetches only its own server, the relative "label" address', () => {
    const code = scripts.REVIEW_SCRIPT!;
    const calls = code.match(/fetch\(/g) ?? [];
    expect(calls.length).toBeGreaterThan(0);
    expect(code.match(/fetch\("label", \{/g)).toHaveLength(calls.length);
  });

  // The drafts review (`agent-evals review <file.eval.yaml>`) posts each action to its own server the same way.
  it('DRAFTS_SCRIPT fetches only its own server, the relative "draft" address', () => {
    const code = scripts.DRAFTS_SCRIPT!;
    const calls = code.match(/fetch\(/g) ?? [];
    expect(calls.length).toBeGreaterThan(0);
    expect(code.match(/fetch\("draft", \{/g)).toHaveLength(calls.length);
  });

  it('keeps the mark a test or bench reads for when the first cases are on the page', () => {
    expect(script).toContain('performance.mark("agent-evals:first-cases")');
  });
});
