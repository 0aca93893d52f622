import { describe, expect, it } from 'vitest';
import { ConfigError, environmentWith, loadConfig } from './config.ts';

describe('configuration', () => {
  it('starts on embedded defaults with nothing set', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 5000,
      EVENT_STORE: 'postgres',
      devInbox: true,
      production: false,
    });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.REDIS_URL).toBeUndefined();
  });

  it('names the variable that is wrong', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'not a url' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ EVENT_STORE: 'eventstoredb' })).toThrow(/EVENTSTORE_URL/);
  });

  it('turns the development inbox off in production', () => {
    const secret = 'x'.repeat(32);
    expect(
      loadConfig({ NODE_ENV: 'production', NOTIFICATION_SIGNING_SECRET: secret }).devInbox,
    ).toBe(false);
  });

  it('refuses production without the secret that signs unsubscribe links', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/NOTIFICATION_SIGNING_SECRET/);
  });

  it('gives a process it starts this environment with the settings given in place, and none given as undefined', () => {
    const env = environmentWith({ DATABASE_URL: 'postgres://elsewhere/db', PATH: undefined });
    expect(env.DATABASE_URL).toBe('postgres://elsewhere/db');
    expect(env).not.toHaveProperty('PATH');
    expect(env.HOME).toBe(process.env.HOME);
    expect(loadConfig({ ...env, BUILD_APART_EVENTS: '0' }).BUILD_APART_EVENTS).toBe(0);
    expect(loadConfig({}).BUILD_APART_EVENTS).toBe(50_000);
  });
});
