// What a person does while recording (decisions.md §18): each input is performed on the
// device through the device-action catalogue (the code block steps and the tool server run),
// then recorded as a step with the selector §18's order gives the element at the point, read
// from the UI tree just before the input, and the screen of that moment as its frame. A check
// ("Wait for…") records a wait_for on the element at a point without touching the device.
import type { ServiceContext } from '../../core/context.js';
import { ValidationError } from '../../core/errors.js';
import type { Clock } from '../../lib/clock.js';
import { type ActionEnv, type DeviceDriver, type DeviceVision, entryNamed, type ScreenSize, TRACE_FRAME, type UiElement } from '../devices/index.js';
import type { InputBody } from './schemas.js';
import { type Candidate, elementAt, isDialogButton, type Point, selectorsFor } from './selectors.js';
import { noElement, type RecorderService } from './service.js';
import type { RecordingRow, StoredStep } from './store.js';

type Caller = Pick<ServiceContext, 'userId'>;

/** Cutting a crop of the screen into the image library (the images module's ScreenImages). */
export interface ScreenCrops extends DeviceVision {
  crop(owner: Caller, driver: DeviceDriver, input: { x: number; y: number; w: number; h: number; name: string }): Promise<{ id: string }>;
}

interface Before {
  tree: UiElement[];
  size: ScreenSize;
  frame: Buffer | null;
}

const presentElement = (e: UiElement) => ({ text: e.text, resource_id: e.resource_id, desc: e.content_desc, class: e.class, bounds: e.bounds });

export class RecorderInputs {
  constructor(
    private readonly recorder: RecorderService,
    private readonly screen: ScreenCrops,
    private readonly clock: Clock,
  ) {}

  private env(ctx: Caller, driver: DeviceDriver): ActionEnv {
    return { driver, owner: { userId: ctx.userId }, vision: this.screen };
  }

  /** The screen just before the input: its tree and size, and its frame (a trace frame; none when the picture fails). */
  private async before(driver: DeviceDriver): Promise<Before> {
    const [tree, size, frame] = await Promise.all([driver.uiTree(), driver.screenSize(), driver.screenshot(TRACE_FRAME).then((shot) => shot.data, () => null)]);
    return { tree, size, frame };
  }

  /** The candidates for an element, a crop cut when no attribute names it; coordinates last when `point` is given. */
  private async candidates(ctx: Caller, driver: DeviceDriver, row: RecordingRow, look: Before, element: UiElement | null, point: Point | null): Promise<Candidate[]> {
    const found: Candidate[] = [];
    if (element) {
      const choice = selectorsFor(look.tree, look.size, element);
      found.push(...choice.selectors);
      if (choice.needsCrop) {
        const b = element.bounds;
        const left = Math.max(0, b.left);
        const top = Math.max(0, b.top);
        const right = Math.min(look.size.width, b.right);
        const bottom = Math.min(look.size.height, b.bottom);
        if (right - left >= 8 && bottom - top >= 8) {
          const image = await this.screen.crop(ctx, driver, { x: left, y: top, w: right - left, h: bottom - top, name: `Recording ${row.id} (${element.class.split('.').pop() ?? 'element'})` });
          found.push({ kind: 'image', selector: { image_id: image.id } });
        }
      }
    }
    if (point) found.push({ kind: 'coordinates', selector: point });
    return found;
  }

  private async record(row: RecordingRow, step: Omit<StoredStep, 'seq'>, frame: Buffer | null): Promise<StoredStep> {
    const seq = await this.recorder.store.takeSeq(row.id);
    const stored = { seq, ...step } as StoredStep;
    await this.recorder.store.addStep(row.id, stored, frame, this.clock.now());
    return stored;
  }

  /** Performs the input on the device and records it; 409 `recording_stopped` once the recording has ended. */
  async input(ctx: Caller, rid: string, input: InputBody) {
    const row = await this.recorder.holdFor(ctx, rid);
    const driver = await this.recorder.driverOf(ctx, row);
    const env = this.env(ctx, driver);
    const look = await this.before(driver);
    for (const [path, point] of pointsOf(input)) checkOnScreen(path, point, look.size);
    let step: Omit<StoredStep, 'seq'>;
    if (input.type === 'tap' || input.type === 'long_press') {
      const point = { x: input.x, y: input.y };
      const element = elementAt(look.tree, point);
      const candidates = await this.candidates(ctx, driver, row, look, element, point);
      if (input.type === 'tap') await entryNamed('device_tap').run(env, point);
      else await entryNamed('device_long_press').run(env, { ...point, ...(input.ms !== undefined ? { ms: input.ms } : {}) });
      step = { action: input.type, ...target(candidates, 0), x: input.x, y: input.y, ...(input.type === 'long_press' && input.ms !== undefined ? { ms: input.ms } : {}), element: element && presentElement(element), ...(input.type === 'tap' && isDialogButton(element) ? { interrupt: true } : {}) };
    } else if (input.type === 'swipe') {
      const ms = input.ms ?? 300;
      await entryNamed('device_swipe').run(env, { from: input.from, to: input.to, ms });
      step = { action: 'swipe', selector: null, fragile: false, candidates: [], chosen: -1, from: input.from, to: input.to, ms };
    } else if (input.type === 'key') {
      await entryNamed('device_key').run(env, { key: input.key });
      step = { action: 'key', selector: null, fragile: false, candidates: [], chosen: -1, key: input.key };
    } else {
      const field = look.tree.find((e) => e.editable && e.focused) ?? null;
      const typingOn = await this.typingInto(row, field);
      // A new step's selector (and crop) is taken from the field before the text goes in; text
      // added to the previous step keeps that step's.
      const candidates = field && !typingOn ? await this.candidates(ctx, driver, row, look, field, null) : [];
      await entryNamed('device_type').run(env, { text: input.text });
      if (typingOn) {
        const merged = { ...typingOn, text: `${typingOn.text ?? ''}${input.text}` };
        await this.recorder.store.replaceStep(row.id, merged);
        return merged;
      }
      step = { action: 'type', ...target(candidates, 0), text: input.text, element: field && presentElement(field) };
    }
    return this.record(row, step, look.frame);
  }

