import { escapeHtml } from '@wagers/platform/html';

/** A bare page for people arriving from an email, signed out. */
export function unsubscribePage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Wagers</title>
</head>
<body><main>
<p><a href="/">Wagers</a></p>
<h1>${escapeHtml(title)}</h1>
${body}
</main></body>
</html>`;
}
