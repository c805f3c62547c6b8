// Loading data and running actions with their pending state and the API's error, so every
// page shows progress and the API's own sentence the same way.
import { useCallback, useEffect, useRef, useState } from 'react';

export interface AsyncState<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload(): void;
}

/** Runs `load` now and whenever `deps` change; the last answer wins. */
export function useAsync<T>(load: () => Promise<T>, deps: readonly unknown[]): AsyncState<T> {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<unknown>();
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  useEffect(() => {
    let current = true;
    setLoading(true);
    setError(undefined);
    loadRef.current().then(
      (value) => {
        if (!current) return;
        setData(value);
        setLoading(false);
      },
      (reason: unknown) => {
        if (!current) return;
        setError(reason);
        setLoading(false);
      },
    );
    return () => {
      current = false;
    };
  }, [...deps, tick]);

  const reload = useCallback(() => setTick((n) => n + 1), []);
  return { data, error, loading, reload };
}

export type Outcome<T> = { ok: true; value: T } | { ok: false };

export interface Action<A extends unknown[], T> {
  /** Never rejects: a failure is kept in `error` and answered as `{ok: false}`. */
  run(...args: A): Promise<Outcome<T>>;
  pending: boolean;
  error: unknown;
  reset(): void;
}

/** An action the user starts (a form submit, a button); failures land in `error`. */
export function useAction<A extends unknown[], T>(act: (...args: A) => Promise<T>): Action<A, T> {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>();
  const actRef = useRef(act);
  actRef.current = act;
  const run = useCallback(async (...args: A): Promise<Outcome<T>> => {
    setPending(true);
    setError(undefined);
    try {
      return { ok: true, value: await actRef.current(...args) };
    } catch (reason) {
      setError(reason);
      return { ok: false };
    } finally {
      setPending(false);
    }
  }, []);
  const reset = useCallback(() => setError(undefined), []);
  return { run, pending, error, reset };
}
