// A large YAML eval file, valid or with one bad field in its last case: the input of
// `npm run bench:load-errors` and of the load-cost test (which uses a few MB of it).

/** One case in the style of examples/live/*.eval.yaml: input, reference, tags, metadata, assertions. */
function caseText(i, bad) {
  const order = `A${100000 + i}`;
  return [
    `  - id: case-${i}`,
    `    description: Customer ${i} asks about order ${order} and expects a policy-conformant answer`,
    `    input: "Hello, I am customer ${i}. Where is my order ${order}? It was due last week and I would like a refund if it is lost."`,
    `    reference: Order ${order} is in transit; a refund is offered only after the carrier confirms the loss.`,
    `    tags: [orders, refunds, batch-${i % 50}]`,
    `    metadata: { customer: ${i}, region: ${['eu', 'us', 'apac'][i % 3]}, priority: ${i % 5} }`,
    `    assert:`,
    `      - { type: calledTool, tool: orders_lookup, args: { orderId: ${order} } }`,
    `      - { type: notCalledTool, tool: refunds_issue }`,
    `      - { type: containsAny, values: [transit, carrier, shipped], caseSensitive: false }`,
    `      - { type: notContains, value: "guaranteed refund" }`,
    `      - { type: maxSteps, max: 6 }`,
    // The bad field: a misspelled key, the kind of slip a user makes in a long file.
    bad ? `      - { type: contains, valeu: ${order} }` : `      - { type: contains, value: ${order} }`,
    '',
  ].join('\n');
}

const HEADER = 'suite: big\ntarget: agent\nrepeat: 1\ncases:\n';

/**
 * Yields the file's text in chunks: `cases` cases, the last one with the bad field when `bad`.
 * The line of that field is `badLine(cases)`.
 */
export function* bigEvalChunks(cases, bad) {
  yield HEADER;
  for (let i = 0; i < cases; i++) yield caseText(i, bad && i === cases - 1);
}

/** The whole text at once (for the test's few-MB files). */
export function bigEvalText(cases, bad) {
  return [...bigEvalChunks(cases, bad)].join('');
}

/** The 1-based line of the bad field: after the header's 4 lines, 13 lines a case, the bad field 12 lines below the last case's id. */
export function badLine(cases) {
  return 5 + 13 * (cases - 1) + 12;
}

/** How many cases make about `bytes` of text. */
export function casesForBytes(bytes) {
  return Math.ceil(bytes / caseText(99999, false).length);
}
