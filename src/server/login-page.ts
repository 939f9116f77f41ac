// The login page. The link `warden serve` and `warden login` print is `/login#<ticket>`: the ticket rides
// in the fragment, which browsers never send to a server, so it reaches no request line, log or Referer.
// The page's script reads it, takes it out of the address bar and out of this history entry at once
// (history.replaceState), trades it for the session cookie with a POST (a page of this server: the Origin
// check holds), and then replaces itself with the app — so neither the address bar, nor Back, nor the
// session history ever hold the ticket, and the ticket itself works only once anyway.

export const LOGIN_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Warden: signing in</title>
<script type="module" src="/login.js"></script>
</head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; padding: 0 1rem; line-height: 1.5">
<h1>Warden</h1>
<p id="status" role="status">Signing in…</p>
</body>
</html>
`;

export const LOGIN_SCRIPT = `// Reads the ticket, removes it from the address bar and history, trades it for the session cookie.
const ticket = location.hash.slice(1);
history.replaceState(null, '', '/login');
const status = document.getElementById('status');
const again =
  ' For a new link, run the command the server printed at start after \\u201cFor a new link later\\u201d (warden login, with the same --data-dir).';

if (ticket === '') {
  status.textContent = 'This address holds no login code.' + again;
} else {
  fetch('/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ticket }),
    credentials: 'same-origin',
    cache: 'no-store',
  }).then(
    async (response) => {
      if (response.ok) return location.replace('/');
      const body = await response.json().catch(() => null);
      const message = typeof body?.error?.message === 'string' ? body.error.message : 'HTTP ' + response.status;
      status.textContent = message + '.' + again;
    },
    (error) => {
      status.textContent = 'The server cannot be reached (' + String(error) + ').';
    },
  );
}
`;
