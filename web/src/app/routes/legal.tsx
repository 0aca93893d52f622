import { PrivacyPolicy } from '@/features/legal/components/privacy-policy.tsx';
import { SmsConsent } from '@/features/legal/components/sms-consent.tsx';
import { Terms } from '@/features/legal/components/terms.tsx';

export const PrivacyRoute = PrivacyPolicy;
export const TermsRoute = Terms;
export const OptInProofRoute = SmsConsent;
