/** The Responses wire's id: what its descriptor is named and what its ProviderBlocks carry. */
export const RESPONSES_WIRE_ID = 'openai-responses';
