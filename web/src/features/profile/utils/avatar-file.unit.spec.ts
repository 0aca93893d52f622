import { describe, expect, it } from 'vitest';
import { avatarAccept, avatarFileProblem } from './avatar-file.ts';

describe('avatar file', () => {
  it('accepts the image types the server stores, up to 5 MB', () => {
    for (const type of ['image/png', 'image/jpeg', 'image/gif', 'image/webp']) {
      expect(avatarFileProblem({ type, size: 5 * 1024 * 1024 })).toBeNull();
    }
    expect(avatarAccept).toBe('image/png,image/jpeg,image/gif,image/webp');
  });

  it('refuses other types and bigger files', () => {
    expect(avatarFileProblem({ type: 'application/pdf', size: 10 })).toBe(
      'Please select an image file',
    );
    // Images the server does not store are refused here too.
    for (const type of ['image/svg+xml', 'image/heic', 'image/tiff', 'image/bmp']) {
      expect(avatarFileProblem({ type, size: 10 })).toBe('Please select an image file');
    }
    expect(avatarFileProblem({ type: 'image/jpeg', size: 5 * 1024 * 1024 + 1 })).toBe(
      'Please select an image smaller than 5MB',
    );
  });
});
