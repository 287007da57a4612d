/**
 * A software passkey authenticator for the server tests (as Chromium's virtual one is for the e2e
 * tests): an ES256 key pair, "none" attestation, user present and verified; it answers the server's
 * registration and sign-in options as a browser's navigator.credentials would.
 */
import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

const b64 = (b: Uint8Array) => Buffer.from(b).toString('base64url');
const sha256 = (b: Uint8Array | string) => createHash('sha256').update(b).digest();

export interface SoftPasskey {
  id: string;
  /** The browser's answer to POST /auth/passkey/register/options's `options`. */
  register(options: { challenge: string; rp: { id?: string }; user: { id: string } }, origin: string): Record<string, unknown>;
  /** The browser's answer to POST /auth/passkey/login/options's `options`. */
  authenticate(options: { challenge: string; rpId?: string }, origin: string): Record<string, unknown>;
}

export function softPasskey(): SoftPasskey {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const credID = randomBytes(16);
  const id = b64(credID);
  let counter = 0;
  let userHandle = '';
  const authData = (rpID: string, attested: boolean) => {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(++counter);
    const head = Buffer.concat([sha256(rpID), Buffer.from([0x01 | 0x04 | (attested ? 0x40 : 0)]), count]);
    if (!attested) return head;
    const cose = new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x!, 'base64url')],
      [-3, Buffer.from(jwk.y!, 'base64url')],
    ]);
    const len = Buffer.alloc(2);
    len.writeUInt16BE(credID.length);
    return Buffer.concat([head, Buffer.alloc(16), len, credID, Buffer.from(isoCBOR.encode(cose))]);
  };
  const clientData = (type: string, challenge: string, origin: string) => Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  return {
    id,
    register(options, origin) {
      userHandle = options.user.id;
      const rpID = options.rp.id ?? new URL(origin).hostname;
      const attestationObject = isoCBOR.encode(new Map<string, unknown>([['fmt', 'none'], ['attStmt', new Map()], ['authData', authData(rpID, true)]]) as never);
      return { id, rawId: id, type: 'public-key', clientExtensionResults: {}, response: { clientDataJSON: b64(clientData('webauthn.create', options.challenge, origin)), attestationObject: b64(attestationObject), transports: ['internal'] } };
    },
    authenticate(options, origin) {
      const data = authData(options.rpId ?? new URL(origin).hostname, false);
      const cd = clientData('webauthn.get', options.challenge, origin);
      const signature = sign('sha256', Buffer.concat([data, sha256(cd)]), privateKey);
      return { id, rawId: id, type: 'public-key', clientExtensionResults: {}, response: { authenticatorData: b64(data), clientDataJSON: b64(cd), signature: b64(signature), userHandle } };
    },
  };
}
