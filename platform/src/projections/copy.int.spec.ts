import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testServerUrl } from '@wagers/test-support/database';
import { arrayLiteral } from './copy.ts';

describe('arrayLiteral', () => {
  const client = new pg.Client({ connectionString: testServerUrl });
  beforeAll(() => client.connect());
  afterAll(() => client.end());

  it('reads back in PostgreSQL as the values it was given, whatever they hold', async () => {
    const values = [
      'plain',
      '',
      'NULL',
      "it's",
      'a "quoted", {braced} value',
      'back\\slash and \\" both',
      'tab\there, line\nbreak, é中🎲',
    ];
    const result = await client.query<{ a: string[] }>(
      `SELECT ${arrayLiteral(values, 'text')} AS a`,
    );
    expect(result.rows[0]!.a).toEqual(values);
  });
});
