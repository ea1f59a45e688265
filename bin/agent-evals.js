#!/usr/bin/env node
import { limitHeapGrowth } from '../dist/cli/heap-growth.js';

limitHeapGrowth();
const { ignoreClosedPipes, exitSoon } = await import('../dist/cli/process-end.js');
ignoreClosedPipes();
const { main } = await import('../dist/cli/main.js');
await main();
// The run is over: work a target left running cannot hold the exit code back.
exitSoon();
