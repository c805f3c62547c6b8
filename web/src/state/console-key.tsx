// The console key: an API key this browser tab uses for the routes that accept only keys
// (listing devices, run history, webhooks, profiles, proxies, code state). It is held in
// memory only — never in localStorage, sessionStorage or a cookie — so closing or reloading
// the tab forgets it. A key the console created for the tab is revoked at sign-out.
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { api, keyApi, onKeyRejected, setKeyForRequests } from '../api/client';
import { unwrap } from '../api/errors';
import type { Scope, WhoAmI } from '../api/types';

export interface ConsoleKey {
  key: string;
  whoami: WhoAmI;
  /** Created by the console for this tab (and so revoked by it at sign-out). */
  createdHere: boolean;
}

/** What a key route needs: a scope, or a full-access key (one created with no scopes). */
export type KeyNeed = Scope | 'full';

export interface ConsoleKeyState {
  current: ConsoleKey | null;
  /** Why the last key stopped working, when the service refused it. */
  rejected: string | null;
  /** Checks the key with GET /api/whoami and keeps it for this tab. */
  adopt(key: string): Promise<void>;
  /** Creates a full-access key named for this tab (30 days) and keeps it. */
  createForTab(): Promise<void>;
  forget(): void;
  /** Sign-out: revokes a key the console created, then forgets it. */
  release(): Promise<void>;
  covers(need: KeyNeed): boolean;
}

const ConsoleKeyContext = createContext<ConsoleKeyState | null>(null);

export function keyCovers(key: ConsoleKey | null, need: KeyNeed): boolean {
  if (!key) return false;
  const scopes = key.whoami.api_key.scopes;
  if (scopes.length === 0) return true;
  return need !== 'full' && scopes.includes(need);
}

export function ConsoleKeyProvider({ children }: { children: ReactNode }) {
  const [current, setCurrent] = useState<ConsoleKey | null>(null);
  const [rejected, setRejected] = useState<string | null>(null);

  useEffect(() => setKeyForRequests(current?.key ?? null), [current]);
  useEffect(
    () =>
      onKeyRejected((message) => {
        setKeyForRequests(null);
        setCurrent(null);
        setRejected(message);
      }),
    [],
  );

  const remember = useCallback(async (key: string, createdHere: boolean) => {
    // Checked with its own header: a wrong key leaves the tab's current key alone.
    const whoami = await unwrap(keyApi.GET('/api/whoami', { headers: { 'X-API-KEY': key } }));
    setKeyForRequests(key);
    setCurrent({ key, whoami, createdHere });
    setRejected(null);
  }, []);

  const adopt = useCallback((key: string) => remember(key.trim(), false), [remember]);

  const createForTab = useCallback(async () => {
    const stamp = new Date().toISOString().slice(0, 16).replace('T', ' ');
    const created = await unwrap(api.POST('/api/api-keys', { body: { name: `Console tab ${stamp} UTC`, expires_in: '30d', scopes: [] } }));
    await remember(created.key, true);
  }, [remember]);

  const forget = useCallback(() => setCurrent(null), []);

  const release = useCallback(async () => {
    if (current?.createdHere) {
      // Best effort: signing out must not fail because the key is already gone.
      await api.DELETE('/api/api-keys/{id}', { params: { path: { id: current.whoami.api_key.id } } }).catch(() => undefined);
    }
    setCurrent(null);
  }, [current]);

  const covers = useCallback((need: KeyNeed) => keyCovers(current, need), [current]);

  const value = useMemo(() => ({ current, rejected, adopt, createForTab, forget, release, covers }), [current, rejected, adopt, createForTab, forget, release, covers]);
  return <ConsoleKeyContext.Provider value={value}>{children}</ConsoleKeyContext.Provider>;
}

export function useConsoleKey(): ConsoleKeyState {
  const value = useContext(ConsoleKeyContext);
  if (!value) throw new Error('useConsoleKey outside ConsoleKeyProvider');
  return value;
}
