import { describe, expect, it } from 'vitest';
import { keyForSend, newDraft } from './bet-draft.ts';

describe('the key a draft is sent under', () => {
  const keys = () => {
    let n = 0;
    return () => `key-${++n}`;
  };

  it('is kept with the draft and reused while the body is unchanged', () => {
    const newKey = keys();
    const first = keyForSend(newDraft(true), { title: 'Rain' }, newKey);
    expect(first.key).toBe('key-1');
    expect(first.draft.sent).toEqual({ body: JSON.stringify({ title: 'Rain' }), key: 'key-1' });
    // The draft as it comes back from storage after a reload.
    const reloaded = JSON.parse(JSON.stringify(first.draft)) as typeof first.draft;
    const again = keyForSend(reloaded, { title: 'Rain' }, newKey);
    expect(again.key).toBe('key-1');
    expect(again.draft).toBe(reloaded);
  });

  it('is new once the body changed', () => {
    const newKey = keys();
    const first = keyForSend(newDraft(true), { title: 'Rain' }, newKey);
    expect(keyForSend(first.draft, { title: 'Snow' }, newKey).key).toBe('key-2');
  });
});
