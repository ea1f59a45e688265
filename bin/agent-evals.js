#!/usr/bin/env node
import { limitHeapGrowth } from '../dist/cli/heap-growth.js';

limitHeapGrowth();
const { main } = await import('../dist/cli/main.js');
await main();
