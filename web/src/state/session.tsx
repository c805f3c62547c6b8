// Who is signed in. The session itself is the HttpOnly cookie that sign-up and sign-in set;
// the console only asks /api/auth/me who that is, and signs out through the API.
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { ApiError } from '../api/errors';
import type { Subscription, User } from '../api/types';
import { me, signOut as endSession } from '../pages/auth/auth-api';

export interface SessionState {
  /** undefined while the first check runs, null when signed out. */
  user: User | null | undefined;
  subscription: Subscription | null;
  /** A failure of the first check other than "not signed in" (the service is down). */
  bootError: unknown;
  signedIn(user: User, subscription: Subscription): void;
  refresh(): Promise<void>;
  signOut(): Promise<void>;
}

const SessionContext = createContext<SessionState | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [user, setUser] = useState<User | null | undefined>(undefined);
  const [subscription, setSubscription] = useState<Subscription | null>(null);
  const [bootError, setBootError] = useState<unknown>();

  const refresh = useCallback(async () => {
    try {
      const answer = await me();
      setUser(answer.user);
      setSubscription(answer.subscription);
      setBootError(undefined);
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        setUser(null);
        setSubscription(null);
      } else {
        setBootError(error);
      }
    }
  }, []);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  const signedIn = useCallback((next: User, nextSubscription: Subscription) => {
    setUser(next);
    setSubscription(nextSubscription);
  }, []);

  const signOut = useCallback(async () => {
    await endSession();
    setUser(null);
    setSubscription(null);
  }, []);

  const value = useMemo(
    () => ({ user, subscription, bootError, signedIn, refresh, signOut }),
    [user, subscription, bootError, signedIn, refresh, signOut],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionState {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside SessionProvider');
  return value;
}

/** The signed-in user; only for pages behind the sign-in gate. */
export function useUser(): User {
  const { user } = useSession();
  if (!user) throw new Error('useUser on a signed-out page');
  return user;
}
