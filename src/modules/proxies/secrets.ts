// Proxy passwords at rest: AES-256-GCM under SECRET_KEY, which start-up has resolved.
import { decryptSecret, encryptSecret } from '../../lib/crypto.js';

export class ProxySecrets {
  constructor(private readonly key: Buffer) {}

  seal(password: string): string | null {
    return password ? encryptSecret(password, this.key) : null;
  }

  open(sealed: string | null): string {
    return sealed ? decryptSecret(sealed, this.key) : '';
  }
}
