import type { z } from 'zod';
import { DomainError } from '../errors.ts';
import { zodFieldErrors } from './problem.ts';

/** Parses input with a contracts schema; a mismatch is a 400 naming each field. */
export function parseInput<Schema extends z.ZodType>(
  schema: Schema,
  input: unknown,
): z.output<Schema> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const errors = zodFieldErrors(result.error);
  throw new DomainError(
    'validation_failed',
    errors.map((e) => `${e.field}: ${e.message}`).join('; '),
    errors,
  );
}
