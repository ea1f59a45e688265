// Run from this folder: npx agent-evals run
export default {
  evals: ['*.eval.yaml'],
  assertions: ['./word-count.mjs'],
  targets: {
    // A command target that replies with its input: enough to show the assertion at work.
    echo: { command: ['node', 'echo-agent.mjs'] },
  },
};
