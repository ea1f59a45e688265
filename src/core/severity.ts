import { z } from 'zod';

/**
 * An assertion's weight: a failed gate fails the trial, a soft one only scores. Its own module so
 * that the config and assertion schemas, built at every start-up, need not build the results schema.
 */
export const SeveritySchema = z.enum(['gate', 'soft']);
export type Severity = z.infer<typeof SeveritySchema>;
