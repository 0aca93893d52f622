import type { CreateBetRequest, CreateBetResponse, Resolution } from '@wagers/contracts/api/bets';
import type { ApiPerson } from './people.ts';

function ok<T>(answer: { status: number; text: string; body: T }, what: string): T {
  if (answer.status >= 300) throw new Error(`${what} failed: ${answer.status} ${answer.text}`);
  return answer.body;
}

export async function propose(
  creator: ApiPerson,
  opponent: ApiPerson | { inviteeEmail: string },
  bet: Partial<CreateBetRequest> & { title: string },
): Promise<CreateBetResponse> {
  const to = 'user' in opponent ? { opponentId: opponent.user.id } : opponent;
  const body: CreateBetRequest = {
    description: `${bet.title}: whoever is right wins.`,
    wagerType: 'money',
    wagerAmount: '20',
    validationMode: 'both',
    ...bet,
    ...to,
  };
  return ok(
    await creator.client.post<CreateBetResponse>('/api/bets', body),
    `proposing "${bet.title}"`,
  );
}

export async function accept(opponent: ApiPerson, betId: string): Promise<void> {
  ok(await opponent.client.post(`/api/bets/${betId}/accept`), 'accepting');
}

export async function decline(opponent: ApiPerson, betId: string): Promise<void> {
  ok(await opponent.client.post(`/api/bets/${betId}/decline`), 'declining');
}

export async function resolve(
  person: ApiPerson,
  betId: string,
  resolution: Resolution,
): Promise<void> {
  ok(await person.client.post(`/api/bets/${betId}/resolve`, { resolution }), 'resolving');
}

/** A proposed and accepted bet. */
export async function activeBet(
  creator: ApiPerson,
  opponent: ApiPerson,
  bet: Partial<CreateBetRequest> & { title: string },
): Promise<string> {
  const { id } = await propose(creator, opponent, bet);
  await accept(opponent, id);
  return id;
}
