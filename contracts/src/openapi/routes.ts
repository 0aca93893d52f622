import { z } from 'zod';
import {
  emailLoginRequestSchema,
  localRedirectSchema,
  loginConfirmRequestSchema,
  providerEmailRequestSchema,
} from '../api/auth.ts';
import { betStatuses } from '../api/bet-rules.ts';
import {
  betHistoryEntrySchema,
  betSchema,
  betTermsSchema,
  createBetRequestSchema,
  createBetResponseSchema,
  resolveBetRequestSchema,
  statsSchema,
} from '../api/bets.ts';
import { devMailSchema, devSmsSchema } from '../api/dev.ts';
import {
  friendRequestSchema,
  friendRequestSentSchema,
  sendFriendRequestSchema,
  userSearchResultSchema,
} from '../api/friends.ts';
import {
  acceptInviteResponseSchema,
  createInviteRequestSchema,
  createInviteResponseSchema,
  inviteViewSchema,
} from '../api/invites.ts';
import {
  accountDeletedResponseSchema,
  avatarUploadUrlRequestSchema,
  deleteAccountRequestSchema,
  avatarUploadUrlResponseSchema,
  phoneSettingsSchema,
  setAvatarRequestSchema,
  setPhoneRequestSchema,
  updateProfileRequestSchema,
} from '../api/profile.ts';
import { signedInUserSchema, userSchema } from '../api/user.ts';
import { activityEntrySchema, activityQuerySchema } from '../api/activity.ts';
import {
  auditHistoryQuerySchema,
  auditSearchQuerySchema,
  auditTrailQuerySchema,
} from '../api/audit.ts';
import { headToHeadListSchema, headToHeadSchema } from '../api/head-to-head.ts';
import {
  notificationPreferenceRequestSchema,
  notificationPreferencesSchema,
} from '../api/notifications.ts';
import { settlementSchema, settleUpSchema } from '../api/settle-up.ts';
import { json, page, route, seeOther, type DocumentedRoute } from './route.ts';

/** A cancelled bet has left every list: `deleted`. */
const betChangedSchema = z.object({ id: z.string(), status: z.enum([...betStatuses, 'deleted']) });
/** Asking someone who already asked you makes you friends at once: no request stays open. */
const friendRequestAnsweredSchema = z.object({
  id: z.string(),
  status: z.enum(['accepted', 'declined']),
  friendId: z.string(),
});
const redirectQuery = z.object({ redirect: localRedirectSchema.optional() });

const signIn = route('Sign-in');
const users = route('Users');
const friends = route('Friends');
const bets = route('Bets');
const invites = route('Invites');
const operations = route('Operations');
const development = route('Development');
const settling = route('Settling up');
const audit = route('Audit');
const notifications = route('Notifications');
/** Audit answers are described in docs/audit.md; the document names their outer shape. */
const auditObject = z.record(z.string(), z.unknown());

/**
 * Every route the services mount under /api, and the operations endpoints. A route added
 * without a line here fails the API document test.
 */
