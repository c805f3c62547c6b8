// What a webhook URL may be: HTTPS, no user-info, and a host whose every address is public
// (address-policy.ts). Checked at create and update; the worker checks again at each attempt.
import { ValidationError } from '../../core/errors.js';
import { AddressRefusedError, type AddressPolicy, vetHost } from '../../lib/address-policy.js';

const refuse = (message: string) => new ValidationError([{ path: 'body.url', message }]);

export async function checkEndpointUrl(raw: string, policy: AddressPolicy): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse('is not a valid URL');
  }
  if (url.protocol !== 'https:') throw refuse('must use https');
  if (url.username !== '' || url.password !== '') throw refuse('must not contain a user name or password');
  if (url.hash !== '') throw refuse('must not contain a fragment');
  try {
    await vetHost(url.hostname, policy);
  } catch (error) {
    if (error instanceof AddressRefusedError) throw refuse(`is refused: ${error.reason}`);
    throw error;
  }
  return url.toString();
}
