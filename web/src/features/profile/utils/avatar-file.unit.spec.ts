import { describe, expect, it } from 'vitest';
import { avatarFileProblem } from './avatar-file.ts';

describe('avatar file', () => {
  it('accepts images up to 5 MB', () => {
    expect(avatarFileProblem({ type: 'image/png', size: 5 * 1024 * 1024 })).toBeNull();
  });

  it('refuses other types and bigger files', () => {
    expect(avatarFileProblem({ type: 'application/pdf', size: 10 })).toBe(
      'Please select an image file',
    );
    expect(avatarFileProblem({ type: 'image/jpeg', size: 5 * 1024 * 1024 + 1 })).toBe(
      'Please select an image smaller than 5MB',
    );
  });
});
