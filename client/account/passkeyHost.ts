/**
 * Whether this page can hold passkeys, asked before a passkey button is shown. WebAuthn binds a passkey to
 * a domain name (the relying party ID): a page opened at an IP address (127.0.0.1, [::1], 192.168.…) is
 * refused by every browser, as is a browser without WebAuthn or a page outside a secure context (http
 * on anything but localhost). The account page then hides the buttons and says why, instead of letting
 * the browser fail with a message that seems to blame the server.
 */
export type PasskeyBlock = { why: 'ipHost'; host: string; url: string } | { why: 'ipHostRemote'; host: string } | { why: 'unsupported' } | { why: 'insecure' };

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

export function passkeyBlock(loc: Pick<Location, 'hostname' | 'port' | 'protocol' | 'pathname' | 'hash'> = location, w: { PublicKeyCredential?: unknown; isSecureContext?: boolean } = window): PasskeyBlock | null {
  const host = loc.hostname;
  if (IPV4.test(host) || host.includes(':') || host.startsWith('[')) {
    // A loopback address is this machine: the same server answers as localhost.
    const loopback = /^127\./.test(host) || host === '[::1]' || host === '::1';
    if (!loopback) return { why: 'ipHostRemote', host };
    return { why: 'ipHost', host, url: `${loc.protocol}//localhost${loc.port ? `:${loc.port}` : ''}${loc.pathname}${loc.hash}` };
  }
  if (!w.PublicKeyCredential) return { why: 'unsupported' };
  if (w.isSecureContext === false) return { why: 'insecure' };
  return null;
}
