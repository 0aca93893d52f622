import type { Config } from '@wagers/platform/config';

/** The last thing `npm start` prints in development: where everything is. */
export function startBanner(
  running: { url: string; embedded: string[] },
  config: Pick<Config, 'devInbox' | 'OPERATOR_PASSWORD' | 'OPERATOR_USER'>,
): string {
  const rows: [string, string][] = [
    ['App', `${running.url}/`],
    ['API reference', `${running.url}/api/docs`],
    ...(config.devInbox
      ? ([
          ['Development inbox', `${running.url}/dev/mail`],
          ['SMS outbox', `${running.url}/dev/sms`],
        ] as [string, string][])
      : []),
    [
      'Queue board',
      config.OPERATOR_PASSWORD
        ? `${running.url}/admin/queues (user ${config.OPERATOR_USER})`
        : 'off (set OPERATOR_PASSWORD to see it)',
    ],
    [
      'Started here',
      running.embedded.length > 0 ? running.embedded.join(', ') : 'nothing embedded',
    ],
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  return [
    '',
    `  Wagers is running at ${running.url}`,
    '',
    ...rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`),
    '',
  ].join('\n');
}
