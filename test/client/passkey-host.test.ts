/** Where the account page hides the passkey buttons, and the address it suggests instead (client/account/passkeyHost.ts). */
import { describe, expect, it } from 'vitest';
import { passkeyBlock } from '../../client/account/passkeyHost';

const at = (hostname: string, port = '8000', protocol = 'http:') => ({ hostname, port, protocol, pathname: '/', hash: '#/account' });
const webauthn = { PublicKeyCredential: class {}, isSecureContext: true };

describe('passkeys on this page', () => {
  it('work at a domain name with WebAuthn in a secure context', () => {
    expect(passkeyBlock(at('localhost'), webauthn)).toBeNull();
    expect(passkeyBlock(at('watergate.example', '', 'https:'), webauthn)).toBeNull();
  });
  it('cannot at an IP address: a loopback one is sent to localhost at the same port and page', () => {
    expect(passkeyBlock(at('127.0.0.1'), webauthn)).toEqual({ why: 'ipHost', host: '127.0.0.1', url: 'http://localhost:8000/#/account' });
    expect(passkeyBlock(at('[::1]'), webauthn)).toMatchObject({ why: 'ipHost', url: 'http://localhost:8000/#/account' });
    expect(passkeyBlock(at('192.168.1.20'), webauthn)).toEqual({ why: 'ipHostRemote', host: '192.168.1.20' });
  });
  it('cannot without WebAuthn or outside a secure context', () => {
    expect(passkeyBlock(at('localhost'), {})).toEqual({ why: 'unsupported' });
    expect(passkeyBlock(at('game.lan'), { PublicKeyCredential: class {}, isSecureContext: false })).toEqual({ why: 'insecure' });
  });
});
