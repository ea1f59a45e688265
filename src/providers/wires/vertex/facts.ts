/** What Claude on Vertex AI's models get in the capability table: the Anthropic rows, under their Anthropic ids (model-id.ts). */
import type { WireTable } from '../../capabilities.js';
import { ANTHROPIC_TABLE } from '../anthropic/facts.js';
import { vertexTableModel } from './model-id.js';

export const VERTEX_TABLE: WireTable = {
  id: 'vertex',
  defaultCapabilities: ANTHROPIC_TABLE.defaultCapabilities,
  rowsOf: { wire: ANTHROPIC_TABLE.id, modelId: vertexTableModel },
};
