// The recorder in the console (issue 33, decisions.md §18) on a sim cloud device: Record on
// the live view; HOME, a tap on an app's icon, a tap on a button and on a field, text typed,
// ENTER, a tap on nothing (fragile), a "Wait for…" check picked on the screen (nothing sent
// to the device), a long press and a drag (a swipe), BACK twice and HOME, each a step in the
// list with its frame; a reload finds the recording again (and, after saving, what Replay can run); a step's selector changed among its
// candidates (their match counts shown); the fragile step, the long press and the swipe
// deleted; saved as a block macro and as a code macro (recording goes on); the block macro
// replayed, landing on the run's page with its trace; the code macro run to its end. axe-core
// on the recorder and its dialogs; screenshots for docs/recorder.md.
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { startCloudWorkers } from './flows-cloud.js';
import { expectAccessible, SCREENSHOTS, VIEWPORT } from './harness.js';
import { openFromNav, type World } from './world.js';

const DEVICE = 'Recorder phone';
const SCREEN = { width: 1080, height: 2400 };

type Bounds = { left: number; top: number; right: number; bottom: number };
const centre = (b: Bounds) => ({ x: Math.round((b.left + b.right) / 2), y: Math.round((b.top + b.bottom) / 2) });

/** axe-core and a picture of the page, without waiting for the network to go idle (the live view streams). */
async function checkRecorder(page: Page, name: string, what: string): Promise<void> {
  await page.mouse.move(VIEWPORT.width - 2, VIEWPORT.height - 2);
  await expectAccessible(page, what);
  await page.evaluate('document.fonts.ready');
  await page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, animations: 'disabled', caret: 'hide' });
}

/** For the pictures: the drawer scrolled to the recorder's buttons, the step list to the `index`th step. */
async function frameRecorder(drawer: Locator, index: number): Promise<void> {
  await drawer.getByRole('group', { name: 'Recorder' }).evaluate((el) => {
    const scroller = el.closest('.mantine-Drawer-content')!;
    scroller.scrollTop += el.getBoundingClientRect().top - scroller.getBoundingClientRect().top - 70;
  });
  await drawer.getByRole('list', { name: 'Recorded steps' }).evaluate((list, i) => {
    const item = list.children[i];
    list.scrollTop += item.getBoundingClientRect().top - list.getBoundingClientRect().top;
  }, index);
}

async function openDrawer(page: Page): Promise<Locator> {
  const drawer = page.getByRole('dialog', { name: DEVICE });
  if (!(await drawer.isVisible())) await page.getByRole('button', { name: `Open ${DEVICE}` }).click();
  await expect.poll(() => drawer.isVisible()).toBe(true);
  return drawer;
}

