import { escapeHtml } from '@wagers/platform/html';
import { Router } from 'express';
import type { Pool } from 'pg';
import type { DevMail, DevSms } from '@wagers/contracts/api/dev';

/** The development inbox and SMS outbox. Mounted only outside production. */
export function devOutboxRouter(pool: Pool): Router {
  const router = Router();

  async function mail(): Promise<DevMail[]> {
    const result = await pool.query<{
      recipient: string;
      subject: string | null;
      text_body: string;
      html_body: string | null;
      sent_at: Date;
    }>(
      `SELECT recipient, subject, text_body, html_body, sent_at FROM dev_outbox WHERE channel = 'email' ORDER BY id DESC LIMIT 200`,
    );
    return result.rows.map((row) => ({
      to: row.recipient,
      subject: row.subject ?? '',
      text: row.text_body,
      html: row.html_body ?? '',
      sentAt: row.sent_at.toISOString(),
    }));
  }

  async function sms(): Promise<DevSms[]> {
    const result = await pool.query<{ recipient: string; text_body: string; sent_at: Date }>(
      `SELECT recipient, text_body, sent_at FROM dev_outbox WHERE channel = 'sms' ORDER BY id DESC LIMIT 200`,
    );
    return result.rows.map((row) => ({
      to: row.recipient,
      body: row.text_body,
      sentAt: row.sent_at.toISOString(),
    }));
  }

  router.get('/api/dev/mail', async (_req, res) => {
    res.json(await mail());
  });
  router.get('/api/dev/sms', async (_req, res) => {
    res.json(await sms());
  });

  const page = (
    title: string,
    items: string,
  ) => `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${title} · Wagers</title>
<style>body{font-family:system-ui,sans-serif;max-width:760px;margin:24px auto;padding:0 16px;color:#0f172a}
article{border:1px solid #e2e8f0;border-radius:8px;padding:12px 16px;margin:12px 0}
.meta{color:#475569;font-size:.9rem}</style></head>
<body><h1>${title}</h1><p class="meta">Development only: nothing here left this machine.</p>${items || '<p>Nothing yet.</p>'}</body></html>`;

  router.get('/dev/mail', async (_req, res) => {
    const items = (await mail())
      .map(
        (
          m,
        ) => `<article><h2>${escapeHtml(m.subject)}</h2><p class="meta">To ${escapeHtml(m.to)} · ${escapeHtml(m.sentAt)}</p>
<div class="body">${m.html}</div></article>`,
      )
      .join('\n');
    res.type('html').send(page('Development inbox', items));
  });
  router.get('/dev/sms', async (_req, res) => {
    const items = (await sms())
      .map(
        (m) =>
          `<article><p class="meta">To ${escapeHtml(m.to)} · ${escapeHtml(m.sentAt)}</p><p>${escapeHtml(m.body)}</p></article>`,
      )
      .join('\n');
    res.type('html').send(page('Development SMS outbox', items));
  });
  return router;
}
