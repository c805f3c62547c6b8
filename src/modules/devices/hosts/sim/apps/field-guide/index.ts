// Field Guide, a larger simulated app generated from a compact outline, for testing and
// measuring the menu-map explorer against a graph that is known: 60+ screens in six sections,
// with lists (rows sharing one resource id), dialogs, dead ends (no way on but BACK), a link
// that leaves the app, inert buttons, switches and fields, cross links between sections, and
// destructive buttons ("Delete account", "Remove project", "Delete message") whose screens
// can only be reached through them. Not preinstalled: a host gets it through its `apps`.
// Every screen has a layout of its own (a `<screen>_page` container), so no two screens share
// a structure; the rows of a list lead to one detail screen.
import type { SimApp, SimElement, SimScreen } from '../../app-schema.js';

export const FIELD_GUIDE_PACKAGE = 'com.example.fieldguide';
const rid = (id: string) => `${FIELD_GUIDE_PACKAGE}:id/${id}`;

type Item =
  | { kind: 'button' | 'row'; label: string; to: string; id?: string }
  /** A button that does nothing when tapped (disabled look-alike): the stagnation rule's case. */
  | { kind: 'inert'; label: string; id?: string }
  | { kind: 'switch' | 'field' | 'text'; label: string; id?: string };

interface Outline {
  id: string;
  title: string;
  activity: string;
  /** An up arrow in the toolbar (BACK on tap); dead ends have none. */
  up?: boolean;
  items: Item[];
  dialog?: boolean;
}

const slug = (label: string) =>
  label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '')
    .slice(0, 40);

function element(id: string, cls: string, text: string, bounds: SimElement['bounds'], extra: Partial<SimElement> = {}): SimElement {
  return { id, class: cls, text, resource_id: rid(id), content_desc: '', bounds, clickable: false, editable: false, ...extra };
}

function pageScreen(o: Outline): SimScreen {
  const elements: SimElement[] = [element('toolbar', 'android.view.ViewGroup', '', { left: 0, top: 84, right: 1080, bottom: 252 })];
  if (o.up) elements.push({ ...element('navigate_up', 'android.widget.ImageButton', '', { left: 0, top: 105, right: 126, bottom: 231 }, { clickable: true, to: 'back' }), content_desc: 'Navigate up', resource_id: '' });
  elements.push(element('title', 'android.widget.TextView', o.title, { left: 150, top: 126, right: 900, bottom: 210 }));
  elements.push(element(`${o.id}_page`, 'android.widget.FrameLayout', '', { left: 0, top: 252, right: 1080, bottom: 2400 }));
  o.items.forEach((item, i) => {
    const top = 290 + i * 160;
    const bounds = { left: 48, top, right: 1032, bottom: top + 140 };
    const id = item.id ?? `${item.kind === 'row' ? 'row' : 'item'}_${slug(item.label)}_${i}`;
    switch (item.kind) {
      case 'row':
        // Rows of one list share a resource id; element ids stay unique.
        elements.push(element(`row_${slug(item.label)}`, 'android.widget.LinearLayout', item.label, bounds, { clickable: true, to: item.to, resource_id: rid(item.id ?? `row_${slug(item.label)}`) }));
        break;
      case 'button':
        elements.push(element(item.id ?? slug(item.label), 'android.widget.Button', item.label, bounds, { clickable: true, to: item.to }));
        break;
      case 'inert':
        elements.push(element(item.id ?? slug(item.label), 'android.widget.Button', item.label, bounds, { clickable: true }));
        break;
      case 'switch':
        elements.push(element(`${slug(item.label)}_label`, 'android.widget.TextView', item.label, { ...bounds, right: 800 }));
        elements.push(element(item.id ?? slug(item.label), 'android.widget.Switch', 'OFF', { left: 880, top: top + 20, right: 1032, bottom: top + 120 }, { clickable: true }));
        break;
      case 'field':
        elements.push(element(item.id ?? slug(item.label), 'android.widget.EditText', item.label, bounds, { clickable: true, editable: true }));
        break;
      case 'text':
        elements.push(element(id, 'android.widget.TextView', item.label, bounds));
        break;
    }
  });
  return { id: o.id, title: o.title, activity: `${FIELD_GUIDE_PACKAGE}.${o.activity}`, elements };
}

/** A dialog: a panel holding a title, a message and its buttons (the sim draws the screen beneath, dimmed). */
function dialogScreen(o: Outline): SimScreen {
  const elements: SimElement[] = [
    { ...element('panel', 'android.widget.FrameLayout', '', { left: 60, top: 800, right: 1020, bottom: 1500 }), resource_id: rid('parentPanel') },
    { ...element('dialog_title', 'android.widget.TextView', o.title, { left: 120, top: 850, right: 960, bottom: 950 }), resource_id: rid('alertTitle') },
    element(`${o.id}_message`, 'android.widget.TextView', o.items.find((i) => i.kind === 'text')?.label ?? '', { left: 120, top: 970, right: 960, bottom: 1300 }),
  ];
  const buttons = o.items.filter((i): i is Item & { kind: 'button' } => i.kind === 'button');
  buttons.forEach((b, i) => {
    const right = 960 - i * 300;
    elements.push({ ...element(`button${i + 1}`, 'android.widget.Button', b.label, { left: right - 280, top: 1360, right, bottom: 1470 }, { clickable: true, to: b.to }) });
  });
  return { id: o.id, title: o.title, activity: `${FIELD_GUIDE_PACKAGE}.${o.activity}`, elements };
}

