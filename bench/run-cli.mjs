// Runs the agent-evals CLI (`cli`: a tree's bin/agent-evals.js) in a bench project with the mock's
// placeholder keys, stdout dropped; resolves with the exit code and stderr.
import { spawn } from 'node:child_process';

export function runCli(cli, args, cwd) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], {
      cwd,
      env: { ...process.env, OPENAI_API_KEY: 'bench-key', ANTHROPIC_API_KEY: 'bench-key', CI: '1', NO_COLOR: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (b) => (err += b));
    child.on('close', (code) => resolve({ code, err }));
  });
}
