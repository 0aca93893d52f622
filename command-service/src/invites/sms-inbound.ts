import express, { Router } from 'express';
import twilio from 'twilio';
import { z } from 'zod';
import { handle } from '@wagers/platform/aggregate';
import { forbidden, notFound } from '@wagers/platform/errors';
import { parseInput } from '@wagers/platform/http/validate';
import { commandContext, recordWrite } from '../context.ts';
import type { CommandServiceDeps } from '../deps.ts';
import {
  OPT_IN_KEYWORDS,
  OPT_OUT_KEYWORDS,
  smsOptOutAggregate,
  type SmsOptOutCommand,
} from '@wagers/domain/invites/sms-opt-out';

const inboundSchema = z.object({
  From: z.string().regex(/^\+\d{6,15}$/, 'Not an E.164 number'),
  Body: z.string(),
});

/**
 * Twilio's inbound-message webhook. Only STOP-like and START-like replies matter: they record the
 * number's opt-out. The signature proves Twilio sent it (HMAC of our public URL and the form with
 * our auth token); without a token configured the route is off.
 */
export function smsInboundRouter(deps: CommandServiceDeps): Router {
  const router = Router();
  router.post(
    '/api/sms/inbound',
    express.urlencoded({ extended: false, limit: '20kb' }),
    async (req, res) => {
      const authToken = deps.config.TWILIO_AUTH_TOKEN;
      if (!authToken) throw notFound('SMS is not configured');
      const params = (req.body ?? {}) as Record<string, string>;
      const url = `${deps.publicUrl().replace(/\/$/, '')}/api/sms/inbound`;
      const signature = req.header('x-twilio-signature') ?? '';
      if (!signature || !twilio.validateRequest(authToken, signature, url, params)) {
        throw forbidden('The request is not signed by Twilio');
      }
      const { From: phone, Body: body } = parseInput(inboundSchema, params);
      const keyword = body.trim().toUpperCase();
      const command: SmsOptOutCommand | null = OPT_OUT_KEYWORDS.includes(keyword)
        ? { type: 'OptOut', data: { phone, keyword } }
        : OPT_IN_KEYWORDS.includes(keyword)
          ? { type: 'OptIn', data: { phone, keyword } }
          : null;
      if (command) {
        const result = await handle(
          deps.store,
          smsOptOutAggregate,
          phone,
          command,
          commandContext(req, deps.runtime),
        );
        await recordWrite(deps.sessions, req, res, result.position);
        req.log.info({ keyword: command.type }, 'SMS opt-out keyword received');
      }
      // Twilio answers STOP itself (Advanced Opt-Out); we reply with nothing.
      res.type('text/xml').send('<?xml version="1.0" encoding="UTF-8"?><Response></Response>');
    },
  );
  return router;
}
