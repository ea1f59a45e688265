/** What Claude on Amazon Bedrock's models get in the capability table: the Anthropic rows, under their Anthropic ids (model-id.ts). */
import type { WireTable } from '../../capabilities.js';
import { ANTHROPIC_TABLE } from '../anthropic/facts.js';
import { bedrockTableModel } from './model-id.js';

export const BEDROCK_TABLE: WireTable = {
  id: 'bedrock',
  defaultCapabilities: ANTHROPIC_TABLE.defaultCapabilities,
  rowsOf: { wire: ANTHROPIC_TABLE.id, modelId: bedrockTableModel },
};
