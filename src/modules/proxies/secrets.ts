// Proxy passwords at rest: AES-256-GCM under SECRET_KEY. The key is read at use time, not
// at construction: `svc openapi` builds the app without one.
import type { Config } from '../../config.js';
import { decryptSecret, encryptSecret } from '../../lib/crypto.js';

export class ProxySecrets {
  constructor(private readonly config: Pick<Config, 'secretKey'>) {}

  private key(): Buffer {
    if (!this.config.secretKey) throw new Error('SECRET_KEY is not loaded; proxy passwords cannot be sealed or opened');
    return this.config.secretKey;
  }

  seal(password: string): string | null {
    return password ? encryptSecret(password, this.key()) : null;
  }

  open(sealed: string | null): string {
    return sealed ? decryptSecret(sealed, this.key()) : '';
  }
}
