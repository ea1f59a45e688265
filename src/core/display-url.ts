/** A URL as shown in messages and reports: user info (a password) and the query (a token) are left out. */
export function displayURL(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname === '/' ? '' : u.pathname}`;
  } catch {
    return '(invalid URL)';
  }
}
