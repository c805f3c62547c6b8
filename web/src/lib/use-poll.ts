// Live data the console has no push for: `reload` every `ms` while the tab is visible (a
// hidden tab asks nothing), and once at once when it becomes visible again.
import { useEffect } from 'react';

export function usePollWhileVisible(reload: () => void, ms: number, active = true): void {
  useEffect(() => {
    if (!active) return;
    let timer: ReturnType<typeof setInterval> | undefined;
    const start = () => {
      if (timer === undefined) timer = setInterval(reload, ms);
    };
    const stop = () => {
      clearInterval(timer);
      timer = undefined;
    };
    const onVisibility = () => {
      if (document.visibilityState !== 'visible') return stop();
      reload();
      start();
    };
    if (document.visibilityState === 'visible') start();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      stop();
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [reload, ms, active]);
}
