// macro_scaffold's templates (decisions.md §12): each is a runnable project using svc_device
// that runs on the demo app (com.example.shop) as shipped, and reads its targets from the
// macro's arguments (MACRO_ARGS) so the same code serves another app. test/modules/authoring
// runs every template as a real cloud run.
export const SCAFFOLD_TEMPLATES = ['blank', 'tap_through', 'form_fill'] as const;
export type ScaffoldTemplate = (typeof SCAFFOLD_TEMPLATES)[number];

const COMMON = `import json
import os
import time

import svc_device as d

ARGS = json.loads(os.environ.get("MACRO_ARGS") or "{}")
PACKAGE = ARGS.get("package", "com.example.shop")


def wait_for_text(text, timeout_s=10.0):
    """The element showing text, waiting until it appears; DeviceError after timeout_s."""
    deadline = time.monotonic() + timeout_s
    while True:
        found = d.find_text(text)
        if found is not None:
            return found
        if time.monotonic() > deadline:
            raise d.DeviceError("%r did not appear within %.0f s" % (text, timeout_s))
        d.wait(250)
`;

const BODIES: Record<ScaffoldTemplate, string> = {
  blank: `

def main():
    d.open_app(PACKAGE)
    d.log("opened %s; in front: %s" % (PACKAGE, d.current_app()))


if __name__ == "__main__":
    main()
`,
  tap_through: `
# The texts to tap, in order; each is waited for before it is tapped.
STEPS = ARGS.get("steps") or ["Espresso beans", "Add to cart", "Keep shopping"]


def main():
    d.open_app(PACKAGE)
    for number, text in enumerate(STEPS, start=1):
        wait_for_text(text)
        d.tap_text(text)
        d.log("step %d/%d: tapped %r" % (number, len(STEPS), text))
    d.log("done")


if __name__ == "__main__":
    main()
`,
  form_fill: `
# The form to open (a text to tap), its fields (element id -> value) and the button that sends it.
OPEN = ARGS.get("open", "Checkout")
FIELDS = ARGS.get("fields") or {
    "full_name": "Ada Lovelace",
    "street": "12 Analytical Row",
    "city": "London",
    "postcode": "N1 9GU",
    "phone": "+44 20 7946 0000",
}
SUBMIT = ARGS.get("submit", "Place order")
EXPECT = ARGS.get("expect", "Order placed")


def main():
    d.open_app(PACKAGE)
    wait_for_text(OPEN)
    d.tap_text(OPEN)
    wait_for_text(SUBMIT)
    for element_id, value in FIELDS.items():
        d.tap_element(element_id)
        d.type_text(value)
        d.log("filled %s" % element_id)
    if d.find_text(SUBMIT) is None:
        d.key("BACK")  # the soft keyboard covers the button; BACK hides it
    d.tap_text(SUBMIT)
    wait_for_text(EXPECT)
    d.log("sent; %r is showing" % EXPECT)


if __name__ == "__main__":
    main()
`,
};

const DESCRIPTIONS: Record<ScaffoldTemplate, string> = {
  blank: 'Opens the app and logs what is in front: a starting point.',
  tap_through: 'Taps a list of texts in order, waiting for each (arguments: package, steps).',
  form_fill: 'Opens a form, fills its fields by element id and sends it (arguments: package, open, fields, submit, expect).',
};

export function scaffoldProject(name: string, template: ScaffoldTemplate = 'blank'): { files: { path: string; content: string }[] } {
  const title = name.trim().replace(/\s+/g, ' ');
  const readme = `# ${title}\n\n${DESCRIPTIONS[template]}\n\nRun \`python3 main.py\` as a cloud run; the SDK \`svc_device\` is on every run's PYTHONPATH. Arguments arrive as JSON in \`MACRO_ARGS\`. Written from the \`${template}\` template.\n`;
  return {
    files: [
      { path: 'README.md', content: readme },
      { path: 'main.py', content: `"""${title.replace(/"""/g, "'''").replace(/\\/g, '/')}: ${DESCRIPTIONS[template]}"""\n${COMMON}${BODIES[template]}` },
    ],
  };
}
