// Following a session while it works: its messages by cursor and its state, read again every
// second until it ends. A screenshot the agent takes while the page follows gets a small
// picture of the device's screen, taken by the console the moment it read that step (the
// service keeps a screenshot's size, never its bytes, so older steps have none).
import { useEffect, useRef, useState } from 'react';
import { type AuthoringMessage, type AuthoringSession, getSession, isLive, readMessages, screenThumbnail } from './authoring-api';

const POLL_MS = 1000;

export interface Followed {
  session?: AuthoringSession;
  messages: AuthoringMessage[];
  /** Screen pictures by message seq. */
  thumbnails: Record<number, string>;
  error: unknown;
  /** After an answer or a stop: the new session, and read on. */
  update(s: AuthoringSession): void;
}

export function useFollow(id: number): Followed {
  const [session, setSession] = useState<AuthoringSession>();
  const [messages, setMessages] = useState<AuthoringMessage[]>([]);
  const [thumbnails, setThumbnails] = useState<Record<number, string>>({});
  const [error, setError] = useState<unknown>();
  const [tick, setTick] = useState(0);
  const cursor = useRef<string | undefined>(undefined);
  const urls = useRef<string[]>([]);

  useEffect(() => {
    let current = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = async () => {
      try {
        const answer = await readMessages(id, cursor.current);
        if (!current) return;
        cursor.current = answer.cursor;
        if (answer.messages.length) setMessages((old) => [...old, ...answer.messages]);
        const fresh = await getSession(id);
        if (!current) return;
        setSession(fresh);
        setError(undefined);
        const shots = answer.messages.filter((m) => m.role === 'tool' && m.text.startsWith('device_screenshot:'));
        // Only while it works: the device shows what the agent just saw, not some later screen.
        if (isLive(fresh) && shots.length && fresh.device_id !== null) {
          const url = await screenThumbnail(fresh.device_id).catch(() => undefined);
          if (url) urls.current.push(url);
          if (url && current) setThumbnails((old) => ({ ...old, [shots.at(-1)!.seq]: url }));
        }
        // The state was read before the messages: once it is ended, every message is in.
        if (isLive(answer) || isLive(fresh)) timer = setTimeout(() => void read(), POLL_MS);
      } catch (reason) {
        if (!current) return;
        setError(reason);
        timer = setTimeout(() => void read(), POLL_MS * 3);
      }
    };
    void read();
    return () => {
      current = false;
      if (timer) clearTimeout(timer);
    };
  }, [id, tick]);

  useEffect(() => () => urls.current.forEach((url) => URL.revokeObjectURL(url)), []);

  return { session, messages, thumbnails, error, update: (s) => { setSession(s); setTick((n) => n + 1); } };
}
