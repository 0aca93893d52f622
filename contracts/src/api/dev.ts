import { z } from 'zod';

/** GET /api/dev/mail (development only), newest first. */
export const devMailSchema = z.object({
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  sentAt: z.string(),
});
export type DevMail = z.infer<typeof devMailSchema>;

/** GET /api/dev/sms (development only), newest first. */
export const devSmsSchema = z.object({ to: z.string(), body: z.string(), sentAt: z.string() });
export type DevSms = z.infer<typeof devSmsSchema>;
