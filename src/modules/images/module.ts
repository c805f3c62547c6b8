// Builds the images module: the image library, its routes, and the screen operations
// (crop, find, read text) that tools, the device RPC and block programs share.
import type { BuiltModule, ModuleDeps } from '../../http/module.js';
import { OcrReader, type TemplateMatcher } from '../vision/index.js';
import { ImageLibrary } from './library.js';
import { type CloudScreen, imageRoutes } from './routes.js';
import { ScreenImages } from './screen-images.js';

export interface ImagesServices {
  library: ImageLibrary;
  screen: ScreenImages;
}

export interface ImagesModuleDeps extends ModuleDeps {
  /** A ready cloud device's driver, for the console's crop route: the devices module's actions. */
  cloudScreen: CloudScreen;
  /** Where template matches run (default: this process's pool). */
  matcher?: TemplateMatcher;
}

export function buildImagesModule(deps: ImagesModuleDeps): BuiltModule<ImagesServices> {
  const library = new ImageLibrary(deps.db.kysely, deps.clock);
  // The OCR engine starts on first use, so a process that never reads pixels never loads it.
  const screen = new ScreenImages(library, new OcrReader(), deps.matcher);
  return { routes: imageRoutes(library, screen, deps.cloudScreen), services: { library, screen }, close: () => screen.close() };
}
