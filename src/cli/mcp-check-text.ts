import { terminalSafe } from '../report/sanitize.js';
import type { McpCheckReport } from '../targets/mcp-check.js';

/** `mcp-check` for a terminal: one line per tool, then a line per check that did not pass. */

const MARK = { pass: 'ok  ', fail: 'FAIL', warn: 'warn', skip: 'skip' } as const;

export function mcpCheckText(report: McpCheckReport): string {
  const lines = [`MCP server "${report.server}": ${report.tools.length} tool${report.tools.length === 1 ? '' : 's'}`];
  for (const tool of report.tools) {
    const worst = tool.checks.some((c) => c.status === 'fail') ? 'fail' : tool.checks.some((c) => c.status === 'warn') ? 'warn' : 'pass';
    lines.push(`  ${MARK[worst]}  ${tool.name}`);
    for (const c of tool.checks) if (c.status !== 'pass') lines.push(`          ${MARK[c.status]}  ${c.check}: ${c.detail}`);
  }
  const verdict = report.failed > 0 ? `${report.failed} check${report.failed === 1 ? '' : 's'} failed` : 'every check passed';
  lines.push(`${verdict}${report.warnings > 0 ? `, ${report.warnings} warning${report.warnings === 1 ? '' : 's'}` : ''}`);
  // Names and details come from the server: control and bidi characters are shown, not obeyed.
  return lines.map(terminalSafe).join('\n') + '\n';
}
