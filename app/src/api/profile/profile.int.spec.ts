import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '@wagers/contracts/api/user';
import { startTestApp, type TestApp } from '../../test-support/test-app.ts';
import { catchUp, eventCount, person } from '../friends/friends-fixtures.ts';

describe('PUT /api/user', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('sets trimmed first and last names, which friends then see', async () => {
    const ann = await person(app, 'ann@example.com');
    const bob = await person(app, 'bob@example.com');
    const sent = await bob.client.post<{ id: string }>('/api/friend-requests', {
      receiverId: ann.id,
    });
    catchUp(ann, bob);
    expect((await ann.client.post(`/api/friend-requests/${sent.body.id}/accept`)).status).toBe(200);

    const updated = await ann.client.put<User>('/api/user', {
      firstName: '  Ann ',
      lastName: ' Lee',
    });
    expect(updated.status).toBe(200);
    expect(updated.headers.get('x-wagers-position')).toBeTruthy();
    const me = await ann.client.get<User>('/api/auth/user');
    expect(me.body).toMatchObject({ firstName: 'Ann', lastName: 'Lee' });
    expect(updated.body).toEqual(me.body);
    catchUp(bob, ann);
    expect((await bob.client.get<User[]>('/api/friends')).body).toEqual([
      expect.objectContaining({ id: ann.id, firstName: 'Ann', lastName: 'Lee' }),
    ]);

    const before = await eventCount(app);
    const again = await ann.client.put('/api/user', { firstName: 'Ann', lastName: 'Lee' });
    expect(again.status).toBe(200);
    expect(await eventCount(app)).toBe(before);
  });

  it('refuses blank, missing or overlong names with the fields named, and writes nothing', async () => {
    const cy = await person(app, 'cy@example.com');
    const before = await eventCount(app);
    const cases: [unknown, string[]][] = [
      [{}, ['firstName', 'lastName']],
      [{ firstName: '  ', lastName: 'Ng' }, ['firstName']],
      [{ firstName: 'Cy', lastName: '' }, ['lastName']],
      [{ firstName: 'Cy', lastName: null }, ['lastName']],
      [{ firstName: 'x'.repeat(101), lastName: 'Ng' }, ['firstName']],
      [{ firstName: 7, lastName: 'Ng' }, ['firstName']],
    ];
    for (const [body, fields] of cases) {
      const response = await cy.client.put<{ errors: { field: string }[] }>('/api/user', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(
        response.body.errors.map((e) => e.field),
        JSON.stringify(body),
      ).toEqual(fields);
    }
    expect(
      (await cy.client.put('/api/user', { firstName: 'x'.repeat(100), lastName: 'Ng' })).status,
    ).toBe(200);
    expect(await eventCount(app)).toBe(before + 1);
  });

  it('answers 401 to a caller who is not signed in', async () => {
    expect((await app.anonymous().put('/api/user', { firstName: 'A', lastName: 'B' })).status).toBe(
      401,
    );
  });
});
