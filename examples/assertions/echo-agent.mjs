// A stand-in agent for the example: reads the trial as JSON on stdin and replies with its input.
let text = '';
process.stdin.on('data', (chunk) => (text += chunk));
process.stdin.on('end', () => process.stdout.write(JSON.stringify({ reply: JSON.parse(text).input })));
