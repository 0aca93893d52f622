import { describe, expect, it } from 'vitest';
import { detectImageType } from './image-type.ts';

const bytes = (...values: (number | string)[]) =>
  Uint8Array.from(
    values.flatMap((v) => (typeof v === 'string' ? [...Buffer.from(v, 'latin1')] : [v])),
  );

describe('detectImageType', () => {
  it('knows PNG, JPEG, GIF and WebP by their first bytes', () => {
    expect(detectImageType(bytes(0x89, 'PNG', 0x0d, 0x0a, 0x1a, 0x0a, 0))).toBe('image/png');
    expect(detectImageType(bytes(0xff, 0xd8, 0xff, 0xe1))).toBe('image/jpeg');
    expect(detectImageType(bytes('GIF89a'))).toBe('image/gif');
    expect(detectImageType(bytes('GIF87a'))).toBe('image/gif');
    expect(detectImageType(bytes('RIFF', 0, 0, 0, 0, 'WEBPVP8 '))).toBe('image/webp');
  });

  it('refuses anything else, however it is labelled', () => {
    expect(detectImageType(bytes('<svg xmlns="http://www.w3.org/2000/svg">'))).toBeNull();
    expect(detectImageType(bytes('RIFF', 0, 0, 0, 0, 'WAVE'))).toBeNull();
    expect(detectImageType(bytes('GIF88a'))).toBeNull();
    expect(detectImageType(bytes(0x89, 'PN'))).toBeNull();
    expect(detectImageType(new Uint8Array())).toBeNull();
  });
});
