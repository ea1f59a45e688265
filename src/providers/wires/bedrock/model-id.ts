/**
 * Claude's model ids on Amazon Bedrock, as the Anthropic rows of the capability and price tables know
 * them: a base model id `anthropic.claude-sonnet-4-5-20250929-v1:0`, an inference profile with a
 * geography (`us.`, `eu.`, `apac.`, `global.`: cross-region inference) or an ARN ending in either
 * (Amazon Bedrock docs: supported foundation models, inference profiles; read 2026-12-04).
 */
export function bedrockTableModel(model: string): string {
  return model
    .trim()
    .replace(/^arn:.*\//, '')
    .replace(/^(?:[a-z-]+\.)?anthropic\./, '')
    .replace(/-v\d+(?::\d+)?$/, '');
}