// One route a line, so the list reads as a table.
// prettier-ignore
export const documentedRoutes: DocumentedRoute[] = [
  signIn('get', '/api/login', 'Sign-in page', { 200: page('The sign-in page'), 303: seeOther('Already signed in') }, { query: redirectQuery }),
  signIn('post', '/api/login/email', 'Email a sign-in link', { 202: json(z.object({ status: z.literal('sent') }), 'Sent'), 200: page('Check your email'), 400: page('The form again, with the error'), 429: page('Too many links lately') }, { body: emailLoginRequestSchema, form: true }),
  signIn('get', '/api/login/verify', 'Confirmation page a sign-in link lands on', { 200: page('Whose account the link signs in, with a button'), 400: page('Expired or used link') }, { query: z.object({ token: z.string() }) }),
  signIn('post', '/api/login/verify', 'Use a sign-in link', { 303: seeOther('Signed in'), 400: page('Expired or used link'), 503: page('The address is still being released from an account just deleted (Retry-After)') }, { body: loginConfirmRequestSchema, form: true }),
  signIn('get', '/api/logout', 'Log out when opened from this site, the address bar or a script; a Log out button when another site sent you', { 303: seeOther('Signed out'), 200: page('A Log out button') }),
  signIn('post', '/api/logout', 'Log out', { 303: seeOther('Signed out') }),
  signIn('get', '/api/login/:provider', 'Begin signing in with google, github, x or apple', { 303: seeOther('To the provider'), 400: page('The provider cannot be reached') }, { query: redirectQuery }),
  signIn('get', '/api/login/:provider/callback', "The provider's answer", { 303: seeOther('Signed in'), 200: page('Asks for an email the provider did not share'), 400: page('Refused, with a link to try again'), 503: page('The address is still being released from an account just deleted (Retry-After)') }),
  signIn('post', '/api/login/:provider/callback', "A form_post provider's answer (Apple)", { 303: seeOther('On to the callback page'), 400: page('Already used') }),
  signIn('post', '/api/login/:provider/email', 'Give the email a provider did not share', { 200: page('Check your email'), 400: page('Refused'), 429: page('Too many links lately') }, { body: providerEmailRequestSchema, form: true }),
  users('get', '/api/auth/user', 'The signed-in user', { 200: json(signedInUserSchema) }, { signedIn: true }),
  users('put', '/api/user', 'Change your name', { 200: json(userSchema) }, { signedIn: true, body: updateProfileRequestSchema }),
  users('get', '/api/user/phone', 'Your phone number and SMS consent', { 200: json(phoneSettingsSchema) }, { signedIn: true }),
  users('put', '/api/user/phone', 'Set or remove your phone number and SMS consent', { 200: json(phoneSettingsSchema) }, { signedIn: true, body: setPhoneRequestSchema }),
  users('delete', '/api/user', 'Delete your account (type its email to confirm); signs you out on every device', { 200: json(accountDeletedResponseSchema, 'Deleted') }, { signedIn: true, body: deleteAccountRequestSchema }),
  users('post', '/api/avatar/upload-url', 'A URL to upload a picture to', { 200: json(avatarUploadUrlResponseSchema) }, { signedIn: true, body: avatarUploadUrlRequestSchema }),
  users('put', '/api/avatar/uploads/:userId/:objectId', 'Upload a picture (signed URL, image body)', { 200: json(z.object({ status: z.literal('uploaded') })) }),
  users('put', '/api/avatar', 'Use an uploaded picture', { 200: json(userSchema) }, { signedIn: true, body: setAvatarRequestSchema }),
  users('get', '/api/users/search', 'Find people by email or name', { 200: json(z.array(userSearchResultSchema)) }, { signedIn: true, query: z.object({ query: z.string() }) }),
  friends('get', '/api/friends', 'Your friends', { 200: json(z.array(userSchema)) }, { signedIn: true }),
  friends('get', '/api/friend-requests', 'Pending friend requests, sent and received', { 200: json(z.array(friendRequestSchema)) }, { signedIn: true }),
  friends('post', '/api/friend-requests', 'Ask someone to be your friend', { 201: json(friendRequestSentSchema, 'Sent') }, { signedIn: true, body: sendFriendRequestSchema }),
  friends('post', '/api/friend-requests/:id/accept', 'Accept a friend request', { 200: json(friendRequestAnsweredSchema) }, { signedIn: true }),
  friends('post', '/api/friend-requests/:id/decline', 'Decline a friend request', { 200: json(friendRequestAnsweredSchema) }, { signedIn: true }),
  bets('get', '/api/bets', 'Your bets', { 200: json(z.array(betSchema)) }, { signedIn: true }),
  bets('post', '/api/bets', 'Propose a bet', { 201: json(createBetResponseSchema, 'Proposed') }, { signedIn: true, body: createBetRequestSchema, idempotent: true }),
  bets('get', '/api/bets/:id', 'A bet', { 200: json(betSchema) }, { signedIn: true }),
  bets('delete', '/api/bets/:id', 'Cancel a bet you proposed', { 200: json(betChangedSchema) }, { signedIn: true }),
  bets('get', '/api/bets/:id/history', "A bet's history", { 200: json(z.array(betHistoryEntrySchema)) }, { signedIn: true }),
  bets('post', '/api/bets/:id/accept', 'Accept a bet', { 200: json(betChangedSchema) }, { signedIn: true }),
  bets('post', '/api/bets/:id/decline', 'Decline a bet', { 200: json(betChangedSchema) }, { signedIn: true }),
  bets('post', '/api/bets/:id/resolve', 'Report who won', { 200: json(betChangedSchema) }, { signedIn: true, body: resolveBetRequestSchema }),
  bets('post', '/api/bets/:id/resend-invite', 'Send the invitation again', { 200: json(betChangedSchema) }, { signedIn: true, idempotent: true }),
  bets('get', '/api/stats', 'Your win and loss figures', { 200: json(statsSchema) }, { signedIn: true }),
  bets('get', '/api/bets/:id/terms', "A bet's terms: whether a report stands, any draw offer", { 200: json(betTermsSchema) }, { signedIn: true }),
  bets('post', '/api/bets/:id/offer-draw', 'Offer to call a disputed bet a draw', { 200: json(betChangedSchema) }, { signedIn: true }),
  bets('post', '/api/bets/:id/accept-draw', 'Accept the draw the other side offered', { 200: json(betChangedSchema) }, { signedIn: true }),
  bets('get', '/api/head-to-head', 'Your record against each friend', { 200: json(headToHeadListSchema) }, { signedIn: true }),
  bets('get', '/api/head-to-head/:userId', 'Your record against one person', { 200: json(headToHeadSchema) }, { signedIn: true }),
  bets('get', '/api/activity', 'Recent activity on your bets and friendships', { 200: json(z.array(activityEntrySchema)) }, { signedIn: true, query: activityQuerySchema }),
  settling('get', '/api/settle-up', 'What you owe and are owed, per friend', { 200: json(settleUpSchema) }, { signedIn: true }),
  settling('get', '/api/bets/:id/settlement', "A completed money bet's payment", { 200: json(settlementSchema) }, { signedIn: true }),
  settling('post', '/api/bets/:id/mark-paid', 'The loser says they paid', { 200: json(betChangedSchema) }, { signedIn: true }),
  settling('post', '/api/bets/:id/confirm-receipt', 'The winner confirms the payment arrived', { 200: json(betChangedSchema) }, { signedIn: true }),
  settling('post', '/api/bets/:id/not-received', 'The winner says the payment did not arrive', { 200: json(betChangedSchema) }, { signedIn: true }),
  notifications('get', '/api/notification-preferences', 'Which emails and text messages you get', { 200: json(notificationPreferencesSchema) }, { signedIn: true }),
  notifications('put', '/api/notification-preferences', 'Turn one kind of email or text message on or off', { 200: json(notificationPreferenceRequestSchema) }, { signedIn: true, body: notificationPreferenceRequestSchema }),
  notifications('get', '/api/notifications/unsubscribe', 'Unsubscribe page a signed email link opens', { 200: page('Asks to confirm'), 404: page('The link is not valid') }, { query: z.object({ token: z.string() }) }),
  notifications('post', '/api/notifications/unsubscribe', 'Unsubscribe in one click (signed link, no session)', { 200: page('Unsubscribed'), 404: page('The link is not valid') }, { query: z.object({ token: z.string() }) }),
  audit('get', '/api/audit/bets', 'Find bets by id, participant or date (auditors)', { 200: json(z.array(auditObject)) }, { signedIn: true, query: auditSearchQuerySchema }),
  audit('get', '/api/audit/bets/:id/history', "A bet's events, each with the state as of it, or those recorded by a moment and the state then (auditors)", { 200: json(auditObject) }, { signedIn: true, query: auditHistoryQuerySchema }),
  audit('get', '/api/audit/bets/:id/export', "A bet's stream as stored, with its hashes (auditors)", { 200: json(auditObject) }, { signedIn: true }),
  audit('get', '/api/audit/trail', 'Who looked at which bet, when (auditors)', { 200: json(z.array(auditObject)) }, { signedIn: true, query: auditTrailQuerySchema }),
  invites('post', '/api/invites', 'Invite someone new by email or SMS', { 201: json(createInviteResponseSchema, 'Sent') }, { signedIn: true, body: createInviteRequestSchema, idempotent: true }),
  invites('get', '/api/invites/:code', 'An invitation', { 200: json(inviteViewSchema) }),
  invites('post', '/api/invites/:code/accept', 'Accept an invitation', { 200: json(acceptInviteResponseSchema) }, { signedIn: true }),
  invites('post', '/api/sms/inbound', "Twilio's webhook for STOP and START replies", { 200: { description: 'Empty TwiML', media: 'text/xml' } }),
  development('get', '/api/dev/mail', 'Development inbox', { 200: json(z.array(devMailSchema)) }),
  development('get', '/api/dev/sms', 'Development SMS outbox', { 200: json(z.array(devSmsSchema)) }),
  operations('get', '/api/openapi.json', 'This document', { 200: json(z.record(z.string(), z.unknown())) }),
  operations('get', '/api/docs', 'A readable reference of this document', { 200: page('The reference page') }),
  operations('get', '/api/docs/init.js', "The reference page's script", { 200: { description: 'JavaScript', media: 'text/javascript' } }),
  operations('get', '/healthz', 'Alive', { 200: json(z.object({ status: z.literal('ok') })) }),
  operations('get', '/readyz', 'Dependencies answer', { 200: json(z.object({ status: z.string(), checks: z.record(z.string(), z.string()) })), 503: json(z.object({ status: z.string(), checks: z.record(z.string(), z.string()) }), 'Not ready') }),
  operations('get', '/metrics', 'Prometheus metrics', { 200: { description: 'Prometheus text format', media: 'text/plain' } }),
];