export async function recorder(w: World): Promise<void> {
  const { page } = w;
  if (!w.cloudWorkers) startCloudWorkers(w);
  await openFromNav(page, 'Devices');
  await page.getByRole('button', { name: 'Cloud device', exact: true }).click();
  await page.getByRole('dialog').getByRole('textbox', { name: 'Name', exact: true }).fill(DEVICE);
  await page.getByRole('dialog').getByRole('button', { name: 'Add device' }).click();
  const drawer = await openDrawer(page);
  await drawer.getByRole('button', { name: 'Start', exact: true }).click();
  await expect.poll(() => drawer.getByText('Running and ready for runs.').isVisible(), { timeout: 30_000 }).toBe(true);
  const id = Number(new URL(page.url()).searchParams.get('device'));
  const driver = await w.t.app.modules.devices.services.host.driver(id);
  /** The element's bounds on the device's screen now. */
  const find = async (match: (e: { text: string; resource_id: string }) => boolean): Promise<Bounds> => {
    let found: Bounds | undefined;
    await expect.poll(async () => (found = (await driver.uiTree()).find(match)?.bounds) !== undefined, { timeout: 10_000 }).toBe(true);
    return found!;
  };

  // Record: the live view's clicks now go to the recorder, never to the tap route.
  const tapRequests: string[] = [];
  page.on('request', (request) => {
    if (/\/api\/hosted\/devices\/\d+\/tap$/.test(new URL(request.url()).pathname)) tapRequests.push(request.url());
  });
  await expect.poll(() => drawer.getByText(/Click the picture to tap the device there/).isVisible()).toBe(true);
  await drawer.getByRole('button', { name: 'Record', exact: true }).click();
  await expect.poll(() => drawer.getByText('Recording', { exact: true }).isVisible()).toBe(true);
  const live = drawer.getByTestId('live-view');
  const steps = drawer.getByRole('list', { name: 'Recorded steps' }).getByRole('listitem');
  let count = 0;
  /** Waits for the next step, and answers its words. */
  const nextStep = async (): Promise<string> => {
    count += 1;
    await expect.poll(async () => (await steps.count()) || (await drawer.getByRole('alert').allInnerTexts()).join(' '), { timeout: 20_000 }).toBe(count);
    return (await steps.nth(count - 1).getAttribute('aria-label')) ?? '';
  };
  const clickAt = async (point: { x: number; y: number }) => {
    await live.scrollIntoViewIfNeeded();
    const box = (await live.boundingBox())!;
    await page.mouse.click(box.x + ((point.x + 0.5) / SCREEN.width) * box.width, box.y + ((point.y + 0.5) / SCREEN.height) * box.height);
  };
  const key = async (name: string) => {
    await drawer.getByRole('group', { name: 'Keys' }).getByRole('button', { name, exact: true }).click();
    expect(await nextStep()).toMatch(new RegExp(`Press ${name}`));
  };

  await key('HOME');
  await clickAt(centre(await find((e) => e.text === 'Corner Shop')));
  expect(await nextStep()).toMatch(/^Step 2: Tap .*Corner Shop/);
  await clickAt(centre(await find((e) => e.text === 'Checkout')));
  expect(await nextStep()).toMatch(/^Step 3: Tap .*(Checkout|checkout)/);
  await clickAt(centre(await find((e) => e.resource_id.endsWith(':id/full_name'))));
  expect(await nextStep()).toMatch(/^Step 4: Tap .*full_name|Full name/);
  await drawer.getByRole('textbox', { name: 'Text to type' }).fill('Ada Lovelace');
  await drawer.getByRole('button', { name: 'Send text' }).click();
  expect(await nextStep()).toMatch(/^Step 5: Type “Ada Lovelace”/);
  await key('ENTER');
  // Nothing at this point of the checkout screen (between the text and the keyboard): a point, fragile.
  await clickAt({ x: 540, y: 1420 });
  expect(await nextStep()).toMatch(/^Step 7: Tap the point 540, 14\d\d, fragile$/);
  expect(await steps.nth(6).getByText('Fragile: a screen point').isVisible()).toBe(true);
  // A check picked on the screen: nothing reaches the device (the field keeps its focus and text).
  await drawer.getByRole('button', { name: 'Wait for…' }).click();
  expect(await drawer.getByRole('button', { name: 'Wait for…' }).getAttribute('aria-pressed')).toBe('true');
  await clickAt(centre(await find((e) => e.text === 'Delivery details')));
  expect(await nextStep()).toMatch(/^Step 8: Wait for .*(Delivery details|section_delivery)/);
  expect(await drawer.getByRole('button', { name: 'Wait for…' }).getAttribute('aria-pressed')).toBe('false');
  // A press held on the picture long-presses, a press that moves swipes (both deleted below).
  const pressAt = async (from: { x: number; y: number }, to: { x: number; y: number }, holdMs: number) => {
    const box = (await live.boundingBox())!;
    const on = (p: { x: number; y: number }) => [box.x + ((p.x + 0.5) / SCREEN.width) * box.width, box.y + ((p.y + 0.5) / SCREEN.height) * box.height] as const;
    await page.mouse.move(...on(from));
    await page.mouse.down();
    await page.mouse.move(...on(to), { steps: 5 });
    await page.waitForTimeout(holdMs);
    await page.mouse.up();
  };
  const label = centre(await find((e) => e.text === 'Delivery details'));
  await pressAt(label, label, 800);
  expect(await nextStep()).toMatch(/^Step 9: Long-press .*(Delivery details|section_delivery)” for \d{3,4} ms/);
  await pressAt({ x: 540, y: 1300 }, { x: 540, y: 700 }, 100);
  expect(await nextStep()).toMatch(/^Step 10: Swipe from 54\d, 130\d to 54\d, 70\d in \d+ ms/);
  await key('BACK');
  await key('BACK');
  await key('HOME');
  expect(tapRequests).toEqual([]);

  // A reload finds the recording in progress, with its steps.
  await page.reload();
  // The address names the device, so the drawer opens again by itself.
  await expect.poll(() => drawer.isVisible()).toBe(true);
  await expect.poll(() => drawer.getByText('Recording', { exact: true }).isVisible(), { timeout: 15_000 }).toBe(true);
  await expect.poll(() => steps.count()).toBe(count);

  // Step 2's selector changed to another candidate, each shown with its matches on the screen now.
  const second = steps.nth(1);
  await second.getByRole('button', { name: 'Change selector…' }).click();
  const choice = second.getByRole('radiogroup', { name: 'Selector for step 2' });
  await expect.poll(() => choice.getByRole('radio').count()).toBeGreaterThan(1);
  expect(await choice.innerText()).toMatch(/1 match now/);
  await frameRecorder(drawer, 1);
  await checkRecorder(page, 'recorder-candidates', 'the recorder with a step’s selector candidates');
  // The icon's description when it is offered, else the first other candidate.
  const labelBefore = await second.getAttribute('aria-label');
  const description = choice.getByRole('radio', { name: /^description “/ });
  let pick: Locator | undefined = (await description.count()) > 0 ? description : undefined;
  for (const radio of await choice.getByRole('radio').all()) if (!pick && !(await radio.isChecked())) pick = radio;
  await pick!.click();
  await expect.poll(() => second.getAttribute('aria-label')).not.toBe(labelBefore);
  expect(await second.getAttribute('aria-label')).toMatch(/^Step 2: Tap description “Corner Shop”|^Step 2: Tap /);

  await frameRecorder(drawer, 3);
  await checkRecorder(page, 'recorder', 'the recorder');

  // The fragile step deleted.
  await steps.nth(6).getByRole('button', { name: 'Delete step 7' }).click();
  await expect.poll(() => steps.count()).toBe(count - 1);
  expect((await steps.allInnerTexts()).join('\n')).not.toMatch(/the point 540/);
  // And the long press and the swipe, which replay does not need.
  for (const seq of [9, 10]) {
    const before = await steps.count();
    await drawer.getByRole('button', { name: `Delete step ${seq}` }).click();
    await expect.poll(() => steps.count()).toBe(before - 1);
  }
  expect((await steps.allInnerTexts()).join('\n')).not.toMatch(/Long-press|Swipe/);

  // Saved twice, as a block macro and as a code macro; recording goes on.
  const saveAs = async (name: string, kind: RegExp, shot?: string): Promise<number> => {
    await drawer.getByRole('button', { name: 'Save…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save the recording as a macro' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
    await dialog.getByRole('radio', { name: kind }).check();
    await dialog.getByRole('button', { name: 'Save macro' }).click();
    const link = dialog.getByRole('link', { name });
    await expect.poll(async () => (await link.isVisible()) || (await dialog.getByRole('alert').allInnerTexts()).join(' '), { timeout: 20_000 }).toBe(true);
    const macroId = Number((await link.getAttribute('href'))!.split('/').pop());
    if (shot) await checkRecorder(page, shot, 'the save dialog');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    return macroId;
  };
  const blockId = await saveAs('Checkout as Ada', /^Block macro/, 'recorder-save');
  const codeId = await saveAs('Checkout as Ada (code)', /^Code macro/);
  expect(await drawer.getByText('Recording', { exact: true }).isVisible()).toBe(true);
  const macros = await w.t.db.kysely.selectFrom('macros').select(['id', 'kind']).where('id', 'in', [blockId, codeId]).orderBy('id').execute();
  expect(macros).toEqual([{ id: blockId, kind: 'block' }, { id: codeId, kind: 'python' }]);

  // A reload keeps what Replay can run: the recording lists the macros saved from it.
  await page.reload();
  await expect.poll(() => drawer.getByText('Recording', { exact: true }).isVisible(), { timeout: 15_000 }).toBe(true);
  const replayChoice = drawer.getByRole('combobox', { name: 'Macro to replay' });
  await expect.poll(() => replayChoice.locator('option').allInnerTexts()).toEqual(['Checkout as Ada (block)', 'Checkout as Ada (code) (code)']);

  // Replay the block macro: the run's page opens, and its trace follows the recorded steps.
  await replayChoice.selectOption(String(blockId));
  await drawer.getByRole('button', { name: 'Replay' }).click();
  await page.waitForURL(/\/runs\/\d+\?cloud_run=\d+$/, { timeout: 20_000 });
  await expect.poll(() => page.getByRole('heading', { name: /^Trace/ }).isVisible(), { timeout: 20_000 }).toBe(true);
  await expect.poll(() => page.getByTestId('cloud-run-state').innerText(), { timeout: 60_000 }).toMatch(/finished|failed/);
  expect(await page.getByTestId('cloud-run-state').innerText()).toBe('finished');
  await expect.poll(() => page.getByRole('table', { name: "Timeline of the run's steps" }).getByRole('row').count(), { timeout: 10_000 }).toBeGreaterThan(count - 3);
  await page.waitForTimeout(500);
  await expectAccessible(page, 'the replay run page');
  const card = page.locator('.mantine-Card-root', { has: page.getByRole('heading', { name: /^Trace/ }) });
  await card.scrollIntoViewIfNeeded();
  await card.screenshot({ path: `${SCREENSHOTS}/recorder-replay-trace.png`, animations: 'disabled', caret: 'hide', style: '.mantine-AppShell-header { visibility: hidden !important; }' });

  // The code macro runs the same steps on the device, now back on its home screen.
  const started = await page.evaluate(async ({ deviceId, macroId }) => {
    const res = await fetch(`/api/hosted/devices/${deviceId}/run`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ macro_id: macroId }) });
    return { status: res.status, body: (await res.json()) as { id: number; state: string } };
  }, { deviceId: id, macroId: codeId });
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  const runState = () => page.evaluate(async (runId) => ((await (await fetch(`/api/hosted/runs/${runId}`)).json()) as { state: string; state_message?: string | null }), started.body.id);
  await expect.poll(async () => (await runState()).state, { timeout: 60_000 }).toMatch(/^(finished|failed|stopped)$/);
  const ended = await runState();
  if (ended.state !== 'finished') {
    const log = await page.evaluate(async (executionId) => (await (await fetch(`/api/executions/${executionId}/logs?max_lines=40`)).json()) as { lines: string[] }, (ended as unknown as { execution_id: string }).execution_id);
    process.stderr.write(`the code macro's run: ${JSON.stringify(ended)}\n${log.lines.join('\n')}\n`);
  }
  expect(ended).toMatchObject({ state: 'finished' });
}
