import { expect, it } from 'vitest';
import { CONFIG_FILES_HELP } from '../../src/config/defaults.js';

it('the config file names as help gives them list each extension the loader tries, in its order', () => {
  expect(CONFIG_FILES_HELP).toBe('evals.config.{ts,mts,js,mjs}');
});
