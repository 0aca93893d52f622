import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { quoteLiteral } from './copy.ts';

describe('quoteLiteral', () => {
  it.each([
    [''],
    ['plain'],
    ["it's"],
    ["''"],
    ['back\\slash'],
    ["both ' and \\ and \\' and '\\"],
    ['\\'],
    ['tab\there, line\nbreak, é中🎲, $&, $1'],
    [JSON.stringify([{ title: 'Bob\'s "big" bet \\ 100%', n: 1 }])],
  ])('writes %j as node-postgres does', (text) => {
    expect(quoteLiteral(text)).toBe(pg.escapeLiteral(text));
  });
});
