// Builds the images module: the image library, its routes, and the screen operations
// (crop, find, read text) that tools, the device RPC and block programs share.
import type { BuiltModule, ModuleDeps } from '../../http/module.js';
import { ImageLibrary } from './library.js';
import { imageRoutes } from './routes.js';
import { ScreenImages } from './screen-images.js';

export interface ImagesServices {
  library: ImageLibrary;
  screen: ScreenImages;
}

export function buildImagesModule(deps: ModuleDeps): BuiltModule<ImagesServices> {
  const library = new ImageLibrary(deps.db.kysely, deps.clock);
  // The OCR engine starts on first use, so a process that never reads pixels never loads it.
  const screen = new ScreenImages(library);
  return { routes: imageRoutes(library), services: { library, screen }, close: () => screen.close() };
}
