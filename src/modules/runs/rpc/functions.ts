// Every function of the Python SDK that reaches the device (decisions.md §10), each with its
// body, its answer and what it does through the run's DeviceDriver. `wait` and `log` never
// leave the macro's process (a sleep, and a line on stdout), so they are not here.
import type { Static, TSchema } from 'typebox';
import type { Db } from '../../../db/database.js';
import { ValidationError } from '../../../core/errors.js';
import type { Clock } from '../../../lib/clock.js';
import type { EmitEvent } from '../../events/index.js';
import { type DeviceDriver, findText, groupOfDevice, tapElement, tapText, withCenter } from '../../devices/index.js';
import { type ImageFinder, IMAGE_THRESHOLD_DEFAULT } from '../device/image-matching.js';
import { Answers, Bodies, Done, ElementAnswer, EVENT_DATA_MAX_BYTES, FoundElement } from './rpc-schemas.js';

/** The run a call comes from, as its token showed. */
export interface RunCaller {
  runId: number;
  userId: number;
  deviceId: number;
  executionId: string;
}

export interface CallDeps {
  db: Db;
  clock: Clock;
  images: ImageFinder;
  /** Records `emit_event`'s custom.<name> event. */
  emit: EmitEvent;
}

interface RpcFunction<B extends TSchema | undefined> {
  summary: string;
  body: B;
  /** A JSON schema, or `png` for a screenshot's bytes. */
  answer: TSchema | 'png';
  call(driver: DeviceDriver, input: B extends TSchema ? Static<B> : undefined, caller: RunCaller, deps: CallDeps): Promise<unknown>;
}

const define = <B extends TSchema | undefined>(fn: RpcFunction<B>) => fn;
const ok = { ok: true as const };

export const RPC_FUNCTIONS = {
  tap: define({
    summary: 'Tap a point; answers the element hit, if any',
    body: Bodies.tap,
    answer: ElementAnswer,
    call: async (driver, { x, y }) => {
      const hit = await driver.tap(x, y, { identify: true });
      return { element: hit ? withCenter(hit) : null };
    },
  }),
  tap_text: define({ summary: 'Tap the element showing a text', body: Bodies.tap_text, answer: FoundElement, call: async (driver, { text }) => ({ element: await tapText(driver, text) }) }),
  tap_element: define({ summary: 'Tap an element of the UI tree by its id', body: Bodies.tap_element, answer: FoundElement, call: async (driver, input) => ({ element: await tapElement(driver, input.element_id) }) }),
  swipe: define({
    summary: 'Swipe from one point to another',
    body: Bodies.swipe,
    answer: Done,
    call: async (driver, { x1, y1, x2, y2, ms }) => (await driver.swipe(x1, y1, x2, y2, ms ?? 300), ok),
  }),
  type_text: define({ summary: 'Type into the focused field (\\n presses ENTER)', body: Bodies.type_text, answer: Done, call: async (driver, { text }) => (await driver.typeText(text), ok) }),
  key: define({ summary: 'Press an Android key', body: Bodies.key, answer: Done, call: async (driver, { name }) => (await driver.pressKey(name), ok) }),
  screenshot: define({ summary: 'The screen as PNG', body: undefined, answer: 'png', call: async (driver) => (await driver.screenshot({ format: 'png' })).data }),
  ui_tree: define({ summary: 'Every element of the front window', body: undefined, answer: Answers.elements, call: async (driver) => ({ elements: (await driver.uiTree()).map(withCenter) }) }),
  find_text: define({ summary: 'The element showing a text, or null', body: Bodies.find_text, answer: ElementAnswer, call: async (driver, { text }) => ({ element: await findText(driver, text) }) }),
  find_image: define({
    summary: 'Where a library image shows on the screen: matches at or above the threshold, best first',
    body: Bodies.find_image,
    answer: Answers.matches,
    call: async (driver, { image_id, threshold }, caller, deps) => {
      const matches = await deps.images.find({ userId: caller.userId }, driver, { imageId: image_id, threshold: threshold ?? IMAGE_THRESHOLD_DEFAULT });
      return { matches: matches.map(({ x, y, w, h, score }) => ({ x, y, w, h, score })) };
    },
  }),
  open_app: define({ summary: 'Bring an app to the front', body: Bodies.open_app, answer: Done, call: async (driver, input) => (await driver.openApp(input.package), ok) }),
  close_app: define({ summary: 'Force-stop an app', body: Bodies.close_app, answer: Done, call: async (driver, input) => (await driver.closeApp(input.package), ok) }),
  current_app: define({
    summary: 'The app in front',
    body: undefined,
    answer: Answers.currentApp,
    call: async (driver) => {
      const current = await driver.currentApp();
      return { package: current?.package ?? '', activity: current?.activity ?? null };
    },
  }),
  emit_event: define({
    summary: 'Record a custom.<name> event (webhooks deliver it)',
    body: Bodies.emit_event,
    answer: Answers.event,
    call: async (_driver, { name, data = {} }, caller, deps) => {
      const size = Buffer.byteLength(JSON.stringify(data));
      if (size > EVENT_DATA_MAX_BYTES) throw new ValidationError([{ path: 'body.data', message: `must be at most ${EVENT_DATA_MAX_BYTES} bytes as JSON (this is ${size})` }]);
      return deps.db.kysely.transaction().execute(async (trx) => {
        const groupId = (await groupOfDevice(trx, caller.userId, caller.deviceId)) ?? null;
        const { eventId } = await deps.emit(trx, {
          userId: caller.userId,
          type: `custom.${name}`,
          data: { device_id: caller.deviceId, group_id: groupId, execution_id: caller.executionId, data },
          deviceId: caller.deviceId,
          at: deps.clock.now(),
        });
        return { event_id: eventId };
      });
    },
  }),
};

export type RpcFunctionName = keyof typeof RPC_FUNCTIONS;
export const RPC_FUNCTION_NAMES = Object.keys(RPC_FUNCTIONS) as RpcFunctionName[];
