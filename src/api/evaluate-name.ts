/** What stands for the file in errors about a fluent eval. */
export const EVALUATE = 'evaluate()';
