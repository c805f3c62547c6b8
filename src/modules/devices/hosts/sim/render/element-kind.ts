// Which way an element is drawn, decided from its description alone (class, resource id,
// flags), so the same JSON always gives the same picture.
import { LAUNCHER_IDS } from '../launcher.js';
import { isToggle, type ViewElement } from '../view.js';

export type ElementKind = 'clock' | 'date' | 'launcherIcon' | 'searchBar' | 'field' | 'toggle' | 'button' | 'iconButton' | 'image' | 'toolbar' | 'text' | 'row' | 'panel' | 'spinner' | 'none';

export function kindOf(e: ViewElement): ElementKind {
  switch (e.resource_id) {
    case LAUNCHER_IDS.clock:
      return 'clock';
    case LAUNCHER_IDS.date:
      return 'date';
    case LAUNCHER_IDS.icon:
      return 'launcherIcon';
    case LAUNCHER_IDS.search:
      return 'searchBar';
  }
  const cls = e.class;
  if (/ProgressBar$/.test(cls)) return 'spinner';
  if (e.scrollable) return 'none';
  if (e.editable) return 'field';
  if (isToggle(e)) return 'toggle';
  if (/(ImageButton|FloatingActionButton)$/.test(cls)) return 'iconButton';
  if (/Button$/.test(cls)) return 'button';
  if (/ImageView$/.test(cls)) return 'image';
  if (/:id\/toolbar$/.test(e.resource_id) || /Toolbar$/.test(cls)) return 'toolbar';
  if (/(TextView|TextClock)$/.test(cls)) return 'text';
  if (e.clickable) return 'row';
  if (e.resource_id === 'android:id/parentPanel' || /(Layout|ViewGroup|View)$/.test(cls)) return 'panel';
  return 'none';
}
