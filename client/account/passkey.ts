/**
 * Passkeys in the browser (@simplewebauthn/browser, loaded only when a passkey button is pressed): the
 * server's options go to the browser's authenticator, its answer back to the server.
 */
import { call } from './api';

/** Adds a passkey named `name` (none: the server's default); `password` is needed unless this session signed in within 5 minutes. */
export async function addPasskey(o: { password?: string; name?: string } = {}): Promise<number> {
  const { startRegistration } = await import('@simplewebauthn/browser');
  const { ceremony, options } = await call<{ ceremony: string; options: never }>('/auth/passkey/register/options', o.password ? { password: o.password } : {});
  const response = await startRegistration({ optionsJSON: options });
  return (await call<{ passkeys: number }>('/auth/passkey/register', { ceremony, response, ...(o.name ? { name: o.name } : {}) })).passkeys;
}

export async function signInWithPasskey(): Promise<string> {
  const { startAuthentication } = await import('@simplewebauthn/browser');
  const { ceremony, options } = await call<{ ceremony: string; options: never }>('/auth/passkey/login/options', {});
  const response = await startAuthentication({ optionsJSON: options });
  return (await call<{ username: string }>('/auth/passkey/login', { ceremony, response })).username;
}
