/** Product facts shown on several pages; change them here only. */
export const site = {
  name: 'Wagers',
  supportEmail: 'support@wagers.local',
  privacyEmail: 'privacy@wagers.local',
  legalUpdated: 'October 25, 2025',
  minimumAge: 18,
  liabilityCapUsd: 100,
} as const;
