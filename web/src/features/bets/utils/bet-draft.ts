import { z } from 'zod';
import { validationModes, wagerTypes } from '@wagers/contracts/api/bet-rules';
import { nextRequest } from '../../../lib/request-key.ts';

/** Local-storage key of the create-bet draft (spec section 3). */
export const DRAFT_KEY = 'betDraft';

export const WIZARD_STEPS = [1, 2, 3, 4] as const;
export type WizardStep = (typeof WIZARD_STEPS)[number];

const draftSchema = z.object({
  step: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]),
  selectedFriendId: z.string(),
  isInviteMode: z.boolean(),
  inviteeEmail: z.string(),
  inviteePhone: z.string(),
  smsConsent: z.boolean(),
  title: z.string(),
  description: z.string(),
  wagerType: z.enum(wagerTypes),
  wagerAmount: z.string(),
  wagerDescription: z.string(),
  endDate: z.string(),
  validationMode: z.enum(validationModes),
  reportStands: z.boolean(),
  /**
   * The last body sent and its Idempotency-Key, kept with the draft until the bet is made: a send
   * whose answer was lost (the tab reloaded, the connection dropped) is sent again under the same
   * key, so the server answers with the bet it made instead of making a second one.
   */
  sent: z.object({ body: z.string(), key: z.string() }).nullable(),
});

export type BetDraft = z.infer<typeof draftSchema>;

/** Step 1, a money wager, both must confirm; a visitor who is not signed in can only invite. */
export function newDraft(isAuthenticated: boolean): BetDraft {
  return {
    step: 1,
    selectedFriendId: '',
    isInviteMode: !isAuthenticated,
    inviteeEmail: '',
    inviteePhone: '',
    smsConsent: false,
    title: '',
    description: '',
    wagerType: 'money',
    wagerAmount: '',
    wagerDescription: '',
    endDate: '',
    validationMode: 'both',
    reportStands: false,
    sent: null,
  };
}

/** Reads and removes the saved draft. A draft that cannot be parsed is ignored. */
export function takeDraft(isAuthenticated: boolean): BetDraft | null {
  try {
    const raw = localStorage.getItem(DRAFT_KEY);
    if (raw === null) return null;
    localStorage.removeItem(DRAFT_KEY);
    const parsed = draftSchema.partial().safeParse(JSON.parse(raw));
    if (!parsed.success) return null;
    const defined = Object.fromEntries(
      Object.entries(parsed.data).filter(([, value]) => value !== undefined),
    );
    return { ...newDraft(isAuthenticated), ...defined };
  } catch {
    return null;
  }
}

/** Worth keeping once the visitor has typed something that would hurt to lose. */
export function isWorthSaving(draft: BetDraft): boolean {
  return [draft.title, draft.description, draft.inviteeEmail, draft.inviteePhone].some(
    (value) => value !== '',
  );
}

export function saveDraft(draft: BetDraft): void {
  try {
    localStorage.setItem(DRAFT_KEY, JSON.stringify(draft));
  } catch {
    // Storage full or blocked: the draft simply is not kept.
  }
}

export function clearDraft(): void {
  try {
    localStorage.removeItem(DRAFT_KEY);
  } catch {
    // Nothing to clear.
  }
}

/**
 * The key to send `body` under: the draft's own while the body is the one sent last, else a new
 * one. Returns the draft that remembers it, to be saved before the request goes out.
 */
export function keyForSend(
  draft: BetDraft,
  body: unknown,
  newKey: () => string = () => crypto.randomUUID(),
): { key: string; draft: BetDraft } {
  const sent = nextRequest(draft.sent, body, newKey);
  return { key: sent.key, draft: sent === draft.sent ? draft : { ...draft, sent } };
}
