import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserSearchResult } from '@wagers/contracts/api/friends';
import { startTestApp, type TestApp } from '../../test-support/test-app.ts';
import { catchUp, named } from '../friends/friends-fixtures.ts';
import { searchUsersQuery } from '@wagers/projection-service/search/search-query';

describe('user search', () => {
  let app: TestApp;
  let ann: Awaited<ReturnType<typeof named>>;
  let bob: Awaited<ReturnType<typeof named>>;
  let cy: Awaited<ReturnType<typeof named>>;
  let dee: Awaited<ReturnType<typeof named>>;

  const search = (query: string) =>
    ann.client.get<UserSearchResult[]>(`/api/users/search?query=${encodeURIComponent(query)}`);

  beforeAll(async () => {
    app = await startTestApp();
    ann = await named(app, 'ann@example.com', 'Ann', 'Lee');
    bob = await named(app, 'bob.ray@example.com', 'Bob', 'Ray');
    cy = await named(app, 'cy@example.com', 'Cy', 'Bobson');
    dee = await named(app, 'dee@example.com', 'Dee', 'Annwood');
    for (let i = 0; i < 22; i++) await named(app, `many${i}@example.com`, `Person${i}`, 'Many');
    // Ann and Cy are friends; Ann asked Dee; Bob asked Ann.
    const toCy = await ann.client.post<{ id: string }>('/api/friend-requests', {
      receiverId: cy.id,
    });
    expect((await cy.client.post(`/api/friend-requests/${toCy.body.id}/accept`)).status).toBe(200);
    expect((await ann.client.post('/api/friend-requests', { receiverId: dee.id })).status).toBe(
      201,
    );
    expect((await bob.client.post('/api/friend-requests', { receiverId: ann.id })).status).toBe(
      201,
    );
    catchUp(ann, cy);
    catchUp(ann, bob);
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('finds people by a prefix of the first or last name, in any case, never the caller', async () => {
    const found = await search('BO');
    expect(found.status).toBe(200);
    expect(found.body.map((u) => u.firstName)).toEqual(['Bob', 'Cy']);
    expect((await search('ann')).body.map((u) => u.id)).toEqual([dee.id]);
    expect((await search('bob ray')).body.map((u) => u.id)).toEqual([bob.id]);
    expect((await search('ray bob')).body.map((u) => u.id)).toEqual([bob.id]);
  });

  it('shows the email only to a friend or on an exact match', async () => {
    const byName = (await search('bob')).body;
    expect(byName.find((u) => u.id === bob.id)).toMatchObject({
      email: null,
      relationship: 'request_received',
    });
    expect(byName.find((u) => u.id === cy.id)).toMatchObject({
      email: 'cy@example.com',
      relationship: 'friend',
    });
    expect((await search('dee')).body).toEqual([
      expect.objectContaining({ email: null, relationship: 'request_sent' }),
    ]);

    // A friend is found by a prefix of their email, and shown with it.
    expect((await search('cy@exa')).body).toEqual([
      expect.objectContaining({ id: cy.id, email: 'cy@example.com' }),
    ]);
    expect((await search(' Bob.Ray@Example.com ')).body).toEqual([
      expect.objectContaining({ id: bob.id, email: 'bob.ray@example.com', firstName: 'Bob' }),
    ]);
  });

  it("never confirms a prefix of a stranger's hidden email", async () => {
    // Rebuilding an address one character at a time: no prefix, however long, finds them
    // ('b' to 'bob' find him by his first name, which everyone may see).
    const address = 'bob.ray@example.com';
    for (let length = 'bob.'.length; length < address.length; length++) {
      const found = (await search(address.slice(0, length))).body;
      expect(
        found.map((u) => u.id),
        address.slice(0, length),
      ).not.toContain(bob.id);
    }
    expect((await search(address)).body.map((u) => u.id)).toEqual([bob.id]);
  });

  it('never orders strangers of the same name by their hidden emails', async () => {
    // Probe accounts of the stranger's name, at addresses of the searcher's choosing: were ties
    // broken by email, where the stranger falls among them would spell out the hidden address.
    const victim = await named(app, 'mvictim@example.com', 'Zed', 'Quill');
    const low = await named(app, 'l-probe@example.com', 'Zed', 'Quill');
    const high = await named(app, 'n-probe@example.com', 'Zed', 'Quill');
    const higher = await named(app, 'o-probe@example.com', 'Zed', 'Quill');
    const found = (await search('zed quill')).body;
    expect(found.map((u) => u.email)).toEqual([null, null, null, null]);
    // Ties go by what every searcher sees anyway: the person's id.
    const ids = [victim.id, low.id, high.id, higher.id].sort();
    expect(found.map((u) => u.id)).toEqual(ids);
  });

  it('answers 429 with Retry-After past 60 searches a minute by one person', async () => {
    // A limit holds over any minute, a window's edge included (decision 11).
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof dee.client.get>> | null = null;
    for (let i = 0; i < 61 && last?.status !== 429; i++) {
      last = await dee.client.get(`/api/users/search?query=ann`);
      statuses.push(last.status);
    }
    expect(statuses.slice(0, -1).every((status) => status === 200)).toBe(true);
    expect(statuses.length).toBeGreaterThan(1);
    expect(last!.status).toBe(429);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(last!.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(last!.body).toMatchObject({ code: 'rate_limited' });
    // Others search on.
    expect((await search('dee')).status).toBe(200);
  });

  it('returns at most 20', async () => {
    const many = await search('many');
    expect(many.body).toHaveLength(20);
    expect(
      many.body.every(
        (u) => u.lastName === 'Many' && u.email === null && u.relationship === 'none',
      ),
    ).toBe(true);
  });

  it('treats % and _ as themselves', async () => {
    expect((await search('%')).body).toEqual([]);
    expect((await search('_')).body).toEqual([]);
  });

  it('refuses an empty query with the field named, and strangers', async () => {
    for (const path of [
      '/api/users/search',
      '/api/users/search?query=',
      '/api/users/search?query=%20%20',
      '/api/users/search?query=a&query=b',
    ]) {
      const response = await ann.client.get(path);
      expect(response.status, path).toBe(400);
      expect(response.body, path).toMatchObject({ errors: [{ field: 'query' }] });
    }
    expect((await app.anonymous().get('/api/users/search?query=bob')).status).toBe(401);
  });

  it('is answered from the indexes, not by reading the whole table', async () => {
    const db = new pg.Client({ connectionString: app.databaseUrl });
    await db.connect();
    try {
      // The table is tiny, so the planner would rightly scan it; forbid that to show an index can answer.
      await db.query('SET enable_seqscan = off');
      for (const query of ['bob', 'bob ray', 'bob.ray@example.com']) {
        const { text, values } = searchUsersQuery(ann.id, query);
        const plan = (await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${text}`, values)).rows
          .map((row) => row['QUERY PLAN'])
          .join('\n');
        expect(plan, plan).toMatch(/rm_users_search_(email|first_name|last_name)/);
        expect(plan, plan).not.toMatch(/Seq Scan on rm_users/);
      }
    } finally {
      await db.end();
    }
  });
});
