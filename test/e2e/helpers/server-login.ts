// Logging in as the browser's login page does: the ticket from the link's fragment, POSTed to /login from
// a page of the server (Origin), traded for the session cookie.
export interface LoginResult {
  status: number;
  /** The whole Set-Cookie header ('' when none). */
  setCookie: string;
  /** `name=value`, ready for a Cookie header ('' when none). */
  cookie: string;
}

export async function loginWithLink(
  link: string,
  ticket = new URL(link).hash.slice(1),
): Promise<LoginResult> {
  const { origin } = new URL(link);
  const response = await fetch(`${origin}/login`, {
    method: 'POST',
    headers: { origin, 'content-type': 'application/json' },
    body: JSON.stringify({ ticket }),
    redirect: 'manual',
  });
  await response.arrayBuffer();
  const setCookie = response.headers.get('set-cookie') ?? '';
  return { status: response.status, setCookie, cookie: setCookie.split(';')[0] ?? '' };
}
