// One Escape closes one layer. Mantine's Modal and Drawer each close on an Escape anywhere in
// the window, so a dialog opened from a drawer (a screenshot, Start run, a confirmation, all
// portalled outside the drawer) took the drawer with it. A drawer that hosts dialogs sets
// `closeOnEscape={false}` and uses this instead: it closes on an Escape pressed in it, or
// with nothing focused, but not on one pressed in another dialog, which closes only that one.
import { useWindowEvent } from '@mantine/hooks';
import { type RefObject, useRef } from 'react';

export function useLayerEscape<E extends HTMLElement>(opened: boolean, onClose: () => void): RefObject<E | null> {
  const layer = useRef<E>(null);
  useWindowEvent('keydown', (event) => {
    if (!opened || event.key !== 'Escape' || event.isComposing) return;
    const target = event.target instanceof Element ? event.target : null;
    // A field whose own list is open (a Select) takes the Escape, as Mantine's dialogs let it.
    if (target?.getAttribute('data-mantine-stop-propagation') === 'true') return;
    const dialog = target?.closest('[role="dialog"]');
    if (dialog && !layer.current?.contains(dialog)) return;
    onClose();
  });
  return layer;
}