  /** The last step, when it typed into this same field: text typed on into it stays one `type` step. */
  private async typingInto(row: RecordingRow, field: UiElement | null): Promise<StoredStep | null> {
    const last = await this.recorder.store.lastStep(row.id);
    if (!last || last.action !== 'type' || field === null || !last.element) return null;
    const same = last.element.resource_id === field.resource_id && JSON.stringify(last.element.bounds) === JSON.stringify(field.bounds);
    return same ? last : null;
  }

  /** A `wait_for` step on the element at the point; nothing is sent to the device. 422 `no_element` when nothing there can be named. */
  async check(ctx: Caller, rid: string, point: Point) {
    const row = await this.recorder.holdFor(ctx, rid);
    const driver = await this.recorder.driverOf(ctx, row);
    const look = await this.before(driver);
    checkOnScreen('body', point, look.size);
    const element = elementAt(look.tree, point);
    if (!element) throw noElement(`No element at ${point.x}, ${point.y} on the screen now: pick an element to wait for.`);
    const candidates = await this.candidates(ctx, driver, row, look, element, null);
    if (candidates.length === 0) throw noElement(`The element at ${point.x}, ${point.y} has no text, id or description and is too small to crop: pick another element.`);
    return this.record(row, { action: 'wait_for', ...target(candidates, 0), element: presentElement(element) }, look.frame);
  }

  /** Each candidate of the step with how many elements it names on the screen now (as device_find counts them). */
  async candidateMatches(ctx: Caller, rid: string, seq: number) {
    const row = await this.recorder.store.find(ctx.userId, rid);
    const step = await this.recorder.store.step(row.id, seq);
    const driver = await this.recorder.driverOf(ctx, row);
    const env = this.env(ctx, driver);
    const items = [];
    for (const candidate of step.candidates) {
      let matches = 1;
      if (candidate.kind !== 'coordinates') {
        const answer = await entryNamed('device_find').run(env, { selector: candidate.selector });
        matches = (answer.data?.items as unknown[] | undefined)?.length ?? 0;
      }
      items.push({ ...candidate, matches });
    }
    return { items };
  }

  /** Makes candidates[chosen] the step's selector; 422 when there is no such candidate. */
  async choose(ctx: Caller, rid: string, seq: number, chosen: number): Promise<StoredStep> {
    const row = await this.recorder.store.find(ctx.userId, rid);
    const step = await this.recorder.store.step(row.id, seq);
    if (chosen >= step.candidates.length) {
      throw new ValidationError([{ path: 'body.chosen', message: step.candidates.length === 0 ? 'cannot be set: this step has no target to name' : `must be below ${step.candidates.length} (the step's candidates)` }]);
    }
    const updated = { ...step, ...target(step.candidates, chosen) };
    await this.recorder.store.replaceStep(row.id, updated);
    return updated;
  }
}

/** The points an input names, with their paths for a refusal. */
function pointsOf(input: InputBody): [string, Point][] {
  if (input.type === 'tap' || input.type === 'long_press') return [['body', { x: input.x, y: input.y }]];
  if (input.type === 'swipe') return [['body.from', input.from], ['body.to', input.to]];
  return [];
}

/** 422 before anything happens (no crop cut, no step) for a point off the screen. */
function checkOnScreen(path: string, point: Point, size: ScreenSize): void {
  if (point.x >= size.width || point.y >= size.height) {
    throw new ValidationError([{ path, message: `must be a point on the screen (x below ${size.width}, y below ${size.height})` }]);
  }
}

/** The step's selector fields for candidates[chosen]: coordinates leave the selector null and mark the step fragile. */
function target(candidates: Candidate[], chosen: number): Pick<StoredStep, 'selector' | 'fragile' | 'candidates' | 'chosen'> {
  const picked = candidates[chosen];
  if (!picked) return { selector: null, fragile: false, candidates, chosen: -1 };
  const coordinates = picked.kind === 'coordinates';
  return { selector: coordinates ? null : (picked.selector as StoredStep['selector']), fragile: coordinates, candidates, chosen };
}
