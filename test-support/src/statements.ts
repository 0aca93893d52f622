/** Anything with node-postgres's `query`: a client or a pool. */
interface Queries {
  query: (...args: never[]) => unknown;
}

/** What a client or pool was asked: each statement's name (or its text), and those refused. */
export interface StatementLog {
  sent: string[];
  /** Each one an ERROR in the server's log, which an operator reads as something gone wrong. */
  refused: string[];
}

export const statementLog = (): StatementLog => ({ sent: [], refused: [] });

/** `target` (a client or a pool), noting in `log` every statement sent through it. */
export function noting<T extends Queries>(target: T, log: StatementLog): T {
  return new Proxy(target, {
    get(object, property, receiver) {
      if (property !== 'query') return Reflect.get(object, property, receiver) as unknown;
      return async (...args: unknown[]) => {
        const statement = args[0] as string | { name?: string; text?: string };
        const label =
          typeof statement === 'string' ? statement : (statement.name ?? statement.text ?? '');
        log.sent.push(label);
        try {
          return await (object.query as (...a: unknown[]) => Promise<unknown>)(...args);
        } catch (error) {
          log.refused.push(`${label}: ${(error as Error).message}`);
          throw error;
        }
      };
    },
  });
}