const btn = (label: string, to: string, id?: string): Item => ({ kind: 'button', label, to, ...(id ? { id } : {}) });
const row = (label: string, to: string, id?: string): Item => ({ kind: 'row', label, to, ...(id ? { id } : {}) });
const text = (label: string): Item => ({ kind: 'text', label });

function outline(): Outline[] {
  const screens: Outline[] = [
    {
      id: 'home',
      title: 'Field Guide',
      activity: 'MainActivity',
      items: [btn('Inbox', 'inbox'), btn('Projects', 'projects'), btn('Library', 'library'), btn('Reports', 'reports'), btn('Settings', 'settings'), btn('Help', 'help'), btn('Search', 'search')],
    },
    { id: 'search', title: 'Search', activity: 'SearchActivity', up: true, items: [{ kind: 'field', label: 'Search the guide' }, btn('Show results', 'search_results')] },
    { id: 'search_results', title: 'Results', activity: 'SearchActivity', up: true, items: [row('Birds of the coast', 'article_1_1', 'row_result'), row('Mosses', 'article_1_1', 'row_result'), row('Tides', 'article_1_1', 'row_result')] },
    // Inbox: a list whose rows share one id and one detail screen.
    { id: 'inbox', title: 'Inbox', activity: 'InboxActivity', up: true, items: [btn('Compose', 'compose'), btn('Archive', 'archive'), ...[1, 2, 3, 4, 5].map((n) => row(`Message ${n}`, 'message_detail', 'row_message'))] },
    { id: 'message_detail', title: 'Message', activity: 'InboxActivity', up: true, items: [text('A message from the field team.'), btn('Reply', 'compose'), btn('Delete message', 'message_deleted')] },
    { id: 'message_deleted', title: 'Message deleted', activity: 'InboxActivity', items: [text('The message is gone.')] },
    { id: 'compose', title: 'New message', activity: 'ComposeActivity', up: true, items: [{ kind: 'field', label: 'To' }, { kind: 'field', label: 'Subject' }, btn('Send', 'sent_dialog')] },
    { id: 'sent_dialog', title: 'Sent', activity: 'ComposeActivity', dialog: true, items: [text('Your message is on its way.'), btn('OK', 'back')] },
    { id: 'archive', title: 'Archive', activity: 'InboxActivity', up: true, items: [1, 2, 3].map((n) => row(`Archived ${n}`, 'archived_detail', 'row_archived')) },
    { id: 'archived_detail', title: 'Archived message', activity: 'InboxActivity', up: true, items: [text('An older message.'), btn('Back to inbox', 'inbox')] },
  ];
  // Projects: five projects, each with tasks (a list) and notes; a destructive "Remove project".
  screens.push({ id: 'projects', title: 'Projects', activity: 'ProjectsActivity', up: true, items: [1, 2, 3, 4, 5].map((n) => row(`Project ${n}`, `project_${n}`)) });
  for (const n of [1, 2, 3, 4, 5]) {
    screens.push({ id: `project_${n}`, title: `Project ${n}`, activity: 'ProjectActivity', up: true, items: [btn('Tasks', `tasks_${n}`), btn('Notes', `notes_${n}`), btn('Remove project', 'project_removed')] });
    screens.push({ id: `tasks_${n}`, title: `Tasks of project ${n}`, activity: 'TasksActivity', up: true, items: [1, 2, 3].map((t) => row(`Task ${t}`, 'task_detail', 'row_task')) });
    screens.push({ id: `notes_${n}`, title: `Notes of project ${n}`, activity: 'NotesActivity', up: true, items: [{ kind: 'field', label: 'Note' }, btn('Read the guide', 'library')] });
  }
  screens.push({ id: 'task_detail', title: 'Task', activity: 'TasksActivity', up: true, items: [{ kind: 'switch', label: 'Done' }, text('Due next week.')] });
  screens.push({ id: 'project_removed', title: 'Project removed', activity: 'ProjectActivity', items: [text('The project is gone.')] });
  // Library: four categories of two articles each; articles are dead ends (no up arrow, no buttons but a related link).
  screens.push({ id: 'library', title: 'Library', activity: 'LibraryActivity', up: true, items: [1, 2, 3, 4].map((c) => row(`Category ${c}`, `category_${c}`)) });
  for (const c of [1, 2, 3, 4]) {
    screens.push({ id: `category_${c}`, title: `Category ${c}`, activity: 'LibraryActivity', up: true, items: [1, 2].map((a) => row(`Article ${c}.${a}`, `article_${c}_${a}`)) });
    for (const a of [1, 2]) {
      const related = a === 1 ? [btn('Related article', `article_${c}_2`)] : [];
      screens.push({ id: `article_${c}_${a}`, title: `Article ${c}.${a}`, activity: 'ArticleActivity', items: [text('A page of the guide.'), ...related] });
    }
  }
  // Reports: each opens an export dialog; exporting ends on a dead end.
  screens.push({ id: 'reports', title: 'Reports', activity: 'ReportsActivity', up: true, items: [1, 2, 3].map((r) => row(`Report ${r}`, `report_${r}`)) });
  for (const r of [1, 2, 3]) {
    screens.push({ id: `report_${r}`, title: `Report ${r}`, activity: 'ReportActivity', up: true, items: [btn('Export', `export_${r}`), btn('Open project', `project_${r}`), { kind: 'inert', label: 'Print' }] });
    screens.push({ id: `export_${r}`, title: 'Export report', activity: 'ReportActivity', dialog: true, items: [text('Export this report as a PDF?'), btn('Export', 'export_done'), btn('Cancel', 'back')] });
  }
  screens.push({ id: 'export_done', title: 'Exported', activity: 'ReportActivity', items: [text('The report was saved.')] });
  // Settings, with the destructive "Delete account".
  screens.push({
    id: 'settings',
    title: 'Settings',
    activity: 'SettingsActivity',
    up: true,
    items: [row('Profile', 'profile'), row('Notifications', 'notifications'), row('Privacy', 'privacy'), row('Account', 'account'), row('About', 'about')],
  });
  screens.push({ id: 'profile', title: 'Profile', activity: 'SettingsActivity', up: true, items: [{ kind: 'field', label: 'Name' }, { kind: 'field', label: 'Email' }, { kind: 'inert', label: 'Save' }] });
  screens.push({ id: 'notifications', title: 'Notifications', activity: 'SettingsActivity', up: true, items: [{ kind: 'switch', label: 'New messages' }, { kind: 'switch', label: 'Weekly digest' }] });
  screens.push({ id: 'privacy', title: 'Privacy', activity: 'SettingsActivity', up: true, items: [{ kind: 'switch', label: 'Share location' }, btn('Clear history', 'clear_dialog')] });
  screens.push({ id: 'clear_dialog', title: 'Clear history?', activity: 'SettingsActivity', dialog: true, items: [text('Your search history will be cleared.'), btn('Clear', 'privacy'), btn('Cancel', 'back')] });
  screens.push({ id: 'account', title: 'Account', activity: 'AccountActivity', up: true, items: [btn('Change password', 'password'), btn('Delete account', 'account_deleted', 'delete_account')] });
  screens.push({ id: 'password', title: 'Change password', activity: 'AccountActivity', up: true, items: [{ kind: 'field', label: 'New password' }, btn('Save password', 'password_saved')] });
  screens.push({ id: 'password_saved', title: 'Password changed', activity: 'AccountActivity', dialog: true, items: [text('Your password was changed.'), btn('OK', 'account')] });
  screens.push({ id: 'account_deleted', title: 'Account deleted', activity: 'AccountActivity', items: [text('Your account and its data are gone.')] });
  screens.push({ id: 'about', title: 'About', activity: 'SettingsActivity', up: true, items: [btn('Licences', 'licences'), { kind: 'inert', label: 'Check for updates' }, text('Field Guide 3.2')] });
  screens.push({ id: 'licences', title: 'Licences', activity: 'SettingsActivity', up: true, items: [1, 2, 3].map((l) => row(`Licence ${l}`, 'licence_detail', 'row_licence')) });
  screens.push({ id: 'licence_detail', title: 'Licence', activity: 'SettingsActivity', up: true, items: [text('Permission is granted…')] });
  // Help: a list of questions, a contact form ending on a dead end, and a link out of the app.
  screens.push({ id: 'help', title: 'Help', activity: 'HelpActivity', up: true, items: [btn('Questions', 'faq'), btn('Contact us', 'contact'), btn('System settings', 'package:com.android.settings')] });
  screens.push({ id: 'faq', title: 'Questions', activity: 'HelpActivity', up: true, items: [1, 2, 3, 4].map((q) => row(`Question ${q}`, 'faq_answer', 'row_question')) });
  screens.push({ id: 'faq_answer', title: 'Answer', activity: 'HelpActivity', up: true, items: [text('Here is how.'), btn('Still stuck? Contact us', 'contact')] });
  screens.push({ id: 'contact', title: 'Contact us', activity: 'HelpActivity', up: true, items: [{ kind: 'field', label: 'Your question' }, btn('Send question', 'contact_thanks')] });
  screens.push({ id: 'contact_thanks', title: 'Thank you', activity: 'HelpActivity', items: [text('We answer within a day.'), btn('Back to start', 'home')] });
  return screens;
}

/** The app description (decisions.md §9), for `SimHostOptions.apps`. */
export function fieldGuideApp(): SimApp {
  return {
    package: FIELD_GUIDE_PACKAGE,
    label: 'Field Guide',
    version_name: '3.2',
    version_code: 32,
    screens: outline().map((o) => (o.dialog ? dialogScreen(o) : pageScreen(o))),
  };
}
