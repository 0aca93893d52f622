/** Where the provider sends the person back: a link to follow, or (form_post) a form to submit. */
export type ProviderAnswer =
  { method: 'GET'; url: string } | { method: 'POST'; url: string; form: URLSearchParams };

const decode = (value: string) =>
  value
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

function formOf(html: string, base: string): { action: string; fields: URLSearchParams } {
  const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
  if (!action) throw new Error(`no form on the provider's page: ${html.slice(0, 200)}`);
  const fields = new URLSearchParams();
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/?>/g))
    fields.set(decode(match[1] ?? ''), decode(match[2] ?? ''));
  return { action: new URL(decode(action), base).href, fields };
}

/**
 * A person at the stand-in provider over HTTP, with their own cookies there: signs in on its
 * login page with `login` (the account's subject), grants consent, and reports where the
 * provider sends them back. Only pages of the provider's own origin are followed.
 */
export class PersonAtProvider {
  private readonly cookies = new Map<string, string>();

  constructor(private readonly providerUrl: string) {}

  private async fetch(url: string, form?: URLSearchParams): Promise<globalThis.Response> {
    const response = await fetch(url, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: form,
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const index = pair.indexOf('=');
      this.cookies.set(pair.slice(0, index), pair.slice(index + 1));
    }
    return response;
  }

  async authorize(authorizationUrl: string, login: string): Promise<ProviderAnswer> {
    let response = await this.fetch(authorizationUrl);
    for (let step = 0; step < 10; step += 1) {
      const location = response.headers.get('location');
      if (location) {
        const next = new URL(location, this.providerUrl).href;
        if (!next.startsWith(this.providerUrl)) return { method: 'GET', url: next };
        response = await this.fetch(next);
        continue;
      }
      const html = await response.text();
      const { action, fields } = formOf(html, this.providerUrl);
      if (html.includes('Submitting Callback'))
        return { method: 'POST', url: action, form: fields };
      if (fields.get('prompt') === 'login') {
        fields.set('login', login);
        fields.set('password', 'any');
      }
      response = await this.fetch(action, fields);
    }
    throw new Error('the provider did not send the person back');
  }
}
