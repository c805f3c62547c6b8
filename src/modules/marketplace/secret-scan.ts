// Nothing secret is published: every line of a version's files (and of a block program's
// text, and the Default arguments that ship with it) is checked for the shapes of secrets
// before a version is frozen. A finding names the file, the line and the kind of secret,
// never the secret itself, nor any of the line around it.
import { StringDecoder } from 'node:string_decoder';

export interface SecretKind {
  kind: string;
  label: string;
  pattern: RegExp;
}

/** The shapes looked for. Each needs a distinctive prefix or context, so ordinary code is not flagged. */
export const SECRET_KINDS: readonly SecretKind[] = [
  { kind: 'service_api_key', label: "an API key of this service", pattern: /\bsvc_[0-9a-f]{48}\b/ },
  { kind: 'service_session', label: 'a session token of this service', pattern: /\bsess_[0-9a-f]{48}\b/ },
  { kind: 'service_tool_token', label: 'a tool-server token of this service', pattern: /\bmcpt_[0-9a-f]{64}\b/ },
  { kind: 'webhook_secret', label: 'a webhook signing secret', pattern: /\bwhsec_[A-Za-z0-9+/]{20,}={0,2}/ },
  { kind: 'proxy_credentials', label: 'proxy credentials in a URL', pattern: /\b(?:https?|socks4a?|socks5h?):\/\/[^\s:@/'"]+:[^\s@/'"]+@[^\s'"]+/i },
  { kind: 'private_key', label: 'a private key', pattern: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/ },
  { kind: 'aws_access_key', label: 'an AWS access key id', pattern: /\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b/ },
  { kind: 'aws_secret_key', label: 'an AWS secret access key', pattern: /aws_?secret_?(?:access_?)?key["']?\s*[:=]\s*["']?[A-Za-z0-9/+=]{40}\b/i },
  { kind: 'google_api_key', label: 'a Google API key', pattern: /\bAIza[0-9A-Za-z_-]{35}\b/ },
  { kind: 'github_token', label: 'a GitHub token', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{60,})\b/ },
  { kind: 'slack_token', label: 'a Slack token', pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/ },
  { kind: 'stripe_key', label: 'a Stripe secret key', pattern: /\b[sr]k_live_[0-9A-Za-z]{20,}\b/ },
  { kind: 'azure_storage_key', label: 'an Azure storage account key', pattern: /AccountKey=[A-Za-z0-9+/]{86}==/ },
  { kind: 'openai_key', label: 'an OpenAI API key', pattern: /\bsk-(?:proj-|svcacct-)?[A-Za-z0-9_-]{20,}T3BlbkFJ[A-Za-z0-9_-]{20,}\b/ },
];

export interface SecretFinding {
  /** The file's path in the snapshot, `blocks` for a program, `args` for the Default arguments. */
  path: string;
  /** 1-based line in a file; absent for a value inside a program or the arguments (the path names it). */
  line?: number;
  kind: string;
  label: string;
}

/** A line longer than this is checked in overlapping windows, so one huge line costs no more than many. */
const WINDOW = 64 * 1024;
const OVERLAP = 512;
/** Enough to say what to fix; a file full of keys does not buy a huge answer. */
export const MAX_FINDINGS = 20;

function scanLine(text: string, path: string, line: number | undefined, findings: SecretFinding[]): void {
  for (const secret of SECRET_KINDS) {
    if (findings.length >= MAX_FINDINGS) return;
    if (!secret.pattern.test(text)) continue;
    // A long line is read in overlapping windows: one secret is reported once.
    if (findings.some((f) => f.path === path && f.line === line && f.kind === secret.kind)) continue;
    findings.push({ path, ...(line === undefined ? {} : { line }), kind: secret.kind, label: secret.label });
  }
}

/** Scans text pushed in chunks, line by line, in bounded memory. */
export class SecretScanner {
  private rest = '';
  private line = 1;
  private readonly decoder = new StringDecoder('utf8');

  constructor(
    private readonly path: string,
    private readonly findings: SecretFinding[],
  ) {}

  push(chunk: Buffer | string): void {
    let text = this.rest + (typeof chunk === 'string' ? chunk : this.decoder.write(chunk));
    let newline = text.indexOf('\n');
    while (newline !== -1) {
      scanLine(text.slice(0, newline), this.path, this.line, this.findings);
      this.line += 1;
      text = text.slice(newline + 1);
      newline = text.indexOf('\n');
    }
    if (text.length > WINDOW) {
      scanLine(text, this.path, this.line, this.findings);
      text = text.slice(-OVERLAP);
    }
    this.rest = text;
  }

  end(): void {
    this.rest += this.decoder.end();
    if (this.rest) scanLine(this.rest, this.path, this.line, this.findings);
    this.rest = '';
  }
}

/**
 * The findings in a JSON value (a block program, the Default arguments): every string, and
 * every key, is checked and reported by its path (`blocks.steps.2.text`). Depth is bounded
 * by the body limits the value passed on its way in.
 */
export function scanValue(path: string, value: unknown, findings: SecretFinding[]): void {
  if (findings.length >= MAX_FINDINGS) return;
  if (typeof value === 'string') {
    scanLine(value, path, undefined, findings);
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => scanValue(`${path}.${index}`, item, findings));
  } else if (value !== null && typeof value === 'object') {
    Object.entries(value).forEach(([key, item], index) => {
      // A key that is itself a secret must not appear in the paths reported.
      const name = SECRET_KINDS.some((secret) => secret.pattern.test(key)) ? `[key ${index + 1}]` : key;
      scanLine(key, `${path}.${name}`, undefined, findings);
      scanValue(`${path}.${name}`, item, findings);
    });
  }
}
