/** Every in-app route and server page the SPA links to, in one place. */
export const paths = {
  home: '/',
  friends: '/friends',
  createBet: '/bets/create',
  createBetWith: (opponentId: string) =>
    `/bets/create?opponentId=${encodeURIComponent(opponentId)}`,
  bet: (id: string) => `/bets/${encodeURIComponent(id)}`,
  profile: '/profile',
  audit: '/audit',
  auditBet: (id: string) => `/audit/bets/${encodeURIComponent(id)}`,
  invite: (code: string) => `/invite/${encodeURIComponent(code)}`,
  privacy: '/privacy',
  terms: '/terms',
  optInProof: '/opt-in-proof',
  /** Server page, reached by browser navigation. */
  login: (redirect?: string) =>
    redirect && redirect !== '/' ? `/api/login?redirect=${queryValue(redirect)}` : '/api/login',
  logout: '/api/logout',
} as const;

/** Slashes are legal in a query value; keeping them makes the return path readable. */
function queryValue(value: string): string {
  return encodeURIComponent(value).replace(/%2F/gi, '/');
}
