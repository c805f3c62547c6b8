// Who is calling a service, whatever the transport: a REST route, a tool-server tool or a
// worker builds one of these and passes it first (`fn(ctx, input)`), so a rule and its audit
// row never depend on how the call arrived.

/** The key scopes of the contract. A key with none has full access. */
export const SCOPES = ['devices:control', 'macros:run', 'macros:author', 'maps:read', 'runs:read'] as const;
export type Scope = (typeof SCOPES)[number];

/** Where a call came from, for work that belongs to no signed-in user (sign-up, the operator's API). */
export interface CallOrigin {
  /** The request's id in the logs (a worker uses its job's id). */
  requestId: string;
  /** The client's address as the server saw it (after TRUST_PROXY); null when there is none. */
  clientAddress: string | null;
}

/** The caller of a user's service function: who, with which credential and scopes. */
export interface ServiceContext extends CallOrigin {
  userId: number;
  /** Set when the call came with an API key. */
  keyId: number | null;
  /** Set when the call came with a signed-in session. */
  sessionId: number | null;
  /** The key's scopes; empty means full access (always empty for sessions). */
  scopes: readonly Scope[];
}

/**
 * The context of work a worker does for an account's owner (a map exploration, an authoring
 * session, a schedule's run): the owner, with no key or session, so full access, as if they
 * had asked. `requestId` names the job in the logs.
 */
export function workerContext(userId: number, requestId: string): ServiceContext {
  return { userId, keyId: null, sessionId: null, scopes: [], requestId, clientAddress: null };
}
