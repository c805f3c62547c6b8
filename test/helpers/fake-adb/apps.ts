// Extra apps for the fake phone, describing what real apps have and the demo app lacks: text
// over several lines (a dump writes the newline as `&#10;`), activities whose names hold `$`
// (an inner class) or the word "Error", and an activity that is not exported.
const rid = (id: string) => `org.example.notes:id/${id}`;
const el = (id: string, cls: string, text: string, top: number, bottom: number, to?: string) => ({
  id,
  class: cls,
  text,
  resource_id: rid(id),
  content_desc: '',
  bounds: { left: 48, top, right: 1032, bottom },
  clickable: to !== undefined,
  editable: false,
  ...(to !== undefined ? { to } : {}),
});
const screen = (id: string, title: string, activity: string, extra: ReturnType<typeof el>[] = []) => ({
  id,
  title,
  activity: `org.example.notes.${activity}`,
  elements: [el('title', 'android.widget.TextView', title, 126, 210), ...extra],
});

export const NOTES_PACKAGE = 'org.example.notes';

/** Launcher activity `.NotesActivity`; `.Outer$Inner`, `.ErrorReportActivity`, `.SecretActivity` (not exported). */
export const notesApp = {
  package: NOTES_PACKAGE,
  label: 'Notes',
  version_name: '3.1',
  version_code: 31,
  screens: [
    screen('notes', 'Notes', 'NotesActivity', [
      el('note', 'android.widget.TextView', 'Shopping\nMilk\tx2', 330, 600),
      el('open_inner', 'android.widget.Button', 'Details', 700, 850, 'inner'),
    ]),
    screen('inner', 'Inner details', 'Outer$Inner'),
    screen('error_report', 'Send a report', 'ErrorReportActivity'),
    screen('secret', 'Secret', 'SecretActivity'),
  ],
};

/** Components `am start` refuses from the shell (android:exported="false"). */
export const NOT_EXPORTED = new Set([`${NOTES_PACKAGE}/${NOTES_PACKAGE}.SecretActivity`]);
