// Builds the images module: the image library and its routes.
import type { BuiltModule, ModuleDeps } from '../../http/module.js';
import { ImageLibrary } from './library.js';
import { imageRoutes } from './routes.js';

export interface ImagesServices {
  library: ImageLibrary;
}

export function buildImagesModule(deps: ModuleDeps): BuiltModule<ImagesServices> {
  const library = new ImageLibrary(deps.db.kysely, deps.clock);
  return { routes: imageRoutes(library), services: { library } };
}
