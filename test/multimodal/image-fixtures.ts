/** The images of the multimodal tests: a 1x1 PNG (thumbnailed) and a PNG past the thumbnail cap. */
import type OpenAI from 'openai';
import { THUMBNAIL_MAX_BYTES } from '../../src/core/shown-parts.js';

export const IMAGE_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
/** PNG bytes as far as the providers' type checks go (its signature), larger than a thumbnail may be. */
export const BIG_PNG = Buffer.concat([IMAGE_PNG.subarray(0, 8), Buffer.alloc(THUMBNAIL_MAX_BYTES + 1000, 7)]);

/** One case asking about a receipt: its text, a small image and a large one, judged (or `assert`). */
export function imageEvalFiles(target: string, assert = '{ type: judge, criteria: states the total of the receipt }'): Record<string, string | Buffer> {
  return {
    'evals/receipt.eval.yaml': `suite: vision
target: ${target}
cases:
  - id: receipt
    input:
      - { type: text, text: What is the total on this receipt? }
      - { type: image, path: receipt.png }
      - { type: image, path: images/big.png }
    assert:
      - ${assert}
`,
    'evals/receipt.png': IMAGE_PNG,
    'evals/images/big.png': BIG_PNG,
  };
}

/** A Chat Completions request's messages: one user message of a text part and an image_url part (the part the fakes check, `messages[0].content[1]`). */
export function imageChatMessages(url: string): OpenAI.ChatCompletionMessageParam[] {
  return [
    {
      role: 'user',
      content: [
        { type: 'text', text: 'hi' },
        { type: 'image_url', image_url: { url } },
      ],
    },
  ];
}
