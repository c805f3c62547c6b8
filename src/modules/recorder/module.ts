// Builds the recorder module (decisions.md §18): recording a cloud device's live view into
// steps, saving them as a block or code macro, and replaying one as a cloud run. It drives
// devices through the devices module's host and catalogue, cuts crops into the image library,
// and makes macros and runs through their owners' services, all handed in by the wiring.
import type { BuiltModule, ModuleDeps } from '../../http/module.js';
import { RecorderInputs, type ScreenCrops } from './inputs.js';
import { recorderRoutes } from './routes.js';
import { type RecorderPorts, RecorderService } from './service.js';

export interface RecorderModuleDeps extends ModuleDeps, RecorderPorts {
  /** Image crops, template matching and OCR: the images module's ScreenImages. */
  screen: ScreenCrops;
}

export interface RecorderServices {
  recorder: RecorderService;
  inputs: RecorderInputs;
}

export function buildRecorderModule(deps: RecorderModuleDeps): BuiltModule<RecorderServices> {
  const recorder = new RecorderService(deps.db, deps.clock, deps);
  const inputs = new RecorderInputs(recorder, deps.screen, deps.clock);
  return { routes: recorderRoutes(recorder, inputs), services: { recorder, inputs } };
}
