import { createSecretKey, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { inviteLink, inviteLinks, readLinkCode, signedLinkCode } from './links.ts';

const key = createSecretKey(randomBytes(32));
const otherKey = createSecretKey(randomBytes(32));
const code = 'Zx3kQm9pTb2vLc8nWd4rYh6s';

describe('invite links', () => {
  it('sign the code with the key, and read back as signed', () => {
    const linkCode = signedLinkCode(key, code);
    expect(linkCode).toMatch(new RegExp(`^${code}\\.[\\w-]{22}$`));
    expect(readLinkCode(key, linkCode)).toEqual({ code, signed: true });
  });

  it('read the code alone as unsigned, for invites sent before links were signed', () => {
    expect(readLinkCode(key, code)).toEqual({ code, signed: false });
  });

  it('refuse a signature another key made, or one altered, cut or added to', () => {
    const linkCode = signedLinkCode(key, code);
    const signature = linkCode.split('.')[1]!;
    const flipped = (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1);
    for (const forged of [
      signedLinkCode(otherKey, code),
      `${code}.${flipped}`,
      `${code}.${signature.slice(1)}`,
      `${code}.${signature}A`,
      `${code}.`,
      `${code.slice(1)}.${signature}`,
      `${code}x.${signature}`,
    ]) {
      expect(readLinkCode(key, forged), forged).toBeNull();
    }
  });

  it('refuse what cannot name an invite', () => {
    for (const bad of ['', 'short', 'a'.repeat(65), `${code}/x`, `../${code}`, `${code}.a.b`]) {
      expect(readLinkCode(key, bad), bad).toBeNull();
    }
  });

  it('hand out the signed code and its link, or the code alone for an earlier invite', async () => {
    const links = inviteLinks(
      () => Promise.resolve(key),
      () => 'https://wagers.example/',
    );
    const signed = await links.linkFor(code, true);
    expect(signed.code).toBe(signedLinkCode(key, code));
    expect(signed.inviteLink).toBe(`https://wagers.example/invite/${signed.code}`);
    expect(await links.linkFor(code, false)).toEqual({
      code,
      inviteLink: inviteLink('https://wagers.example', code),
    });
    expect(await links.read(signed.code)).toEqual({ code, signed: true });
  });
});
