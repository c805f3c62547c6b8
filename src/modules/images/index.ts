// The images module's front door: the image library. Other modules store, read, copy and
// check images only through `ImageLibrary` (it alone writes the `images` table).
export { buildImagesModule, type ImagesServices } from './module.js';
export { IMAGE_ID_PATTERN, type ImageContent, type ImageCopy, ImageLibrary, type ImageRecord, type LibraryOwner, type StoreImageInput } from './library.js';
export { type CropInput, type FindImageInput, type ReadTextInput, ScreenImages } from './screen-images.js';
export { IMAGE_MAX_BYTES } from './image-bytes.js';
export { Image, ImageId, ImageName } from './schemas.js';
