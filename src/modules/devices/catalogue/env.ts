// What a catalogue action runs with: the device, whose library images it may look for, the
// vision engines (handed in by the composition root: the images module owns them and reads
// the devices module, so it cannot be imported here), and, for a run, its interrupts and
// where its log lines go. Every surface builds one of these and nothing else differs.
import type { DeviceDriver } from '../hosts/types.js';
import type { Bounds } from '../hosts/types.js';
import type { TemplateMatch, TextLine } from '../../vision/index.js';
import type { Selector } from './selector.js';

/** What an image match answers that the catalogue uses (the engine's TemplateMatch has more). */
export type ImageMatch = Pick<TemplateMatch, 'x' | 'y' | 'w' | 'h' | 'score'>;

/** Template matching and OCR, as the images module's ScreenImages provides them. */
export interface DeviceVision {
  find(owner: { userId: number }, driver: DeviceDriver, input: { imageId: string; threshold?: number }): Promise<ImageMatch[]>;
  readText(driver: DeviceDriver, input: { region?: Bounds; ocr?: boolean }): Promise<TextLine[]>;
}

/** What an interrupt does when its selector shows: tap it (or tap something else), or press a key. */
export type InterruptAction = { type: 'tap'; selector?: Selector; x?: number; y?: number } | { type: 'key'; key: string };

export interface Interrupt {
  when: Selector;
  do: InterruptAction;
}

export interface ActionEnv {
  driver: DeviceDriver;
  /** Whose image library `image_id` reads. */
  owner: { userId: number };
  vision: DeviceVision;
  /** A run's registered interrupts, handled while any wait polls. */
  interrupts?: readonly Interrupt[];
  /** A run's log (interrupt handlings); surfaces without a log leave it out. */
  log?: (line: string) => void;
  /** Stops a wait early (a run stopped). */
  signal?: AbortSignal;
}
