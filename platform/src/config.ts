import { z } from 'zod';

/**
 * Every setting the product reads, from the environment, validated once at start. This is the
 * only module that touches process.env.
 */
const booleanFromEnv = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const optionalUrl = z.url().optional();

export const configSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(5000),
    PUBLIC_URL: optionalUrl,
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      .default('info'),
    /** `pretty`: one readable line per entry; `json`: for log collectors. */
    LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
    DATABASE_URL: optionalUrl,
    /**
     * How much lower than the rest the CPU priority of the PostgreSQL backends that append to the
     * log runs, where that server shares this host (a nice value; decision 35); 0 leaves them be.
     */
    APPEND_NICE: z.coerce.number().int().min(0).max(19).default(10),
    /**
     * How much lower than the services the CPU priority of an operator's `projections rebuild`
     * runs: its process and its PostgreSQL backends where that server shares this host (a nice
     * value; decision 36); 0 leaves them be.
     */
    REBUILD_NICE: z.coerce.number().int().min(0).max(19).default(10),
    /**
     * A new build a service begins (a projector's version raised at deploy) with at least this
     * many events to load is loaded by a process of its own, as an operator's rebuild is, so the
     * service's own thread keeps serving; 0 loads every build in the service.
     */
    BUILD_APART_EVENTS: z.coerce.number().int().min(0).default(50_000),
    DATA_DIR: z.string().default('.data'),
    REDIS_URL: optionalUrl,
    /** Key prefix of the notifier's queues in Redis; tests give each run its own. */
    QUEUE_PREFIX: z
      .string()
      .regex(/^[\w-]+$/)
      .default('wagers'),
    EVENT_STORE: z.enum(['postgres', 'eventstoredb']).default('postgres'),
    EVENTSTORE_URL: z.string().optional(),
    SMTP_URL: optionalUrl,
    MAIL_FROM: z.string().default('Wagers <no-reply@wagers.local>'),
    SUPPORT_EMAIL: z.email().default('support@wagers.local'),
    PRIVACY_EMAIL: z.email().default('privacy@wagers.local'),
    TWILIO_ACCOUNT_SID: z.string().optional(),
    TWILIO_AUTH_TOKEN: z.string().optional(),
    TWILIO_FROM_NUMBER: z.string().optional(),
    /** Where the twilio client sends its REST calls instead of https://api.twilio.com (tests, a local mock). */
    TWILIO_API_URL: optionalUrl,
    /** Jobs this process's notifier worker runs at once; 0 runs no worker here (dispatch only). */
    NOTIFIER_CONCURRENCY: z.coerce.number().int().min(0).max(64).default(4),
    /** How often the notifier compares its clock with the bets' delayed deadlines (reminders, standing reports). */
    DEADLINE_CHECK_INTERVAL_MS: z.coerce.number().int().min(50).max(3_600_000).default(60_000),
    OPERATOR_USER: z.string().default('operator'),
    OPERATOR_PASSWORD: z.string().min(12).optional(),
    SESSION_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
    /** How long a read (or a command) waits for the writes its session made to be projected. */
    READ_YOUR_WRITES_TIMEOUT_MS: z.coerce.number().int().min(0).max(60_000).default(2000),
    /**
     * How long a process may answer a bets list or a bet again, unread, while the read models it
     * came from are heard not to have moved (decision 29); 0 reads every one.
     */
    READ_CACHE_MS: z.coerce.number().int().min(0).max(10_000).default(1000),
    DEV_INBOX: booleanFromEnv.optional(),
    AVATAR_DIR: z.string().optional(),
    /** Signs avatar upload URLs; every process that issues or accepts them needs the same one. */
    UPLOAD_SIGNING_SECRET: z.string().min(32).optional(),
    /** Signs the unsubscribe links in notification emails; the notifier and the command service need the same one. */
    NOTIFICATION_SIGNING_SECRET: z.string().min(32).optional(),
    S3_ENDPOINT: optionalUrl,
    S3_BUCKET: z.string().optional(),
    S3_REGION: z.string().default('us-east-1'),
    S3_ACCESS_KEY_ID: z.string().optional(),
    S3_SECRET_ACCESS_KEY: z.string().optional(),
    S3_PUBLIC_URL: optionalUrl,
    GOOGLE_CLIENT_ID: z.string().optional(),
    GOOGLE_CLIENT_SECRET: z.string().optional(),
    GITHUB_CLIENT_ID: z.string().optional(),
    GITHUB_CLIENT_SECRET: z.string().optional(),
    /** GitHub Enterprise hosts; github.com by default. */
    GITHUB_BASE_URL: z.url().default('https://github.com'),
    GITHUB_API_URL: z.url().default('https://api.github.com'),
    /** OpenID issuer whose discovery document Google sign-in reads. */
    GOOGLE_ISSUER: z.url().default('https://accounts.google.com'),
    X_CLIENT_ID: z.string().optional(),
    X_CLIENT_SECRET: z.string().optional(),
    X_BASE_URL: z.url().default('https://x.com'),
    X_API_URL: z.url().default('https://api.x.com'),
    /** Apple's Services ID, team id, key id and the key's PKCS#8 PEM (newlines may be written \\n). */
    APPLE_CLIENT_ID: z.string().optional(),
    APPLE_TEAM_ID: z.string().optional(),
    APPLE_KEY_ID: z.string().optional(),
    APPLE_PRIVATE_KEY: z.string().optional(),
    APPLE_ISSUER: z.url().default('https://appleid.apple.com'),
  })
  .superRefine((env, ctx) => {
    // Links already mailed must keep working across restarts and between the notifier, which
    // signs them, and the command service, which reads them.
    if (env.NODE_ENV === 'production' && !env.NOTIFICATION_SIGNING_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['NOTIFICATION_SIGNING_SECRET'],
        message:
          'is required in production (32+ characters, the same for every service): it signs the unsubscribe links of emails',
      });
    }
    if (env.EVENT_STORE === 'eventstoredb' && !env.EVENTSTORE_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['EVENTSTORE_URL'],
        message: 'is required when EVENT_STORE=eventstoredb',
      });
    }
  })
  .transform((env) => ({
    ...env,
    /** The development inbox and outbox: on unless production, or when asked for. */
    devInbox: env.DEV_INBOX ?? env.NODE_ENV !== 'production',
    production: env.NODE_ENV === 'production',
    logFormat: env.LOG_FORMAT ?? (env.NODE_ENV === 'development' ? 'pretty' : 'json'),
  }));

export type Config = z.infer<typeof configSchema>;

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Parses the environment; a bad value throws a ConfigError naming each variable at fault. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  const result = configSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration: ${lines.join('; ')}`);
  }
  return result.data;
}

/**
 * This process's environment with `settings` in place of what it held (a setting given as
 * undefined is left out): for a process of the product's that this one starts, which reads its
 * configuration from the environment it is given.
 */
export function environmentWith(
  settings: Record<string, string | undefined>,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries({ ...process.env, ...settings })) {
    if (value !== undefined && !(key in settings && settings[key] === undefined)) env[key] = value;
  }
  return env;
}
