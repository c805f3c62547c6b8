// The images module's front door: the image library. Other modules store, read, copy and
// check images only through `ImageLibrary` (it alone writes the `images` table), and copy
// pictures into a store of their own with `imageCopySource`.
export { buildImagesModule } from './module.js';
export { IMAGE_COPY_BATCH, IMAGE_COPY_COLUMNS, imageCopySource } from './copy-source.js';
export { type ImageCopy, ImageLibrary, ownedImageIds } from './library.js';
export { ScreenImages, type VisionEngines } from './screen-images.js';
export { Image, ImageId, ImageName } from './schemas.js';
